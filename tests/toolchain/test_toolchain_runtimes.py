"""Runtime libraries per language, for linked programs and for the JIT; doctor."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

import enzyme
from enzyme import llvm, toolchain
from enzyme.errors import LinkError, UsageError

MAIN_C = """\
#include <stdio.h>
double fnorm(const double* x, int n);
double rust_vsum(unsigned long n);
int main(void) {
  double x[2] = {3.0, 4.0};
  printf("%.1f %.1f\\n", fnorm(x, 2), rust_vsum(5));
  return 0;
}
"""
FNORM_F90 = """\
function fnorm(x, n) bind(C, name="fnorm")
  use iso_c_binding
  integer(c_int), value :: n
  real(c_double) :: x(n), fnorm
  fnorm = norm2(x)
  print '(a)', "fortran runtime ok"
end function
"""
VSUM_RS = """\
#[no_mangle]
pub extern "C" fn rust_vsum(n: usize) -> f64 {
    let v: Vec<f64> = (0..n).map(|i| i as f64).collect();
    v.iter().sum()
}
"""


def test_link_libraries_per_language() -> None:
    assert toolchain.link_libraries(["c"]) == ["-lm"]
    assert toolchain.link_libraries(["hip"]) == []
    cxx = toolchain.link_libraries(["cxx"])
    assert "-lstdc++" in cxx and "-lm" in cxx
    fortran = toolchain.link_libraries(["fortran"])
    assert fortran[0].endswith("libflang_rt.runtime.a") and Path(fortran[0]).is_file()
    rust = toolchain.link_libraries(["rust"])
    assert Path(rust[0]).is_file() and str(toolchain.cache_dir()) in rust[0]
    with pytest.raises(UsageError, match="unknown language"):
        toolchain.link_libraries(["cobol"])


def test_executable_from_c_fortran_rust(tmp_path: Path) -> None:
    sources = {"main.c": MAIN_C, "fnorm.f90": FNORM_F90, "vsum.rs": VSUM_RS}
    inputs = []
    for name, text in sources.items():
        (tmp_path / name).write_text(text)
        inputs.append((name, toolchain.compile_to_bitcode(tmp_path / name, tmp_path / f"{name}.bc").read_bytes()))
    mod = llvm.link(inputs)
    obj = llvm.emit_object(mod, tmp_path / "prog.o")
    languages = [toolchain.language_of(name) for name in sources]
    program = toolchain.link_executable([obj], tmp_path / "prog", libraries=toolchain.link_libraries(languages))
    result = subprocess.run([str(program)], capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["fortran runtime ok", "5.0 10.0"]


def test_link_failure_quotes_the_linker(tmp_path: Path) -> None:
    mod = llvm.parse("declare void @nowhere()\ndefine i32 @main() {\n  call void @nowhere()\n  ret i32 0\n}\n")
    obj = llvm.emit_object(mod, tmp_path / "m.o")
    with pytest.raises(LinkError, match=r"(?s)linking executable .*prog failed:\n.*undefined symbol: nowhere"):
        toolchain.link_executable([obj], tmp_path / "prog")


def test_jit_libraries_are_cached_shared_objects() -> None:
    libraries = toolchain.jit_libraries(["fortran", "rust", "cxx"])
    assert "libm.so.6" in libraries and "libstdc++.so.6" in libraries
    built = [Path(p) for p in libraries if "/" in p]
    assert len(built) == 2 and all(p.is_file() and p.suffix == ".so" for p in built)
    assert all(toolchain.cache_dir() in p.parents for p in built)
    assert toolchain.jit_libraries(["fortran", "rust", "cxx"]) == libraries  # built once


def test_doctor_reports_every_tool() -> None:
    rows = {row.name: row for row in toolchain.doctor(enzyme.__version__)}
    for name in ("pyenzyme", "llvmlite", "clang", "flang", "ld.lld", "flang-runtime"):
        assert rows[name].required and rows[name].status == "ok", rows[name]
    assert rows["pyenzyme"].version == enzyme.__version__ and rows["pyenzyme"].path == str(Path(enzyme.__file__).parent)
    assert "(LLVM 22." in rows["llvmlite"].version and rows["llvmlite"].llvm_major == 22
    assert rows["clang"].llvm_major == 22 and rows["clang"].version.startswith("22.")
    assert "LLVM 22." in rows["rustc"].version
    assert not rows["ptxas"].required and not rows["rustc"].required  # Rust and CUDA sources only
    table = toolchain.format_table(list(rows.values()))
    assert table.splitlines()[0].split() == ["tool", "status", "version", "path", "fix"]


def test_doctor_with_missing_and_wrong_tools(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fake = tmp_path / "old-flang"
    fake.write_text("#!/bin/sh\necho 'flang-new version 17.0.6'\n")
    fake.chmod(0o755)
    monkeypatch.setenv("ENZYME_CLANG", "/nonexistent/clang")
    monkeypatch.setenv("ENZYME_FLANG", str(fake))
    monkeypatch.setenv("ENZYME_PTXAS", "/nonexistent/ptxas")
    rows = {row.name: row for row in toolchain.doctor(enzyme.__version__)}
    assert rows["clang"].status == "missing"
    assert rows["clang"].fix == "apt-get install -y clang-22, or set ENZYME_CLANG=/path/to/clang"
    assert rows["flang"].status == "wrong-version" and rows["flang"].llvm_major == 17
    assert rows["ptxas"].status == "optional-missing"


@pytest.mark.requires_tool("cuda")
def test_cuda_programs_link_the_cuda_runtime() -> None:
    """A CUDA program's host side launches kernels through libcudart (found at run time by rpath)."""
    flags = toolchain.link_libraries(["cuda"])
    assert "-lcudart" in flags and "-lstdc++" in flags
    assert any(f.startswith("-Wl,-rpath,") and Path(f.split(",", 2)[2], "libcudart.so").exists() for f in flags)

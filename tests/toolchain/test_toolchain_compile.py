"""compile_to_bitcode for every language, with the flags TOOLCHAIN.md prescribes."""
from __future__ import annotations

from pathlib import Path

import pytest

from enzyme import llvm, toolchain
from enzyme.errors import UsageError


def compile_text(tmp_path: Path, name: str, text: str, **options) -> llvm.ModuleRef:
    source = tmp_path / name
    source.write_text(text)
    out = toolchain.compile_to_bitcode(source, tmp_path / "out" / f"{name}.bc", **options)
    assert out.read_bytes()[:4] == b"BC\xc0\xde"
    return llvm.parse_file(out)


def test_c_at_O0_stays_optimisable_and_debug_info(tmp_path: Path) -> None:
    mod = compile_text(tmp_path, "a.c", "double f(double x) { return x * x; }\n", opt_level=0, debug=True)
    text = llvm.to_text(mod)
    assert "define" in text and "optnone" not in text  # -Xclang -disable-O0-optnone took effect
    assert "!DICompileUnit" in text


@pytest.mark.parametrize("opt_level", [2, 3])
def test_pre_ad_flags_leave_loops_rolled_and_unmarked(tmp_path: Path, opt_level: int) -> None:
    """AD sees rolled loops, but nothing may stop the post-AD O3 from unrolling them: -fno-unroll-loops
    marked every loop llvm.loop.unroll.disable, which LLVM obeys in every later pipeline (issue 12).
    A user's own #pragma nounroll stays.  (clang -O1 itself marks loops: it does not unroll at -O1.)"""
    text = str(compile_text(tmp_path, "loops.c", """
double f(const double *x, int n) { double s = 0; for (int i = 0; i < n; i++) s += x[i] * x[i]; return s; }
double g(const double *x) { double s = 0; for (int i = 0; i < 4; i++) s += x[i] * x[i]; return s; }
""", opt_level=opt_level))
    assert "llvm.loop.unroll.disable" not in text
    g = text[text.index("define dso_local double @g"):]
    assert g[:g.index("\n}")].count("fmuladd") == 1  # the constant-count loop is still a loop
    pragma = str(compile_text(tmp_path, "pragma.c", """
double h(const double *x, int n) { double s = 0;
#pragma nounroll
  for (int i = 0; i < n; i++) s += x[i]; return s; }
""", opt_level=opt_level))
    assert "llvm.loop.unroll.disable" in pragma


def test_c_defines_include_dirs_and_flags(tmp_path: Path) -> None:
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "k.h").write_text("#define FACTOR 3.0\n")
    mod = compile_text(
        tmp_path, "b.c", '#include "k.h"\ndouble f(double x) { return FACTOR * x + OFFSET; }\n',
        include_dirs=[tmp_path / "inc"], defines=["OFFSET=2.5"], flags=["-ffp-contract=off"],
    )
    text = str(mod.get_function("f"))
    assert "3.0" in text or "3.000000e+00" in text
    assert "2.5" in text or "2.500000e+00" in text


def test_cxx(tmp_path: Path) -> None:
    mod = compile_text(
        tmp_path, "v.cpp",
        '#include <vector>\nextern "C" double total(int n) { std::vector<double> v(n, 1.0); double s = 0;'
        " for (double x : v) s += x; return s; }\n",
    )
    assert mod.get_function("total").name == "total"


def test_fortran_modules_are_shared_through_module_dir(tmp_path: Path) -> None:
    modules = tmp_path / "mods"
    compile_text(tmp_path, "m.f90", "module m\ncontains\n  real(8) function twice(x)\n    real(8) :: x\n"
                 "    twice = 2 * x\n  end function\nend module\n", module_dir=modules)
    assert (modules / "m.mod").is_file()
    mod = compile_text(tmp_path, "use.f90", "subroutine s(x)\n  use m\n  real(8) :: x\n  x = twice(x)\nend\n",
                       module_dir=modules, opt_level=0)
    assert mod.get_function("s_").name == "s_"


def test_rust_with_cfg_and_debuginfo(tmp_path: Path) -> None:
    mod = compile_text(
        tmp_path, "my-crate.rs",
        '#[cfg(feature = "double")]\n#[no_mangle]\npub extern "C" fn scaled(x: f64) -> f64 { 2.0 * x }\n',
        defines=['feature=double'], debug=True,
    )
    assert mod.get_function("scaled").name == "scaled"
    assert "!DICompileUnit" in llvm.to_text(mod)
    assert not list(tmp_path.glob("*.rlib")) and not list(Path.cwd().glob("libmy_crate*"))


def test_ir_inputs_pass_through(tmp_path: Path) -> None:
    mod = compile_text(tmp_path, "t.ll", "define i32 @seven() {\n  ret i32 7\n}\n")
    assert mod.get_function("seven").name == "seven"


def test_bad_requests(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="source file .*nothere.c does not exist"):
        toolchain.compile_to_bitcode(tmp_path / "nothere.c", tmp_path / "x.bc")
    (tmp_path / "a.c").write_text("int x;\n")
    with pytest.raises(UsageError, match="optimization level must be 0, 1, 2 or 3, not 5"):
        toolchain.compile_to_bitcode(tmp_path / "a.c", tmp_path / "x.bc", opt_level=5)


@pytest.mark.requires_tool("cuda")
def test_cuda_device_code(tmp_path: Path) -> None:
    mod = compile_text(tmp_path, "k.cu", "__global__ void k(double* a) { a[threadIdx.x] *= 2; }\n")
    assert mod.triple == "nvptx64-nvidia-cuda"
    assert (toolchain.cache_dir() / "cuda-header-stubs-1" / "curand_mtgp32_kernel.h").is_file()


@pytest.mark.requires_tool("rocm-device-libs")
@pytest.mark.requires_tool("hip")
def test_hip_device_code(tmp_path: Path) -> None:
    mod = compile_text(tmp_path, "k.hip", "#include <hip/hip_runtime.h>\n"
                       "__global__ void k(double* a) { a[threadIdx.x] = sin(a[threadIdx.x]); }\n")
    assert mod.triple == "amdgcn-amd-amdhsa"


def test_hip_without_device_libs_says_how_to_install(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("ENZYME_ROCM_DEVICE_LIBS", str(tmp_path / "none"))
    (tmp_path / "k.hip").write_text("__global__ void k() {}\n")
    from enzyme.errors import ToolNotFoundError

    with pytest.raises(ToolNotFoundError, match="apt-get install -y rocm-device-libs"):
        toolchain.compile_to_bitcode(tmp_path / "k.hip", tmp_path / "k.bc")

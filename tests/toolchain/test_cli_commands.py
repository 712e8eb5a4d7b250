"""The ``enzyme`` command line, run as ``python -m enzyme`` in a subprocess."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import enzyme
from enzyme import llvm, pipeline
from enzyme.errors import VerifyError

C_SOURCE = '#include "k.h"\ndouble poly(double x) { return FACTOR * x * x + OFFSET; }\n'
F_SOURCE = "subroutine twice(x) bind(C, name=\"twice\")\n  real(8) :: x\n  x = 2 * x\nend subroutine\n"
RS_SOURCE = '#[no_mangle]\npub extern "C" fn rcube(x: f64) -> f64 { x * x * x }\n'


def enzyme_cli(*args: object, env: dict[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "enzyme", *map(str, args)], capture_output=True, text=True,
                          timeout=300, env={**os.environ, **(env or {})}, cwd=cwd, check=False)


@pytest.fixture
def sources(tmp_path: Path) -> Path:
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "k.h").write_text("#define FACTOR 3.0\n")
    (tmp_path / "poly.c").write_text(C_SOURCE)
    (tmp_path / "twice.f90").write_text(F_SOURCE)
    (tmp_path / "cube.rs").write_text(RS_SOURCE)
    return tmp_path


def assert_one_line_error(result: subprocess.CompletedProcess[str], fragment: str) -> None:
    assert result.returncode == 1, result
    assert result.stderr.startswith("error: "), result.stderr
    # One error; a compiler's own lines (source, carets) follow it indented.
    assert all(line.startswith("  ") for line in result.stderr.splitlines()[1:]), result.stderr
    assert fragment in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


def test_version_and_cmake_dir() -> None:
    assert enzyme_cli("--version").stdout == f"pyenzyme {enzyme.__version__}\n"
    cmake_dir = Path(enzyme_cli("--cmake-dir").stdout.strip())
    assert (cmake_dir / "EnzymeConfig.cmake").is_file()


def test_include_dir_is_printed_and_used_without_flags(tmp_path: Path) -> None:
    include = Path(enzyme_cli("--include-dir").stdout.strip())
    assert (include / "enzyme" / "enzyme.h").is_file()
    # No -I: pyenzyme's compiles find <enzyme/enzyme.h> themselves (the header declares enzyme_out).
    (tmp_path / "uses_header.c").write_text(
        "#include <enzyme/enzyme.h>\n"
        "double sq(double x) { return x * x; }\n"
        "double dsq(double x) { return __enzyme_autodiff((void *)sq, enzyme_out, x); }\n")
    result = enzyme_cli("compile", tmp_path / "uses_header.c", "-o", tmp_path / "out.bc")
    assert result.returncode == 0, result.stderr


def test_verbose_prints_each_phase_with_its_duration(sources: Path) -> None:
    quiet = enzyme_cli("compile", sources / "cube.rs", "-o", sources / "q.bc", env={"ENZYME_VERBOSE": ""})
    assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr
    flagged = enzyme_cli("compile", sources / "cube.rs", "-o", sources / "v.bc", "--verbose")
    assert flagged.returncode == 0, flagged.stderr
    assert re.search(r"^enzyme: compiled \S*cube.rs at -O2 \(\d+\.\d\d s\)$", flagged.stderr, re.M), flagged.stderr
    by_env = enzyme_cli("opt", sources / "v.bc", "-o", sources / "o.bc", env={"ENZYME_VERBOSE": "1"})
    phases = [line.split(" (")[0] for line in by_env.stderr.splitlines()]
    assert phases == [f"enzyme: optimized {sources / 'v.bc'} before differentiation",
                      f"enzyme: differentiated {sources / 'v.bc'}",
                      f"enzyme: optimized the derivatives of {sources / 'v.bc'} at -O3"], by_env.stderr


def test_cache_info_and_clear(tmp_path: Path) -> None:
    env = {"ENZYME_CACHE_DIR": str(tmp_path / "cache")}
    (tmp_path / "cache" / "api").mkdir(parents=True)
    (tmp_path / "cache" / "api" / "k.entry").write_bytes(b"x" * 3000)
    info = enzyme_cli("cache", "info", env=env)
    assert info.returncode == 0, info.stderr
    assert str(tmp_path / "cache") in info.stdout and "api: 2.9 KiB, 1 entries" in info.stdout, info.stdout
    cleared = enzyme_cli("cache", "clear", env=env)
    assert cleared.returncode == 0 and "2.9 KiB freed" in cleared.stdout, cleared
    assert not any((tmp_path / "cache").iterdir())
    assert_one_line_error(enzyme_cli("cache", "empty", env=env), "invalid choice: 'empty'")


def test_compile_c_fortran_rust_to_bitcode_and_text(sources: Path) -> None:
    args = [sources / "poly.c", sources / "twice.f90", sources / "cube.rs", "-I", sources / "inc", "-DOFFSET=1.5"]
    result = enzyme_cli("compile", *args, "-o", sources / "out.bc")
    assert result.returncode == 0, result.stderr
    umask = os.umask(0)
    os.umask(umask)
    assert (sources / "out.bc").stat().st_mode & 0o777 == 0o666 & ~umask  # not the temp file's 0600
    mod = llvm.parse_file(sources / "out.bc")
    assert {"poly", "twice", "rcube"} <= {f.name for f in mod.functions if not f.is_declaration}
    result = enzyme_cli("compile", *args, "-O0", "-g", "-o", sources / "out.ll")
    assert result.returncode == 0, result.stderr
    text = (sources / "out.ll").read_text()
    assert "define" in text and "!DICompileUnit" in text and "optnone" not in text
    result = enzyme_cli("compile", *args, "-g", "--strip-debug", "-o", sources / "stripped.ll")
    assert result.returncode == 0, result.stderr
    assert "!dbg" not in (sources / "stripped.ll").read_text()
    assert not list(sources.glob(".*enzyme-tmp"))


def test_compile_failure_leaves_no_output(sources: Path) -> None:
    out = sources / "out.bc"
    out.write_bytes(b"stale result of an earlier run")
    stale_temp = sources / ".out.bc.abc123.enzyme-tmp"
    stale_temp.write_bytes(b"left by a killed run")
    (sources / "bad.c").write_text("int f(void) { return nope; }\n")
    result = enzyme_cli("compile", sources / "bad.c", "-o", out)
    assert_one_line_error(result, "clang-22 failed on")
    assert "undeclared identifier 'nope'" in result.stderr
    assert not out.exists() and not stale_temp.exists()
    assert sorted(p.name for p in sources.iterdir()) == ["bad.c", "cube.rs", "inc", "poly.c", "twice.f90"]


def test_missing_compiler(sources: Path) -> None:
    result = enzyme_cli("compile", sources / "poly.c", "-o", sources / "x.bc", env={"ENZYME_CLANG": "/nonexistent"})
    assert_one_line_error(result, "clang not found (looked for ENZYME_CLANG=/nonexistent); install it: "
                                  "apt-get install -y clang-22")
    debug = enzyme_cli("--debug", "compile", sources / "poly.c", "-o", sources / "x.bc",
                       env={"ENZYME_CLANG": "/nonexistent"})
    assert debug.returncode == 1 and "Traceback" in debug.stderr and "ToolNotFoundError" in debug.stderr
    assert not (sources / "x.bc").exists()


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        ((), "no command given"),
        (("frobnicate",), "invalid choice: 'frobnicate'"),
        (("compile", "a.c", "-o", "a.o"), "must end in .bc (bitcode) or .ll"),
        (("compile", "a.c", "-O7", "-o", "a.bc"), "argument -O: invalid choice: 7"),
        (("compile", "notes.txt", "-o", "a.bc"), "unknown suffix '.txt'"),
        (("compile", "missing.c", "-o", "a.bc"), "source file missing.c does not exist"),
        (("opt", "missing.ll", "-o", "a.ll"), "cannot read missing.ll"),
    ],
)
def test_usage_errors(tmp_path: Path, args: tuple[str, ...], fragment: str) -> None:
    assert_one_line_error(enzyme_cli(*args, cwd=tmp_path), fragment)


def test_opt_round_trip_without_optimization(sources: Path) -> None:
    assert enzyme_cli("compile", sources / "poly.c", sources / "cube.rs", "-I", sources / "inc", "-DOFFSET=1",
                      "-o", sources / "in.bc").returncode == 0
    result = enzyme_cli("opt", "--no-preopt", "--no-postopt", sources / "in.bc", "-o", sources / "round.ll")
    assert result.returncode == 0, result.stderr
    before = llvm.parse_file(sources / "in.bc")
    after = llvm.parse_file(sources / "round.ll")
    llvm.verify(after)
    assert {f.name for f in after.functions} == {f.name for f in before.functions}
    assert str(after.get_function("poly")) == str(before.get_function("poly"))


def test_opt_full_pipeline(sources: Path) -> None:
    assert enzyme_cli("compile", sources / "poly.c", "-I", sources / "inc", "-DOFFSET=1", "-O0",
                      "-o", sources / "in.ll").returncode == 0
    result = enzyme_cli("opt", sources / "in.ll", "-o", sources / "out.ll")
    assert result.returncode == 0, result.stderr
    out = llvm.parse_file(sources / "out.ll")
    llvm.verify(out)
    assert "alloca" not in str(out.get_function("poly"))


def test_opt_rejects_invalid_input(tmp_path: Path) -> None:
    (tmp_path / "dom.ll").write_text(
        "define i32 @f(i32 %a) {\n  %x = add i32 %a, %y\n  %y = add i32 %a, 1\n  ret i32 %x\n}\n"
    )
    result = enzyme_cli("opt", tmp_path / "dom.ll", "-o", tmp_path / "out.ll")
    assert_one_line_error(result, "LLVM verifier rejected the module: Instruction does not dominate all uses!")
    assert not (tmp_path / "out.ll").exists()


def test_invalid_ir_from_pyenzyme_is_an_internal_error() -> None:
    mod = llvm.parse("define i32 @f(i32 %a) {\n  ret i32 %a\n}\n", name="f.ll")

    def break_it(text: str) -> str:
        return text.replace("ret i32 %a", "ret i32 %undefined_value")

    options = pipeline.TransformOptions(preopt=False, postopt_level=0, transform=break_it)
    with pytest.raises(VerifyError, match=r"internal error: pyenzyme produced invalid IR \(pyenzyme output for f.ll:"):
        pipeline.transform_module(mod, options, name="f.ll")


def test_doctor(tmp_path: Path) -> None:
    result = enzyme_cli("doctor")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("tool ") and "clang" in result.stdout and "ok" in result.stdout
    broken = enzyme_cli("doctor", env={"ENZYME_CLANG": "/nonexistent"})
    assert broken.returncode == 1
    assert "missing" in broken.stdout and "apt-get install -y clang-22" in broken.stdout
    assert broken.stderr == "error: required tools not usable: clang (see the fix column)\n"

"""The CLI steps CMake runs: `enzyme bitcode` (depfiles), `enzyme build`, `enzyme build-info`."""
from __future__ import annotations

import ctypes
import sys
from pathlib import Path

import pytest
from cmake_project import run

from enzyme import build
from enzyme.errors import UsageError


def enzyme(*args: object, cwd: Path) -> str:
    return run([sys.executable, "-m", "enzyme", *map(str, args)], cwd=cwd).stdout


def test_c_depfile_names_the_output_and_the_headers(tmp_path: Path) -> None:
    (tmp_path / "k.h").write_text("#define K 3.0\n")
    (tmp_path / "a.c").write_text('#include "k.h"\ndouble f(double x) { return K * x; }\n')
    build.compile_bitcode(tmp_path / "a.c", tmp_path / "out" / "a.bc",
                          build.BitcodeOptions(depfile=tmp_path / "out" / "a.d"))
    target, _, prerequisites = (tmp_path / "out" / "a.d").read_text().partition(":")
    assert target == str(tmp_path / "out" / "a.bc")
    assert "k.h" in prerequisites and "a.c" in prerequisites
    assert not list((tmp_path / "out").glob(".*enzyme-tmp*"))


def test_rust_and_fortran_depfiles_name_the_output(tmp_path: Path) -> None:
    (tmp_path / "r.rs").write_text('#[no_mangle] pub extern "C" fn g(x: f64) -> f64 { x }\n')
    (tmp_path / "s.f90").write_text("subroutine s(x) bind(C)\n real(8) :: x\n x = 2 * x\nend subroutine\n")
    for source in ("r.rs", "s.f90"):
        depfile = tmp_path / f"{source}.d"
        build.compile_bitcode(tmp_path / source, tmp_path / f"{source}.bc", build.BitcodeOptions(depfile=depfile))
        text = depfile.read_text()
        assert text.startswith(f"{tmp_path / source}.bc:"), text
        assert str((tmp_path / source).resolve()) in text


def test_fortran_depfile_lists_include_and_module_files(tmp_path: Path) -> None:
    """flang-22 lists nothing itself; without these entries editing them would not rebuild the bitcode."""
    modules = tmp_path / "modules"
    (tmp_path / "c.f90").write_text("module c\n  real(8), parameter :: k = 2d0\nend module\n")
    build.compile_bitcode(tmp_path / "c.f90", tmp_path / "c.bc", build.BitcodeOptions(module_dir=modules))
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "j.fi").write_text("      real(8), parameter :: j = 3d0\n")
    (tmp_path / "s.f90").write_text("subroutine s(x) bind(C)\n  use c\n  real(8) :: x\n  include 'j.fi'\n"
                                    "  x = k * j * x\nend subroutine\n")
    depfile = tmp_path / "s.d"
    build.compile_bitcode(tmp_path / "s.f90", tmp_path / "out" / "s.bc",
                          build.BitcodeOptions(module_dir=modules, include_dirs=(tmp_path / "inc",), depfile=depfile))
    target, _, prerequisites = depfile.read_text().partition(":")
    assert target == str(tmp_path / "out" / "s.bc")
    for path in (tmp_path / "s.f90", modules / "c.mod", tmp_path / "inc" / "j.fi"):
        assert str(path.resolve()) in prerequisites


def test_build_differentiates_across_files_into_a_loadable_object(tmp_path: Path) -> None:
    (tmp_path / "f.c").write_text("double f(double x) { return x * x * x; }\n")
    (tmp_path / "g.c").write_text("extern int enzyme_out; double __enzyme_autodiff(void *, ...); double f(double);\n"
                                  "double df(double x) { return __enzyme_autodiff((void *)f, enzyme_out, x); }\n")
    for name in ("f", "g"):
        enzyme("bitcode", f"{name}.c", "-o", f"{name}.bc", cwd=tmp_path)
    enzyme("build", "f.bc", "g.bc", "-o", "fg.o", "-O2", cwd=tmp_path)
    run(["clang-22", "-shared", "fg.o", "-o", "libfg.so"], cwd=tmp_path)
    df = ctypes.CDLL(str(tmp_path / "libfg.so")).df
    df.restype, df.argtypes = ctypes.c_double, [ctypes.c_double]
    assert df(2.0) == pytest.approx(12.0, rel=1e-15)


def test_build_refuses_other_outputs(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"must end in \.o"):
        build.build_object([tmp_path / "a.bc"], tmp_path / "a.so")


def test_build_info_reports_tools_and_runtimes(tmp_path: Path) -> None:
    lines = dict(line.split("=", 1) for line in enzyme("build-info", "--language", "fortran", cwd=tmp_path).split("\n")
                 if line)
    assert lines["llvm_major"] == "22"
    assert "tool.flang" in lines and "tool.clang" in lines
    assert "libflang_rt.runtime.a" in lines["link_libraries"]

"""Depfiles: every frontend lists what its compile read (the cache of enzyme.compile and CMake rely on it)."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from enzyme import toolchain
from enzyme.toolchain import read_depfile, search_directories, write_depfile


def test_round_trip_with_awkward_names(tmp_path: Path) -> None:
    names = [tmp_path / "with space" / "a.h", tmp_path / "dollar$sign.h", tmp_path / "hash#mark.h"]
    depfile = write_depfile(tmp_path / "x.d", tmp_path / "out dir" / "x.bc", names,
                            {"MODEL_SCALE": "2.5", "UNSET_VARIABLE": None})
    found = read_depfile(depfile)
    assert list(found.prerequisites) == names
    assert dict(found.environment) == {"MODEL_SCALE": "2.5", "UNSET_VARIABLE": None}


def test_search_directories_in_flags() -> None:
    flags = ["-O2", "-Iinc", "-I", "inc2", "-isystem", "sys", "-iquote=q", "-Jmods", "-module-dir", "m",
             "-L", "native=lib", "-Ldeps", "-DX=1"]
    assert search_directories(flags) == [Path(p) for p in ("inc", "inc2", "sys", "q", "mods", "m", "lib", "deps")]


def test_clang_lists_headers_in_any_directory(tmp_path: Path) -> None:
    (tmp_path / "common dir").mkdir()
    (tmp_path / "common dir" / "params.h").write_text("#define K 2.0\n")
    (tmp_path / "src").mkdir()
    source = tmp_path / "src" / "model.c"
    source.write_text('#include "../common dir/params.h"\n#include <math.h>\ndouble f(double x) { return K * sin(x); }\n')
    depfile = tmp_path / "model.d"
    toolchain.compile_to_bitcode(source, tmp_path / "model.bc", depfile=depfile)
    found = [p.resolve() for p in read_depfile(depfile).prerequisites]
    assert source.resolve() in found
    assert (tmp_path / "common dir" / "params.h").resolve() in found
    assert any(p.name == "math.h" for p in found)  # system headers are listed too


def test_fortran_lists_include_and_module_files_transitively(tmp_path: Path) -> None:
    """flang-22 writes no depfile: the scan finds INCLUDE files, .mod files in -I directories and the modules
    those use, and leaves out intrinsic modules."""
    mods, common = tmp_path / "mods", tmp_path / "common"
    common.mkdir()
    mods.mkdir()
    (common / "units.f90").write_text("module units\n  real(8), parameter :: meter = 1d0\nend module\n")
    (common / "consts.f90").write_text("module consts\n  use units\n  real(8), parameter :: k = 2 * meter\n"
                                       "end module\n")
    for name in ("units", "consts"):
        subprocess.run(["flang-22", "-c", str(common / f"{name}.f90"), "-module-dir", str(mods),
                        f"-I{mods}", "-o", str(tmp_path / f"{name}.o")], check=True)
    (common / "factor.fi").write_text("      real(8), parameter :: j = 3d0\n")
    source = tmp_path / "main.F90"
    source.write_text("function f(x) bind(C, name=\"f\") result(y)\n  use, intrinsic :: iso_c_binding\n"
                      "  use consts, only: k\n  real(c_double), value :: x\n  real(c_double) :: y\n"
                      "  include 'factor.fi'\n  y = k * j * x\nend function\n")
    depfile = tmp_path / "main.d"
    toolchain.compile_to_bitcode(source, tmp_path / "main.bc", include_dirs=[mods, common], depfile=depfile)
    found = {p.resolve() for p in read_depfile(depfile).prerequisites}
    assert found == {source.resolve(), (mods / "consts.mod").resolve(), (mods / "units.mod").resolve(),
                     (common / "factor.fi").resolve()}


def test_rust_lists_modules_crates_and_environment(tmp_path: Path, monkeypatch) -> None:
    crates = tmp_path / "crates"
    crates.mkdir()
    (tmp_path / "dep.rs").write_text("pub fn k() -> f64 { 2.0 }\n")
    subprocess.run(["rustc", "--crate-type=lib", "--edition=2021", "--crate-name", "dep", str(tmp_path / "dep.rs"),
                    "-o", str(crates / "libdep.rlib")], check=True)
    (tmp_path / "helper.rs").write_text("pub fn h() -> f64 { 1.0 }\n")
    source = tmp_path / "model.rs"
    source.write_text('mod helper;\n#[no_mangle]\npub extern "C" fn f(x: f64) -> f64 {\n'
                      '    dep::k() * helper::h() * x * env!("MODEL_SCALE").parse::<f64>().unwrap()\n}\n')
    monkeypatch.setenv("MODEL_SCALE", "1.5")
    depfile = tmp_path / "model.d"
    toolchain.compile_to_bitcode(source, tmp_path / "out" / "model.bc", depfile=depfile,
                                 flags=["--edition=2021", "--extern", f"dep={crates / 'libdep.rlib'}"])
    found = read_depfile(depfile)
    assert {p.resolve() for p in found.prerequisites} == {
        source.resolve(), (tmp_path / "helper.rs").resolve(), (crates / "libdep.rlib").resolve()}
    assert dict(found.environment) == {"MODEL_SCALE": "1.5"}


def test_ir_inputs_list_themselves(tmp_path: Path) -> None:
    source = tmp_path / "t.ll"
    source.write_text("define i32 @seven() {\n  ret i32 7\n}\n")
    depfile = tmp_path / "t.d"
    toolchain.compile_to_bitcode(source, tmp_path / "t.bc", depfile=depfile)
    assert [p.resolve() for p in read_depfile(depfile).prerequisites] == [source.resolve()]


@pytest.mark.parametrize("suffix", [pytest.param(".hip", marks=[pytest.mark.requires_tool("hip"),
                                                                  pytest.mark.requires_tool("rocm-device-libs")]),
                                    pytest.param(".cu", marks=pytest.mark.requires_tool("cuda"))])
def test_gpu_device_compiles_list_headers(tmp_path: Path, suffix: str) -> None:
    """clang's driver ignores -MD/-MF for HIP device-only compiles; the depfile must be written anyway
    (`enzyme compile k.hip` failed with an internal error without it)."""
    (tmp_path / "scale.h").write_text("#define SCALE 3.0\n")
    source = tmp_path / f"k{suffix}"
    runtime = "#include <hip/hip_runtime.h>\n" if suffix == ".hip" else ""
    source.write_text(f'{runtime}#include "scale.h"\n__device__ double f(double x) {{ return SCALE * x; }}\n')
    depfile = tmp_path / "k.d"
    toolchain.compile_to_bitcode(source, tmp_path / "k.bc", depfile=depfile)
    found = {p.resolve() for p in read_depfile(depfile).prerequisites}
    assert {source.resolve(), (tmp_path / "scale.h").resolve()} <= found

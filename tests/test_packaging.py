"""Packaging: the wheel's contents, the CMake package (installed and in the checkout), and
the locators that point CMake at it."""
from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import enzyme
from enzyme import _paths

# Building the wheel runs scikit-build-core and CMake for real; it takes a few seconds.
WHEEL_BUILD_TIMEOUT_S = 60

pytestmark = pytest.mark.xdist_group("wheel")


@pytest.fixture(scope="module")
def wheel(repo_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    command = [sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "--no-build-isolation",
               "-q", "-w", str(out)]
    result = subprocess.run(command, cwd=repo_root, capture_output=True, text=True,
                            timeout=WHEEL_BUILD_TIMEOUT_S)
    assert result.returncode == 0, f"{' '.join(command)} failed:\n{result.stdout}\n{result.stderr}"
    (built,) = out.glob("pyenzyme_llvm-*.whl")
    return built


@pytest.fixture(scope="module")
def unpacked_wheel(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("site-packages")
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(target)
    return target


def test_wheel_name_is_pure_python(wheel: Path) -> None:
    assert wheel.name == f"pyenzyme_llvm-{enzyme.__version__}-py3-none-any.whl"


def test_wheel_contains_package_cmake_and_headers(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for expected in [
        "enzyme/__init__.py",
        "enzyme/errors.py",
        "enzyme/_paths.py",
        "enzyme/py.typed",                      # PEP 561: type checkers read pyenzyme's annotations
        "enzyme/cmake/EnzymeConfig.cmake",
        "enzyme/cmake/EnzymeConfigVersion.cmake",
        "enzyme/include/enzyme/enzyme.h",
        "enzyme/include/enzyme/enzyme",         # the C++ interface (enzyme::autodiff)
        "enzyme/include/enzyme/fixed_point.h",  # __enzyme_fixed_point and its markers
        "enzyme/include/enzyme/checkpoint.h",   # __enzyme_checkpoint_for/_while and the reference schemes
        "enzyme/include/enzyme/checkpoint_schedule.h",  # the schedules' arithmetic
        "enzyme/cmake/EnzymeAddDifferentiable.cmake",
        "enzyme/fortran/enzyme.f90",
        "enzyme/rust/enzyme/Cargo.toml",
        "enzyme/rust/enzyme/src/enzyme.rs",
        "enzyme/clang/enzyme_attributes.cpp",   # the clang plugin, built on first use
        "enzyme/runtime_bodies/mpi.c",          # derivatives of MPI calls, compiled on first use
        "enzyme/runtime_bodies/checkpoint.c",   # the driver of checkpointed loops, compiled on first use
    ]:
        assert expected in names
    assert any(name.startswith("enzyme/ir/") and name.endswith(".py") for name in names)
    assert not any("__pycache__" in name for name in names)


def test_wheel_declares_scripts_and_cmake_root(wheel: Path) -> None:
    archive = zipfile.ZipFile(wheel)
    (entry_points,) = [n for n in archive.namelist() if n.endswith(".dist-info/entry_points.txt")]
    text = archive.read(entry_points).decode()
    for line in [
        "enzyme = enzyme.cli:main",
        "enzyme-cc = enzyme.cli:cc_main",
        "enzyme-c++ = enzyme.cli:cxx_main",
        "enzyme-flang = enzyme.cli:flang_main",
        "[cmake.root]",
        "Enzyme = enzyme",
    ]:
        assert line in text


def test_wheel_carries_license_and_typing_marker(wheel: Path) -> None:
    archive = zipfile.ZipFile(wheel)
    names = archive.namelist()
    (metadata,) = [n for n in names if n.endswith(".dist-info/METADATA")]
    text = archive.read(metadata).decode()
    assert "License-Expression: Apache-2.0 WITH LLVM-exception" in text
    (license_file,) = [n for n in names if n.endswith(".dist-info/licenses/LICENSE")]
    assert b"LLVM Exceptions to the Apache 2.0 License" in archive.read(license_file)
    assert "enzyme/py.typed" in names


CONSUMER_CMAKELISTS = """\
cmake_minimum_required(VERSION 3.15)
project(consumer LANGUAGES C)
find_package(Enzyme {version} CONFIG REQUIRED)
message(STATUS "Enzyme_VERSION=${{Enzyme_VERSION}}")
add_library(uses_header OBJECT use.c)
target_link_libraries(uses_header PRIVATE Enzyme::headers)
"""

CONSUMER_SOURCE = """\
#include <enzyme/enzyme.h>
static double square(double x) { return x * x; }
double dsquare(double x) { return __enzyme_autodiff((void *)square, enzyme_out, x); }
"""


def _configure_and_build_consumer(tmp_path: Path, cmake_defines: list[str],
                                  version: str = "") -> subprocess.CompletedProcess[str]:
    source = tmp_path / "consumer"
    source.mkdir()
    (source / "CMakeLists.txt").write_text(CONSUMER_CMAKELISTS.format(version=version))
    (source / "use.c").write_text(CONSUMER_SOURCE)
    build = tmp_path / "build"
    configure = subprocess.run(
        ["cmake", "-S", str(source), "-B", str(build), "-G", "Ninja",
         "-DCMAKE_C_COMPILER=clang-22", *cmake_defines],
        capture_output=True, text=True, timeout=120)
    assert configure.returncode == 0, configure.stdout + configure.stderr
    built = subprocess.run(["cmake", "--build", str(build)], capture_output=True, text=True,
                           timeout=120)
    assert built.returncode == 0, built.stdout + built.stderr
    return configure


def test_installed_cmake_package_found_through_cmake_root(unpacked_wheel: Path,
                                                          tmp_path: Path) -> None:
    # scikit-build-core's cmake.root entry point sets Enzyme_ROOT to the package dir.
    configure = _configure_and_build_consumer(
        tmp_path, [f"-DEnzyme_ROOT={unpacked_wheel / 'enzyme'}"], version="0.1")
    assert f"Enzyme_VERSION={enzyme.__version__}" in configure.stdout


def test_installed_cmake_package_rejects_other_major(unpacked_wheel: Path,
                                                     tmp_path: Path) -> None:
    source = tmp_path / "consumer"
    source.mkdir()
    (source / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.15)\nproject(c LANGUAGES NONE)\n"
        "find_package(Enzyme 1.0 CONFIG REQUIRED)\n")
    result = subprocess.run(
        ["cmake", "-S", str(source), "-B", str(tmp_path / "build"),
         f"-DEnzyme_DIR={unpacked_wheel / 'enzyme' / 'cmake'}"],
        capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert f"version: {enzyme.__version__}" in result.stderr  # found, but not accepted


def test_checkout_cmake_package_works_without_install(tmp_path: Path) -> None:
    configure = _configure_and_build_consumer(tmp_path, [f"-DEnzyme_DIR={_paths.cmake_dir()}"])
    assert f"Enzyme_VERSION={enzyme.__version__}" in configure.stdout


def test_paths_point_at_cmake_package_and_header() -> None:
    assert (_paths.cmake_dir() / "EnzymeConfig.cmake").is_file()
    assert (_paths.include_dir() / "enzyme" / "enzyme.h").is_file()


def test_cli_cmake_dir_holds_enzyme_config() -> None:
    result = subprocess.run([sys.executable, "-m", "enzyme", "--cmake-dir"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert (Path(result.stdout.strip()) / "EnzymeConfig.cmake").is_file()

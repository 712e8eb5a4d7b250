"""enzyme_add_differentiable() itself: use through add_subdirectory, library kinds, misuse errors,
and agreement of its suffix table with enzyme.toolchain."""
from __future__ import annotations

import math
import os
import re
import shutil
from pathlib import Path

import pytest
from cmake_project import REPO_ROOT, build, configure, gradient, run

from enzyme.toolchain import languages


def _stage_pyenzyme(root: Path) -> Path:
    """A vendored copy of the files add_subdirectory() needs (as a project would keep in third_party/)."""
    staged = root / "third_party" / "pyenzyme"
    staged.mkdir(parents=True)
    shutil.copy(REPO_ROOT / "CMakeLists.txt", staged)
    for folder in ("cmake", "frontends"):
        shutil.copytree(REPO_ROOT / folder, staged / folder)
    (staged / "enzyme").mkdir()
    shutil.copy(REPO_ROOT / "enzyme" / "__init__.py", staged / "enzyme")
    return staged


SUBPROJECT = """\
cmake_minimum_required(VERSION 3.20)
project(consumer LANGUAGES C CXX)
add_subdirectory(third_party/pyenzyme)
# A static library of derivatives (C and C++ sources) linked into an ordinary executable.
enzyme_add_differentiable(grads STATIC SOURCES grads.c poly.cpp OPT_LEVEL 1)
add_executable(app app.c)
target_link_libraries(app PRIVATE grads)
"""

GRADS_C = """\
#include <enzyme/enzyme.h>
double poly(double x);  /* C++, extern "C" */
double dpoly(double x) { return __enzyme_autodiff((void *)poly, enzyme_out, x); }
"""

POLY_CPP = """\
template <typename T> T cube(T x) { return x * x * x; }
extern "C" double poly(double x) { auto twice = [](double v) { return 2.0 * v; }; return cube(x) + twice(x); }
"""

APP_C = """\
#include <stdio.h>
double dpoly(double x);
int main(void) { printf("grad[0] = %.17g\\n", dpoly(1.5)); return 0; }
"""


@pytest.mark.xdist_group("cmake-subdirectory")
def test_add_subdirectory_static_library_with_cxx(tmp_path: Path) -> None:
    _stage_pyenzyme(tmp_path)
    for name, text in [("CMakeLists.txt", SUBPROJECT), ("grads.c", GRADS_C), ("poly.cpp", POLY_CPP),
                       ("app.c", APP_C)]:
        (tmp_path / name).write_text(text)
    configure(tmp_path, tmp_path / "build")
    build(tmp_path / "build")
    assert list((tmp_path / "build").glob("libgrads.a"))
    output = run([tmp_path / "build" / "app"]).stdout
    assert gradient(output) == pytest.approx([3 * 1.5**2 + 2.0], rel=1e-14)


MISUSE = """\
cmake_minimum_required(VERSION 3.20)
project(misuse LANGUAGES NONE)
find_package(Enzyme CONFIG REQUIRED)
{call}
"""


@pytest.mark.parametrize(("call", "message"), [
    ("enzyme_add_differentiable(t STATIC)", r"no SOURCES given for target 't'"),
    ("enzyme_add_differentiable(t SOURCES)", r"no SOURCES given for target 't'"),
    ("enzyme_add_differentiable(t STATIC SHARED SOURCES a.c)",
     r"target 't' is given STATIC and SHARED; give at most one of STATIC, SHARED, MODULE, EXECUTABLE"),
    ("enzyme_add_differentiable(t SOURCES model.java)", r"cannot tell the language of source 'model.java'"),
    ("enzyme_add_differentiable(t SOURCES a.c OPT_LEVEL 5)", r"OPT_LEVEL of target 't' must be 0, 1, 2 or 3"),
    ("enzyme_add_differentiable(t SOURCES a.c k.hip)", r"mixes HIP device code with other sources"),
    ("enzyme_add_differentiable(t EXECUTABLE SOURCES k.hip)", r"only HIP device code, which builds an AMDGPU code"),
    ("enzyme_add_differentiable(t SOURCES a.c OPTLEVEL 3)", r"unknown keyword 'OPTLEVEL' for target 't'"),
    ("enzyme_add_differentiable(t SHARED SOURCES missing.c)",
     r"source 'missing.c' of target 't' does not exist \(looked for \S*/missing.c\)"),
])
def test_misuse_is_a_clear_configure_error(tmp_path: Path, call: str, message: str) -> None:
    from enzyme import _paths
    (tmp_path / "CMakeLists.txt").write_text(MISUSE.format(call=call))
    result = configure(tmp_path, tmp_path / "build", f"-DEnzyme_DIR={_paths.cmake_dir()}", check=False)
    assert result.returncode != 0
    flat = " ".join(result.stderr.split())
    assert "enzyme_add_differentiable(): " in flat
    assert re.search(message, flat), result.stderr


def test_llvm_major_mismatch_of_the_compilers_is_a_configure_error(tmp_path: Path) -> None:
    from enzyme import _paths
    fake = tmp_path / "clang-14"
    fake.write_text("#!/bin/sh\necho 'Debian clang version 14.0.6'\n")
    fake.chmod(0o755)
    (tmp_path / "CMakeLists.txt").write_text(MISUSE.format(call="enzyme_add_differentiable(t SOURCES a.c)"))
    (tmp_path / "a.c").write_text("double f(double x) { return x; }\n")
    result = configure(tmp_path, tmp_path / "build", f"-DEnzyme_DIR={_paths.cmake_dir()}",
                       f"-DENZYME_CLANG_EXECUTABLE={fake}", check=False)
    assert result.returncode != 0
    flat = " ".join(result.stderr.split())
    assert "enzyme_add_differentiable(): clang at" in flat and "uses LLVM 14.0.6, but pyenzyme needs LLVM 22" in flat


def test_suffix_table_agrees_with_the_toolchain() -> None:
    text = (REPO_ROOT / "cmake" / "EnzymeAddDifferentiable.cmake").read_text()
    table = text[text.index("set(_ENZYME_SUFFIX_LANGUAGES"):]
    table = table[:table.index(")\n")]
    pairs = dict(re.findall(r"(\.[\w+]+)=(\w+)", table))
    for suffix, language in pairs.items():
        assert languages.language_of(f"x{suffix}") == language, suffix
    for suffix in [*languages._SUFFIXES, *languages._EXACT_SUFFIXES]:
        assert suffix in pairs, f"{suffix} missing from the CMake table"


OPENMP_PROJECT = """\
cmake_minimum_required(VERSION 3.20)
project(consumer LANGUAGES C)
add_subdirectory(third_party/pyenzyme)
find_package(OpenMP REQUIRED COMPONENTS C)
enzyme_add_differentiable(app EXECUTABLE SOURCES app.c LINK_LIBRARIES OpenMP::OpenMP_C m)
"""

OPENMP_APP_C = """\
#include <enzyme/enzyme.h>
#include <math.h>
#include <stdio.h>
double energy(const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += sin(x[i]) * x[i];
  return s;
}
int main(void) {
  double x[6] = {0.1, 0.4, 0.9, 1.3, 2.0, 2.2}, dx[6] = {0};
  __enzyme_autodiff((void *)energy, enzyme_dup, x, dx, enzyme_const, 6);
  for (int i = 0; i < 6; i++) printf("grad[%d] = %.17g\\n", i, dx[i]);
  return 0;
}
"""


@pytest.mark.xdist_group("cmake-subdirectory")
def test_openmp_targets(tmp_path: Path) -> None:
    """find_package(OpenMP)'s OpenMP::OpenMP_C compiles the sources with -fopenmp and links libomp."""
    root = tmp_path / "consumer"
    root.mkdir()
    _stage_pyenzyme(root)
    (root / "CMakeLists.txt").write_text(OPENMP_PROJECT)
    (root / "app.c").write_text(OPENMP_APP_C)
    clang = shutil.which("clang-22")
    assert clang is not None
    configure(root, tmp_path / "build", f"-DCMAKE_C_COMPILER={clang}")
    build(tmp_path / "build")
    x = [0.1, 0.4, 0.9, 1.3, 2.0, 2.2]
    output = run([tmp_path / "build" / "app"], env={**os.environ, "OMP_NUM_THREADS": "2"}).stdout
    assert gradient(output) == pytest.approx([math.sin(v) + v * math.cos(v) for v in x], rel=1e-12)

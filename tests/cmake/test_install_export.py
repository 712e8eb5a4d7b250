"""A differentiated SHARED and STATIC library is installed and exported like any CMake target, then found by
another project with find_package(CONFIG) and linked; the derivative computed inside it is checked."""
from __future__ import annotations

from pathlib import Path

from cmake_project import build, configure, run

from enzyme import _paths

LIBRARY = """
cmake_minimum_required(VERSION 3.20)
project(gradlib LANGUAGES C)
find_package(Enzyme CONFIG REQUIRED)
foreach(kind SHARED STATIC)
  string(TOLOWER "grad_${kind}" name)
  enzyme_add_differentiable(${name} ${kind} SOURCES grad.c)
  target_include_directories(${name} PUBLIC $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}> $<INSTALL_INTERFACE:include>)
endforeach()
install(TARGETS grad_shared grad_static EXPORT gradlibTargets LIBRARY DESTINATION lib ARCHIVE DESTINATION lib)
install(FILES grad.h DESTINATION include)
install(EXPORT gradlibTargets NAMESPACE grad:: DESTINATION lib/cmake/gradlib FILE gradlibConfig.cmake)
"""

CONSUMER = """
cmake_minimum_required(VERSION 3.20)
project(user LANGUAGES C)
find_package(gradlib CONFIG REQUIRED)
foreach(kind shared static)
  add_executable(use_${kind} main.c)
  target_link_libraries(use_${kind} grad::grad_${kind})
  set_target_properties(use_${kind} PROPERTIES INSTALL_RPATH "" BUILD_RPATH "${gradlib_DIR}/../..")
endforeach()
"""

GRAD_C = """
#include "grad.h"
double __enzyme_autodiff(void *, ...);
static double cube(double x) { return x * x * x; }
double dcube(double x) { return __enzyme_autodiff((void *)cube, x); }
"""

MAIN_C = """
#include <stdio.h>
#include "grad.h"
int main(void) { printf("grad[0] = %.17g\\n", dcube(2.0)); return dcube(2.0) == 12.0 ? 0 : 1; }
"""


def test_installed_and_exported_targets_are_found_and_linked(tmp_path: Path) -> None:
    lib, user, prefix = tmp_path / "lib", tmp_path / "user", tmp_path / "prefix"
    lib.mkdir()
    user.mkdir()
    (lib / "CMakeLists.txt").write_text(LIBRARY)
    (lib / "grad.c").write_text(GRAD_C)
    (lib / "grad.h").write_text("double dcube(double x);\n")
    (user / "CMakeLists.txt").write_text(CONSUMER)
    (user / "main.c").write_text(MAIN_C)
    configure(lib, tmp_path / "lib-build", f"-DEnzyme_DIR={_paths.cmake_dir()}", f"-DCMAKE_INSTALL_PREFIX={prefix}")
    build(tmp_path / "lib-build")
    run(["cmake", "--install", tmp_path / "lib-build"])
    configure(user, tmp_path / "user-build", f"-DCMAKE_PREFIX_PATH={prefix}")
    build(tmp_path / "user-build")
    for kind in ("shared", "static"):
        out = run([tmp_path / "user-build" / f"use_{kind}"]).stdout
        assert out.strip() == "grad[0] = 12", out

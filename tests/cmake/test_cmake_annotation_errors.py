"""enzyme_add_differentiable(): an Enzyme attribute pyenzyme does not implement fails the build step."""
from __future__ import annotations

import sys
from pathlib import Path

from cmake_project import configure, run

PROJECT = """\
cmake_minimum_required(VERSION 3.20)
project(annotated LANGUAGES C)
find_package(Enzyme CONFIG REQUIRED)
enzyme_add_differentiable(model SHARED SOURCES model.c)
"""


def test_unknown_enzyme_attribute_fails_the_build(tmp_path: Path) -> None:
    from enzyme import _paths
    (tmp_path / "CMakeLists.txt").write_text(PROJECT)
    (tmp_path / "model.c").write_text("__attribute__((enzyme_inactiv)) double f(double x) { return x; }\n")
    configure(tmp_path, tmp_path / "build", f"-DEnzyme_DIR={_paths.cmake_dir()}",
              f"-DPython_EXECUTABLE={sys.executable}")
    result = run(["cmake", "--build", tmp_path / "build"], check=False)
    assert result.returncode != 0
    output = " ".join((result.stdout + result.stderr).split())
    assert "model.c:1:16: unknown attribute 'enzyme_inactiv': pyenzyme implements enzyme_inactive" in output, output

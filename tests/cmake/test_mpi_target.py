"""enzyme_add_differentiable() with find_package(MPI): MPI::MPI_C's include directories reach the bitcode, its
libraries the link, and the differentiated MPI program checks itself under mpirun (tests/ad/mpi/harness.h)."""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from cmake_project import REPO_ROOT, build, configure, run

pytestmark = pytest.mark.requires_tool("mpi")

PROJECT = """\
cmake_minimum_required(VERSION 3.20)
project(distributed LANGUAGES C)
find_package(MPI REQUIRED COMPONENTS C)
find_package(Enzyme CONFIG REQUIRED)
enzyme_add_differentiable(halo EXECUTABLE SOURCES halo_blocking.c LINK_LIBRARIES MPI::MPI_C m OPT_LEVEL 2)
"""


def test_mpi_program_built_with_find_package_mpi(tmp_path: Path) -> None:
    from enzyme import _paths
    (tmp_path / "CMakeLists.txt").write_text(PROJECT)
    for name in ("harness.h", "halo_blocking.c"):
        shutil.copy(REPO_ROOT / "tests" / "ad" / "mpi" / name, tmp_path)
    configure(tmp_path, tmp_path / "build", f"-DEnzyme_DIR={_paths.cmake_dir()}",
              f"-DPython_EXECUTABLE={sys.executable}")
    build(tmp_path / "build")
    env = {**os.environ, "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}
    done = run(["mpirun", "--oversubscribe", "--allow-run-as-root", "-np", "2", tmp_path / "build" / "halo"], env=env)
    # reverse, forward and two forward directions at once (enzyme_width 2), each against finite differences
    assert [line.split()[2] for line in done.stdout.splitlines() if line.startswith("MPI-AD OK")] == [
        "reverse", "forward", "batch"], done.stdout

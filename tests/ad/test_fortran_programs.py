"""Fortran 2008 programs written as scientists write them (tests/ad/fortran), each checking itself against central
differences in reverse, forward, batched forward (width 2) and split mode (modes_check.h), or, for the Fortran
main program, reverse and forward mode through bind(C) interfaces to Enzyme's entry points.  They exercise
flang's runtime through pyenzyme's bodies of it (enzyme/runtime_bodies/fortran.c): allocatable and derived-type
assignment, ALLOCATE of derived types, default initialization, deallocation of allocatable components, array
constructors, SPREAD, NORM2, MATMUL, REAL(4) reductions, COUNT/MINLOC."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from enzyme import llvm, toolchain
from enzyme.pipeline import CompileOptions, TransformOptions, compile_sources, transform_module
from enzyme.toolchain.flang import runtime_archive

PROGRAMS = Path(__file__).parent / "fortran"

# program -> (sources, inputs checked)
CASES = {
    "heat_rod": (["heat_rod.f90", "heat_rod_main.c"], 14),
    "owned_arrays": (["owned_arrays.f90", "owned_arrays_main.c"], 5),
    "particle_cloud": (["particle_cloud.f90", "particle_cloud_main.c"], 20),
    "single_precision": (["single_precision.f90", "single_precision_main.c"], 6),
    "spring_chain_driver": (["spring_chain_driver.f90"], 7),
}


def build(tmp_path: Path, sources: list[str], opt_level: int) -> Path:
    module = compile_sources([PROGRAMS / s for s in sources], CompileOptions(opt_level=opt_level))
    result = transform_module(module, TransformOptions(postopt_level=opt_level))
    (tmp_path / "prog.bc").write_bytes(llvm.to_bitcode(result))
    obj = toolchain.compile_ir_object(tmp_path / "prog.bc", tmp_path / "prog.o", opt_level=opt_level)
    return toolchain.link_executable([obj], tmp_path / "prog", libraries=[str(runtime_archive()), "-lstdc++", "-lm"])


# At -O0 flang copies derived types' allocatable component descriptors field by field through integers; their
# extents and strides are known integers from the descriptor layout (memory_insts.descriptor_word), so heat_rod
# and owned_arrays differentiate at every level.
BUILDS = [(name, level) for name in sorted(CASES) for level in range(4)]


@pytest.mark.parametrize(("name", "opt_level"), BUILDS)
def test_program_derivatives_match_central_differences(tmp_path: Path, name: str, opt_level: int) -> None:
    sources, inputs = CASES[name]
    run = subprocess.run([str(build(tmp_path, sources, opt_level))], capture_output=True, text=True, timeout=120,
                         check=False)
    checked = [line for line in run.stdout.splitlines() if re.search(r" d\[\d+\]: reverse ", line)]
    assert run.returncode == 0, run.stdout + run.stderr
    assert len(checked) == inputs and not any("WRONG" in line for line in checked), run.stdout

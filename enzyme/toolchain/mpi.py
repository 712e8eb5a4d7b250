"""The boundary to the MPI compiler wrapper: where OpenMPI's <mpi.h> is (``mpicc --showme:compile``).

pyenzyme compiles its MPI derivative helpers (enzyme/runtime_bodies/mpi.c) against the same <mpi.h> as the
program; ``ENZYME_MPICC`` names another wrapper than ``mpicc``.
"""
from __future__ import annotations

import functools
import os
import shlex
import shutil
import subprocess

from enzyme.errors import ToolNotFoundError


@functools.lru_cache(maxsize=None)
def mpi_compile_flags() -> tuple[str, ...]:
    """The include flags of OpenMPI's compiler wrapper; raises ToolNotFoundError without one."""
    wrapper = os.environ.get("ENZYME_MPICC", "mpicc")
    path = shutil.which(wrapper)
    fix = "install OpenMPI (apt-get install libopenmpi-dev openmpi-bin; ci/setup.sh does)"
    if path is None:
        raise ToolNotFoundError(f"differentiating MPI calls needs OpenMPI's {wrapper} to find <mpi.h>; {fix}")
    done = subprocess.run([path, "--showme:compile"], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise ToolNotFoundError(f"'{wrapper} --showme:compile' failed (is it OpenMPI's wrapper?): "
                                f"{done.stderr.strip()[:200]}; {fix}")
    return tuple(shlex.split(done.stdout))

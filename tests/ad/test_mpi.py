"""MPI programs differentiated with the compiler wrappers and run under mpirun (tests/ad/mpi/).

Each program (a distributed norm with MPI_Allreduce, halo-exchange stencils with blocking and non-blocking
point-to-point, a Bcast/Reduce pattern, the rarer collectives: MPI_IN_PLACE, MPI_FLOAT, MPI_MIN/MAX, MPI_Wait,
MPI_Alltoall and MPI_Alltoallv)
checks itself: tests/ad/mpi/harness.h compares the reverse gradient, a
forward directional derivative (and, but for the non-blocking programs, two directions at once with enzyme_width 2)
with central finite differences of the whole distributed primal, on every rank,
and exits non-zero on a mismatch.  Built once per optimization level (with ``OMPI_CC=enzyme-cc mpicc`` at -O2,
with ``enzyme-cc $(mpicc --showme:compile) ... $(mpicc --showme:link)`` at -O0), run at 2 and 4 ranks.
ci/setup.sh installs OpenMPI; without mpirun the tests are skipped.
"""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.requires_tool("mpi")

PROGRAMS = Path(__file__).with_name("mpi")
REPO_ROOT = Path(__file__).resolve().parents[2]
# CI runs as root; OpenMPI refuses that unless told.
MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1", "OMPI_MCA_rmaps_base_oversubscribe": "1"}


@pytest.fixture(scope="module")
def mpi_build(tmp_path_factory: pytest.TempPathFactory):
    """``build(program, level, *flags)`` -> the executable (each built once per module); raises on errors."""
    bin_dir = tmp_path_factory.mktemp("mpi-wrapper-bin")
    cc = bin_dir / "enzyme-cc"
    cc.write_text(f"#!/bin/sh\nexec '{sys.executable}' -c 'import sys; from enzyme.cli import cc_main; "
                  "sys.exit(cc_main())' \"$@\"\n")
    cc.chmod(0o755)
    out_dir = tmp_path_factory.mktemp("mpi-programs")
    env = {**os.environ, **MPI_ENV,
           "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")]))}
    built: dict[tuple[str, str, tuple[str, ...]], Path] = {}

    def build(program: str, level: str, *flags: str) -> subprocess.CompletedProcess | Path:
        key = (program, level, flags)
        if key in built:
            return built[key]
        exe = out_dir / f"{program}{level}{''.join(flags).replace('-', '_')}"
        source = str(PROGRAMS / f"{program}.c")
        if level == "-O0":  # the wrapper given MPI's flags
            compile_flags = shlex.split(_showme("--showme:compile"))
            link_flags = shlex.split(_showme("--showme:link"))
            cmd = [str(cc), *compile_flags, level, *flags, source, "-o", str(exe), *link_flags, "-lm"]
            run_env = env
        else:  # the wrapper behind mpicc
            cmd = ["mpicc", level, *flags, source, "-o", str(exe), "-lm"]
            run_env = {**env, "OMPI_CC": str(cc)}
        done = subprocess.run(cmd, capture_output=True, text=True, env=run_env, timeout=600)
        if done.returncode != 0:
            return done
        built[key] = exe
        return exe

    build.env = env  # type: ignore[attr-defined]
    return build


def _showme(what: str) -> str:
    return subprocess.run(["mpicc", what], capture_output=True, text=True, check=True).stdout


def _mpirun(exe: Path, ranks: int, env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["mpirun", "--oversubscribe", "--allow-run-as-root", "-np", str(ranks), str(exe), *args],
                          capture_output=True, text=True, env=env, timeout=300)


@pytest.mark.parametrize("level", ["-O0", "-O2"])
@pytest.mark.parametrize("program", ["allreduce_norm", "halo_blocking", "halo_nonblocking", "bcast_reduce",
                                     "collectives", "alltoall"])
def test_mpi_program_matches_finite_differences(mpi_build, program: str, level: str) -> None:
    exe = mpi_build(program, level)
    assert isinstance(exe, Path), f"build failed:\n{exe.stdout}\n{exe.stderr}"
    for ranks in (2, 4):
        done = _mpirun(exe, ranks, mpi_build.env)  # reverse, then forward
        assert done.returncode == 0, f"{program} {level} -np {ranks}:\n{done.stdout}\n{done.stderr[-3000:]}"
        batch = program not in ("halo_nonblocking", "collectives")  # the others also check enzyme_width 2
        assert done.stdout.count("MPI-AD OK") == 2 + batch, done.stdout
        assert f"reverse np={ranks}" in done.stdout and f"forward np={ranks}" in done.stdout
        assert not batch or f"batch np={ranks}" in done.stdout


@pytest.mark.parametrize("case, call, reason", [
    ("GATHER", "MPI_Gather", "no derivative rule for MPI call"),
    ("PROD", "MPI_Allreduce", "supports the reductions MPI_SUM, MPI_MIN, MPI_MAX"),
    ("WILDCARD", "MPI_Sendrecv", "MPI_ANY_SOURCE"),
    ("LONG_DOUBLE", "MPI_Allreduce", "does not support datatype @ompi_mpi_long_double"),
    ("TEST", "MPI_Test", "follows MPI_Wait and MPI_Waitall only"),
    ("BATCH", "MPI_Irecv", "not supported in batch forward mode (enzyme_width 2)"),
])
def test_unsupported_mpi_calls_are_refused_with_their_line(mpi_build, case: str, call: str, reason: str) -> None:
    done = mpi_build("refused", "-O2", "-g", f"-DREFUSE_{case}")
    assert not isinstance(done, Path), "the derivative of an unsupported MPI call was built"
    lines = [ln for ln in done.stderr.splitlines() if ln.startswith("error:")]
    assert len(lines) == 1, done.stderr
    source = (PROGRAMS / "refused.c").read_text().splitlines()
    start = next(i for i, text in enumerate(source) if f"defined(REFUSE_{case})" in text)
    line = next(i + 1 for i in range(start, len(source)) if f"{call}(" in source[i])
    assert f"@{call}" in lines[0] and f"refused.c:{line}:" in lines[0] and reason in lines[0], lines[0]


def test_datatype_known_only_at_run_time_is_checked_there(mpi_build) -> None:
    """A datatype read from a variable reaches the helpers unknown to the engine: an unsupported one stops the
    program with a message naming the call, before any number comes out."""
    exe = mpi_build("refused", "-O0", "-DRUNTIME_DATATYPE")
    assert isinstance(exe, Path), f"build failed:\n{exe.stdout}\n{exe.stderr}"
    done = _mpirun(exe, 2, mpi_build.env)
    assert done.returncode != 0
    assert "pyenzyme: the derivative of MPI_Allreduce does not support this datatype" in done.stderr, done.stderr


_SHAPE = r"""
#include <mpi.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
double f(double *x) {
  double y;
  MPI_Sendrecv(x, 1, MPI_DOUBLE, 1, 0, &y, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return x[0] * y;
}
double grad(double *x, double *dx) { __enzyme_autodiff((void *)f, enzyme_dup, x, dx); return 0; }
double tangent(double *x, double *v) { return __enzyme_fwddiff((void *)f, enzyme_dup, x, v); }
"""


def test_generated_code_calls_the_helpers(tmp_path: Path) -> None:
    """Each mode replaces the MPI call by its helper: forward by ``_fwd``, the augmented sweep by ``_aug`` (whose
    tape goes to ``_rev`` in the reverse sweep); the buffer shadows follow their buffers."""
    src = tmp_path / "shape.c"
    src.write_text(_SHAPE)
    ll, out = tmp_path / "shape.ll", tmp_path / "shape_ad.ll"
    subprocess.run(["clang-22", "-O1", "-S", "-emit-llvm", *shlex.split(_showme("--showme:compile")), str(src),
                    "-o", str(ll)], check=True)
    subprocess.run([sys.executable, "-m", "enzyme", "opt", "--no-postopt", str(ll), "-o", str(out)], check=True,
                   env={**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO_ROOT),
                                                                                   os.environ.get("PYTHONPATH")]))})
    text = out.read_text()
    bodies = dict(re.findall(r"define [^@]*@(\w+)\(.*?\n(.*?)\n}", text, re.S))
    derivatives = {name: body for name, body in bodies.items() if name.startswith(("augmented_f", "reverse_f",
                                                                                    "fwddiffe_f", "diffef"))}
    assert derivatives, sorted(bodies)
    joined = "\n".join(derivatives.values())
    assert "@MPI_Sendrecv(" not in joined  # every differentiated call goes through a helper
    fwd = re.search(r"call i32 @__pyenzyme_mpi_MPI_Sendrecv_fwd\(ptr %(\w+), ptr %(\w+),", joined)
    aug = re.search(r"(%\w+) = call ptr @__pyenzyme_mpi_MPI_Sendrecv_aug\(", joined)
    assert fwd and fwd[1] != fwd[2] and aug, joined
    assert re.search(r"call void @__pyenzyme_mpi_MPI_Sendrecv_rev\(.*, ptr %\w+\)", joined), joined

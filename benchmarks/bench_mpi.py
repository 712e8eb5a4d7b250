"""Reverse-mode gradient time over primal time of an MPI halo-exchange stencil, at 1, 2 and 4 ranks.

    python3 benchmarks/bench_mpi.py [--cells N] [--steps S] [--repeat R] [--ranks 1,2,4]

Builds benchmarks/c/mpi_stencil.c once with ``OMPI_CC=enzyme-cc mpicc -O2`` (the primal in the same executable
is plain -O2 code) and runs it under ``mpirun --oversubscribe`` at 1, 2 and 4 ranks (1: a ring of one, messages to itself); each run prints the best of R
primal and gradient times (barrier-synchronised, all ranks) and checks one gradient entry against central
differences.  On a 2-core machine 4 ranks are oversubscribed: their times measure contention as much as AD.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SOURCE = Path(__file__).resolve().parent / "c" / "mpi_stencil.c"
MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cells", type=int, default=100000, help="cells per rank")
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--ranks", default="1,2,4", help="rank counts (1: the same code without a neighbour "
                        "to wait for, the AD cost alone)")
    args = parser.parse_args()
    if shutil.which("mpicc") is None or shutil.which("mpirun") is None:
        print("bench_mpi: OpenMPI (mpicc, mpirun) not found; run ci/setup.sh")
        return 1
    with tempfile.TemporaryDirectory(prefix="bench-mpi-") as tmp:
        cc = Path(tmp) / "enzyme-cc"
        cc.write_text(f"#!/bin/sh\nexec '{sys.executable}' -c 'import sys; from enzyme.cli import cc_main; "
                      "sys.exit(cc_main())' \"$@\"\n")
        cc.chmod(0o755)
        exe = Path(tmp) / "mpi_stencil"
        env = {**os.environ, **MPI_ENV}
        subprocess.run(["mpicc", "-O2", str(SOURCE), "-o", str(exe), "-lm"], check=True,
                       env={**env, "OMPI_CC": str(cc)})
        print(f"{'ranks':>5} {'cells/rank':>10} {'steps':>5} {'primal ms':>10} {'gradient ms':>12} {'ratio':>6} check")
        for ranks in (int(r) for r in args.ranks.split(",")):
            done = subprocess.run(["mpirun", "--oversubscribe", "--allow-run-as-root", "-np", str(ranks), str(exe),
                                   str(args.cells), str(args.steps), str(args.repeat)],
                                  capture_output=True, text=True, env=env, check=True)
            m = re.search(r"primal_ms=(\S+) gradient_ms=(\S+) ratio=(\S+) check=(\S+)", done.stdout)
            if m is None:
                print(done.stdout, done.stderr)
                return 1
            print(f"{ranks:>5} {args.cells:>10} {args.steps:>5} {m[1]:>10} {m[2]:>12} {m[3]:>6} {m[4]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

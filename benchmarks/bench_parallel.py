"""An OpenMP stencil (c/omp_stencil.c): reverse-mode gradient time over primal time at 1 and 2 threads.

    python3 benchmarks/bench_parallel.py               # threads 1 and 2, best of 10 runs each
    python3 benchmarks/bench_parallel.py --threads 1 2 4 --reps 5

The program is built once by pyenzyme at -O3 with -fopenmp (the primal in the same executable is the
same -O3 code, so the ratio compares like with like), then run with OMP_NUM_THREADS set to each count; it
checks two gradient entries against central differences.  On a machine whose cores are shared with other
work the times are noisy: compare ratios of the best runs, not single runs.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from enzyme import llvm, toolchain
from enzyme.pipeline import CompileOptions, TransformOptions, compile_sources, transform_module

SOURCE = Path(__file__).parent / "c" / "omp_stencil.c"
OPENMP = "-fopenmp"


def build(out_dir: Path, openmp: bool = True) -> tuple[Path, float]:
    start = time.perf_counter()
    flags = (OPENMP,) if openmp else ()
    module = compile_sources([SOURCE], CompileOptions(opt_level=3, flags=flags))
    result = transform_module(module, TransformOptions(postopt_level=3), name=SOURCE.name)
    out_dir.mkdir(parents=True, exist_ok=True)
    bitcode = out_dir / "omp_stencil.bc"
    bitcode.write_bytes(llvm.to_bitcode(result))
    obj = toolchain.compile_ir_object(bitcode, out_dir / "omp_stencil.o", opt_level=3)
    exe = toolchain.link_executable([obj], out_dir / "omp_stencil", libraries=["-lm", *flags])
    return exe, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--reps", type=int, default=10, help="timed runs per measurement; the best is reported")
    parser.add_argument("--serial", action="store_true", help="also the same program built without -fopenmp")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="enzyme-omp-") as tmp:
        if args.serial:
            serial, _ = build(Path(tmp) / "serial", openmp=False)
            run = subprocess.run([str(serial), str(args.reps)], capture_output=True, text=True, check=False)
            print("serial build (no -fopenmp):", run.stdout.strip() or run.stderr.strip())
        exe, seconds = build(Path(tmp))
        print(f"build (compile, AD, O3, codegen, link): {seconds:.1f} s")
        failed = False
        for threads in args.threads:
            env = {**os.environ, "OMP_NUM_THREADS": str(threads)}
            run = subprocess.run([str(exe), str(args.reps)], capture_output=True, text=True, env=env, check=False)
            print(run.stdout.strip() or run.stderr.strip())
            failed |= run.returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

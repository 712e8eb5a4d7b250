"""GPU gradient / primal time: a stencil kernel and a per-thread ODE kernel (benchmarks/c/gpu_kernels.cu).

Builds the CUDA program with enzyme-c++ (device side differentiated by pyenzyme) and runs it; each kernel's
gradient is checked against central differences computed on the host.  Needs an NVIDIA GPU (``nvidia-smi``):
without one it builds the program and stops with the reason.  Upstream Enzyme's published GPU ratios are under
10x.

    python3 benchmarks/bench_gpu.py [--arch sm_90] [--n 4194304] [--m 16384] [--steps 200]
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arch", default="sm_90", help="CUDA architecture to build for (default sm_90)")
    parser.add_argument("--n", type=int, default=1 << 22, help="stencil points (one thread each)")
    parser.add_argument("--m", type=int, default=1 << 14, help="ODE instances (one thread each)")
    parser.add_argument("--steps", type=int, default=200, help="RK4 steps per ODE")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-gpu-") as scratch:
        program = Path(scratch) / "gpu_kernels"
        build = [sys.executable, "-c", "import sys; from enzyme.cli import cxx_main; sys.exit(cxx_main())",
                 "-O2", "-std=c++17", f"--cuda-gpu-arch={args.arch}", str(HERE / "c" / "gpu_kernels.cu"),
                 "-o", str(program)]
        subprocess.run(build, check=True)
        print(f"built {program.name} for {args.arch}")
        if shutil.which("nvidia-smi") is None or not Path("/dev/nvidia0").exists():
            print("no NVIDIA GPU here (nvidia-smi, /dev/nvidia0): nothing timed")
            return 0
        result = subprocess.run([program, str(args.n), str(args.m), str(args.steps)], capture_output=True,
                                text=True, check=False)
        if result.returncode == 2:
            print(result.stderr.strip())
            return 2
        print(f"{'kernel':<28} {'primal µs':>10} {'gradient µs':>12} {'ratio':>7} {'max rel err':>12}")
        for line in result.stdout.splitlines():
            *name, primal, gradient, ratio, error = line.split()
            print(f"{' '.join(name):<28} {primal:>10} {gradient:>12} {ratio:>7} {error:>12}")
        if result.returncode != 0:
            print("WRONG: a gradient disagrees with finite differences")
        return result.returncode


if __name__ == "__main__":
    raise SystemExit(main())

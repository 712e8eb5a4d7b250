"""Run a kernel pyenzyme differentiated from Python, with CuPy loading its PTX (docs/gpu.md).

    enzyme bitcode energy_gradient.cu -o energy_gradient.bc
    enzyme build energy_gradient.bc -o energy_gradient.ptx --cuda-arch sm_90
    python3 run_with_cupy.py energy_gradient.ptx

energy_gradient(x, dx, n) writes dx[i] = d/dx (3 x^2 + x^3) at x[i]; the script compares it with 6 x + 3 x^2.
"""
from __future__ import annotations

import sys

import cupy as cp
import numpy as np


def main(ptx: str) -> int:
    kernel = cp.RawModule(path=ptx).get_function("energy_gradient")
    n = 1 << 20
    x = cp.linspace(-2.0, 2.0, n)
    dx = cp.zeros(n)
    kernel(((n + 255) // 256,), (256,), (x, dx, np.int32(n)))
    error = float(cp.max(cp.abs(dx - (6.0 * x + 3.0 * x * x))))
    print(f"{'ok' if error < 1e-12 else 'WRONG'}: CuPy ran energy_gradient on {n} points, largest error {error:.3g}")
    return 0 if error < 1e-12 else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1]))

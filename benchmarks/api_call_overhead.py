"""Wrapper overhead of the Python API: Python -> JIT call of a small gradient, and compile-cache hits.

    python benchmarks/api_call_overhead.py

Prints microseconds per call for: the bare ctypes call of the generated
wrapper (the floor), ``enzyme.autodiff`` on a repeated request (argument
checks + packing + call + result tuple), the primal ``lib.f(...)`` call, and
the times of a cold compile / autodiff against in-memory and on-disk cache
hits (in a fresh cache directory).
"""
from __future__ import annotations

import ctypes
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

SOURCE = Path(__file__).resolve().parent.parent / "tests" / "api" / "sources" / "reference.c"


def per_call_us(fn, n: int = 20000) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - t0) / n * 1e6)
    return best


def ms(fn) -> float:  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1e3


def main() -> int:
    os.environ["ENZYME_CACHE_DIR"] = tempfile.mkdtemp(prefix="enzyme-bench-cache-")
    import enzyme
    from enzyme.api import cache, library
    from enzyme.api.differentiation import packer

    cold = ms(lambda: enzyme.compile([SOURCE]))
    memory = ms(lambda: enzyme.compile([SOURCE]))
    cache.clear_memory()
    disk = ms(lambda: enzyme.compile([SOURCE]))
    lib = enzyme.compile([SOURCE])
    f = lib.c_mixed
    b, db = np.array([2.2, 3.3]), np.zeros(2)
    args = (enzyme.Active(4.2), enzyme.Duplicated(b, db), 55, enzyme.Active(9.0))
    grad_cold = ms(lambda: enzyme.autodiff(enzyme.Reverse, f, enzyme.Active, *args))
    cache.clear_memory()
    library._jits.clear()
    lib2 = enzyme.compile([SOURCE])
    grad_disk = ms(lambda: enzyme.autodiff(enzyme.Reverse, lib2.c_mixed, enzyme.Active, *args))

    plan = next(iter(f.plans.values()))
    values = packer(f, ("out", "dup", "const", "out"))(args)
    block = plan.parts[0][2](*values)
    wrapper = plan._fns[0]
    floor = per_call_us(lambda: wrapper(ctypes.addressof(block)))
    full = per_call_us(lambda: enzyme.autodiff(enzyme.Reverse, f, enzyme.Active, *args))
    primal = per_call_us(lambda: f(4.2, b, 55, 9.0))
    print(f"compile: cold {cold:.1f} ms, memory hit {memory:.2f} ms, disk hit {disk:.2f} ms")
    print(f"first autodiff (AD transform + JIT): cold {grad_cold:.1f} ms, disk hit {grad_disk:.1f} ms")
    print(f"bare wrapper call {floor:.2f} us; autodiff(Reverse, f, Active, Active, Duplicated, Const, Active) "
          f"{full:.2f} us (overhead {full - floor:.2f} us); primal lib.f(...) {primal:.2f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())

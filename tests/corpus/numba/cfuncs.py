"""numba ``@cfunc`` functions whose LLVM IR joins the round-trip corpus.

``llvm_ir()`` returns the textual IR numba generated (through its own copy
of llvmlite's LLVM) for every function listed in ``CFUNCS``.
"""
from __future__ import annotations

import math

import numpy as np
from numba import carray, cfunc, types

_ARRAY_SIGNATURE = types.double(types.CPointer(types.double), types.intc)


@cfunc(_ARRAY_SIGNATURE)
def norm_of(ptr, n):  # type: ignore[no-untyped-def]
    x = carray(ptr, (n,))
    total = 0.0
    for i in range(n):
        total += x[i] * x[i]
    return math.sqrt(total)


@cfunc(types.double(types.double, types.double))
def smooth(x, y):  # type: ignore[no-untyped-def]
    if x > y:
        return math.sin(x) * math.exp(-y)
    return math.log1p(abs(x * y)) + math.atan2(x, y)


@cfunc(types.int64(types.CPointer(types.int64), types.intc))
def argmax_of(ptr, n):  # type: ignore[no-untyped-def]
    x = carray(ptr, (n,))
    return np.argmax(x)


CFUNCS = {"norm_of": norm_of, "smooth": smooth, "argmax_of": argmax_of}


def llvm_ir() -> dict[str, str]:
    """Textual IR of each cfunc's library, by function name."""
    return {name: fn.inspect_llvm() for name, fn in CFUNCS.items()}

"""Rust moves of records holding a ``Vec`` (sources/struct_moves.rs): a matrix ``{rows, cols, data: Vec<f64>}``
built into a stack slot by a constructor, then moved with a 40-byte ``llvm.memcpy`` into a field of a filter
struct.  Type analysis only had conflicting (``Anything``) facts about the slot's bytes, so reverse mode
refused the copy; the slot's every write is a typed store (the constructor's ``sret`` stores of two integers,
the vector's capacity, pointer and length), which gives the layout (enzyme.ad.access_layout).  Gradients
against central differences at -O0..-O3, forward and reverse."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import enzyme
from enzyme import Const, Forward, Reverse

SOURCE = Path(__file__).parent / "sources" / "struct_moves.rs"
X = np.array([0.3, -1.2, 0.8])


def central(f: enzyme.api.library.CFunction, x: np.ndarray, h: float = 1e-6) -> np.ndarray:
    return np.array([(f(x + e, len(x)) - f(x - e, len(x))) / (2 * h) for e in np.eye(len(x)) * h])


@pytest.mark.parametrize("opt_level", [0, 1, 2, 3])
def test_struct_moves_gradients(opt_level: int) -> None:
    f = enzyme.compile([SOURCE], opt_level=opt_level)["moved_energy"]
    expected = central(f, X)
    for mode in (Forward, Reverse):
        np.testing.assert_allclose(enzyme.gradient(mode, f, X, Const(len(X))), expected, rtol=1e-6, atol=1e-8)

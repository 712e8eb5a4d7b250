"""A Rust matrix built from ``&[&[f64]]`` rows (sources/rows_matrix.rs), called with constant rows and with active
ones.  In the constant call the row data pointers are loaded through a phi over the (shadowless) rows slice and
then merged, inside the `flat_map` loop, with pointers built later: the merge got a null tangent in forward mode
(a segfault reading through it) and was refused in reverse mode ("merges with one that has no shadow").  A pointer
loaded through a shadowless merge has no shadow either (enzyme.ad.shadowless).  Gradients against central
differences at -O0..-O3."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import enzyme
from enzyme import Const, Forward, Reverse

SOURCE = Path(__file__).parent / "sources" / "rows_matrix.rs"
X = np.array([0.3, -1.2, 0.8])


def central(f: enzyme.api.library.CFunction, x: np.ndarray, h: float = 1e-6) -> np.ndarray:
    return np.array([(f(x + e, len(x)) - f(x - e, len(x))) / (2 * h) for e in np.eye(len(x)) * h])


@pytest.mark.parametrize("opt_level", [0, 1, 2, 3])
def test_rows_matrix_gradients(opt_level: int) -> None:
    f = enzyme.compile([SOURCE], opt_level=opt_level)["rows_energy"]
    expected = central(f, X)
    for mode in (Forward, Reverse):
        np.testing.assert_allclose(enzyme.gradient(mode, f, X, Const(len(X))), expected, rtol=1e-6, atol=1e-8)

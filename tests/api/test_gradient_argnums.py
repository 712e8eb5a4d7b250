"""gradient(..., argnums=...): derivatives with respect to several arguments at once, checked against the other
mode, an analytic formula and central differences."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import enzyme
from enzyme import Forward, Reverse

SOURCE = Path(__file__).parent / "sources" / "second_order.c"


@pytest.fixture(scope="module")
def lib():
    return enzyme.compile([SOURCE])


def test_array_and_data_arguments_in_one_reverse_call(lib):
    rng = np.random.default_rng(3)
    m, n = 6, 3
    X, y, w = rng.standard_normal((m, n)), (rng.random(m) > 0.5).astype(float), rng.standard_normal(n)
    gw, gX = enzyme.gradient(Reverse, lib.logistic_nll, w, X, y, m, n, argnums=(0, 1))
    assert gX.shape == X.shape
    fw, fX = enzyme.gradient(Forward, lib.logistic_nll, w, X, y, m, n, argnums=(0, 1), chunk=4)
    np.testing.assert_allclose(gw, fw, rtol=1e-13)
    np.testing.assert_allclose(gX.reshape(-1), fX, rtol=1e-13)
    h, E = 1e-6, np.zeros_like(X)
    E[2, 1] = h
    fd = (lib.logistic_nll(w, X + E, y, m, n) - lib.logistic_nll(w, X - E, y, m, n)) / (2 * h)
    assert gX[2, 1] == pytest.approx(fd, rel=1e-7)
    np.testing.assert_array_equal(enzyme.gradient(Reverse, lib.logistic_nll, w, X, y, m, n, argnums=1), gX)


def test_scalar_argument(lib):
    x = np.array([0.5, -1.0, 2.0])
    gx, glam = enzyme.gradient(Reverse, lib.ridge, x, 3, 0.1, argnums=(0, 2))
    assert glam == pytest.approx(np.sum(x * x), rel=1e-15)
    np.testing.assert_allclose(gx, enzyme.gradient(Reverse, lib.rosenbrock, x, 3) + 0.2 * x, rtol=1e-14)
    assert enzyme.gradient(Forward, lib.ridge, x, 3, 0.1, argnums=2) == pytest.approx(np.sum(x * x), rel=1e-15)


@pytest.mark.parametrize("argnums,match", [
    ((0, 5), r"argnums \(0, 5\) must name positions 0..2"),
    ((0, 0), "repeats a position"),
    ((2, "x"), "must name positions"),
])
def test_misuse(lib, argnums, match):
    with pytest.raises(enzyme.ArgumentValueError, match=match):
        enzyme.gradient(Reverse, lib.ridge, np.ones(3), 3, 0.1, argnums=argnums)
    with pytest.raises(enzyme.ArgumentValueError, match=r"argument 3, selected by argnums, is annotated \(Const\)"):
        enzyme.gradient(Reverse, lib.ridge, np.ones(3), 3, enzyme.Const(0.1), argnums=(0, 2))

"""Batch reverse mode from Python: BatchDuplicated in autodiff(Reverse, ...) and jacobian(Reverse, ..., chunk=k).

Oracles: the forward-mode Jacobian, width-1 reverse calls and central differences.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import enzyme
from enzyme import (
    Active,
    BatchDuplicated,
    BatchDuplicatedNoNeed,
    Const,
    Duplicated,
    Forward,
    Reverse,
    ReverseWithPrimal,
)

SOURCE = Path(__file__).parent / "sources" / "batch_reverse.c"


@pytest.fixture(scope="module")
def lib():
    return enzyme.compile([SOURCE])


def _central_jacobian(f, x: np.ndarray, m: int, h: float = 1e-6) -> np.ndarray:
    J = np.zeros((m, x.size))
    for i in range(x.size):
        xp, xm = x.copy(), x.copy()
        xp[i] += h
        xm[i] -= h
        J[:, i] = (f(xp) - f(xm)) / (2 * h)
    return J


def _spread(lib, n: int, m: int):
    def f(x: np.ndarray) -> np.ndarray:
        y = np.zeros(m)
        lib.spread(x, y, n, m)
        return y
    return f


@pytest.mark.parametrize("m, chunk", [(5, None), (5, 1), (5, 2), (5, 5), (5, 8), (20, None), (20, 3)])
def test_jacobian_reverse_chunks(lib, m, chunk):
    n = 4
    x = np.array([0.3, -0.7, 1.1, 0.5])
    y = np.zeros(m)
    J = enzyme.jacobian(Reverse, lib.spread, x, y, Const(n), Const(m), out=y, chunk=chunk)
    Jf = enzyme.jacobian(Forward, lib.spread, x, y, Const(n), Const(m), out=y, chunk=2)
    assert J.shape == (m, n)
    np.testing.assert_allclose(J, Jf, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(J, _central_jacobian(_spread(lib, n, m), x, m), rtol=1e-6, atol=1e-8)


def test_autodiff_batch_reverse_rows(lib):
    """Shadows of y seeded with e_0, e_2 and a mix: the shadows of x receive w^T J for each seed."""
    n, m = 4, 3
    x = np.array([0.3, -0.7, 1.1, 0.5])
    y = np.zeros(m)
    seeds = (np.array([1.0, 0, 0]), np.array([0, 0, 1.0]), np.array([2.0, -1.0, 0.5]))
    weights = [s.copy() for s in seeds]
    dxs = (np.zeros(n), np.full(n, 10.0), np.zeros(n))  # shadows accumulate: the 10s stay added
    res = enzyme.autodiff(Reverse, lib.spread, Const, BatchDuplicated(x, dxs), BatchDuplicated(y, seeds),
                          Const(n), Const(m))
    assert res == ((None, None, None, None),)
    J = _central_jacobian(_spread(lib, n, m), x, m)
    for k in range(3):
        expected = weights[k] @ J + (10.0 if k == 1 else 0.0)
        np.testing.assert_allclose(dxs[k], expected, rtol=1e-6, atol=1e-8)
        # width 1 agrees to rounding
        dx1 = np.zeros(n)
        enzyme.autodiff(Reverse, lib.spread, Const, Duplicated(x, dx1), Duplicated(y, weights[k].copy()),
                        Const(n), Const(m))
        np.testing.assert_allclose(dxs[k] - (10.0 if k == 1 else 0.0), dx1, rtol=1e-14, atol=1e-15)
    for s in seeds:
        assert not s.any(), "the adjoints of the output are consumed"


def test_active_argument_gets_one_derivative_per_direction(lib):
    """As Enzyme.jl: an Active argument of a batch reverse call returns a tuple of width derivatives."""
    a, x = 0.8, np.array([0.5, -1.5, 2.0])
    dxs = (np.zeros(3), np.zeros(3))
    (da, dx_ann, dn), primal = enzyme.autodiff(ReverseWithPrimal, lib.scaled, Active, Active(a),
                                                BatchDuplicatedNoNeed(x, dxs), Const(3))
    s = float(x @ x)
    assert da == pytest.approx((s + np.cos(a),) * 2, rel=1e-14)
    assert dx_ann is None and dn is None
    assert primal == pytest.approx(a * s + np.sin(a), rel=1e-14)
    for dx in dxs:
        np.testing.assert_allclose(dx, 2 * a * x, rtol=1e-14)
    h = 1e-6
    fd = (lib.scaled(a + h, x, 3) - lib.scaled(a - h, x, 3)) / (2 * h)
    assert da[0] == pytest.approx(fd, rel=1e-7)


def test_width_one_batch_gives_tuples(lib):
    a, x = 0.8, np.array([0.5, -1.5])
    dx = np.zeros(2)
    ((da, _, _),) = enzyme.autodiff(Reverse, lib.scaled, Active, Active(a), BatchDuplicated(x, (dx,)), Const(2))
    assert isinstance(da, tuple) and len(da) == 1
    assert da[0] == pytest.approx(float(x @ x) + np.cos(a), rel=1e-14)


def test_single_precision_jacobian(lib):
    x = np.array([0.3, -0.7, 1.1], dtype=np.float32)
    y = np.zeros(3, dtype=np.float32)
    J = enzyme.jacobian(Reverse, lib.fspread, x, y, Const(3), out=y)
    Jf = enzyme.jacobian(Forward, lib.fspread, x, y, Const(3), out=y)
    np.testing.assert_allclose(J, Jf, rtol=1e-6)


def test_batch_reverse_misuse(lib):
    x = np.array([0.5, -1.5])
    with pytest.raises(ValueError, match="different numbers of shadows"):
        enzyme.autodiff(Reverse, lib.spread, Const, BatchDuplicated(x, (np.zeros(2),) * 2),
                        BatchDuplicated(np.zeros(2), (np.zeros(2),) * 3), Const(2), Const(2))
    with pytest.raises(enzyme.errors.UsageError, match="use Active"):
        enzyme.autodiff(Reverse, lib.scaled, Active, BatchDuplicated(0.5, (1.0, 2.0)), BatchDuplicated(x, (x, x)),
                        Const(2))
    y = np.zeros(2)
    with pytest.raises(ValueError, match="chunk must be a positive integer"):
        enzyme.jacobian(Reverse, lib.spread, x, y, Const(2), Const(2), out=y, chunk=0)

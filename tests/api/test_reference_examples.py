"""Every example of the Enzyme.jl API reference, with C, Fortran and Rust implementations, giving its numbers.

Oracles: the analytic derivatives the reference prints (x[1]*x[2] -> (x2, x1);
a*|b| + c^2 d^2 -> (|b|, a b/|b|, 2 c^2 d); x^2 -> 2x), and where noted
central finite differences.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

import enzyme
from enzyme import (
    Active,
    BatchDuplicated,
    BatchDuplicatedNoNeed,
    Const,
    Duplicated,
    DuplicatedNoNeed,
    Forward,
    ForwardWithPrimal,
    Reverse,
    ReverseWithPrimal,
)


def test_gradient_bang(ref):
    dx = np.array([0.0, 0.0])
    got = enzyme.gradient_(Reverse, dx, ref.fn("prod2"), np.array([2.0, 3.0]))
    assert got is dx
    assert dx.tolist() == [3.0, 2.0]


def test_gradient_bang_zeroes_dx_first(cref):
    dx = np.array([7.0, 7.0])
    enzyme.gradient_(Reverse, dx, cref.fn("prod2"), np.array([2.0, 3.0]))
    assert dx.tolist() == [3.0, 2.0]


def test_gradient_forward(ref):
    assert enzyme.gradient(Forward, ref.fn("prod2"), np.array([2.0, 3.0])) == (3.0, 2.0)


def test_gradient_reverse(ref):
    x = np.array([2.0, 3.0])
    grad = enzyme.gradient(Reverse, ref.fn("prod2"), x)
    assert isinstance(grad, np.ndarray) and grad.tolist() == [3.0, 2.0]
    assert x.tolist() == [2.0, 3.0]


def test_gradient_forward_chunked(ref):
    assert enzyme.gradient(Forward, ref.fn("prod2"), np.array([2.0, 3.0]), chunk=2) == (3.0, 2.0)


@pytest.mark.parametrize("chunk", [None, 1, 2])
def test_jacobian_forward(ref, chunk):
    x, y = np.array([2.0, 3.0]), np.zeros(2)
    J = enzyme.jacobian(Forward, ref.fn("vecf"), x, y, out=y, chunk=chunk)
    assert J.tolist() == [[3.0, 2.0], [0.0, 1.0]]
    assert y.tolist() == [6.0, 3.0]


def test_jacobian_reverse(ref):
    x, y = np.array([2.0, 3.0]), np.zeros(2)
    J = enzyme.jacobian(Reverse, ref.fn("vecf"), x, y, out=y)
    assert J.tolist() == [[3.0, 2.0], [0.0, 1.0]]


def test_autodiff_forward_duplicated(ref):
    res, df = enzyme.autodiff(Forward, ref.fn("square"), Duplicated, Duplicated(3.14, 1.0))
    assert res == pytest.approx(9.8596, rel=1e-15) and df == pytest.approx(6.28, rel=1e-15)


def test_autodiff_forward_duplicated_noneed(ref):
    got = enzyme.autodiff(Forward, ref.fn("square"), DuplicatedNoNeed, Duplicated(3.14, 1.0))
    assert len(got) == 1 and got[0] == pytest.approx(6.28, rel=1e-15)


def test_autodiff_forward_with_primal(cref):
    df, res = enzyme.autodiff(ForwardWithPrimal, cref.fn("square"), Duplicated, Duplicated(3.14, 1.0))
    assert (res, df) == pytest.approx((9.8596, 6.28), rel=1e-15)
    assert enzyme.autodiff(ForwardWithPrimal, cref.fn("square"), Const, Duplicated(3.0, 1.0)) == (9.0,)
    assert enzyme.autodiff(Forward, cref.fn("square"), Const, Duplicated(3.0, 1.0)) == ()


def test_autodiff_reverse_mixed(ref):
    a, b, c, d = 4.2, np.array([2.2, 3.3]), 55, 9
    db = enzyme.make_zero(b)
    (da, n1, n2, dd), = enzyme.autodiff(Reverse, ref.fn("mixed"), Active, Active(a), Duplicated(b, db), Const(c),
                                        Active(d))
    assert (n1, n2) == (None, None)
    assert da == pytest.approx(3.966106403010388, rel=1e-14)
    assert dd == 54450.0
    norm = math.hypot(*b)
    np.testing.assert_allclose(db, a * b / norm, rtol=1e-14)


def test_autodiff_reverse_plain_values_are_const(cref):
    b, db = np.array([2.2, 3.3]), np.zeros(2)
    got = enzyme.autodiff(Reverse, cref.fn("mixed"), Active, Active(4.2), Duplicated(b, db), 55, Active(9.0))
    assert got[0][1:3] == (None, None) and got[0][3] == 54450.0


def test_autodiff_reverse_with_primal(ref):
    assert enzyme.autodiff(ReverseWithPrimal, ref.fn("square"), Active, Active(3.0)) == ((6.0,), 9.0)


def test_readme_first_example(ref):
    assert enzyme.autodiff(Reverse, ref.fn("square"), Active, Active(1.0))[0][0] == 2.0


def test_reverse_const_return_has_no_seed(cref):
    b, db = np.array([2.2, 3.3]), np.zeros(2)
    got = enzyme.autodiff(ReverseWithPrimal, cref.fn("mixed"), Const, Active(4.2), Duplicated(b, db), 55, Active(9.0))
    assert got[0] == (0.0, None, None, 0.0) and db.tolist() == [0.0, 0.0]
    assert got[1] == pytest.approx(cref.fn("mixed")(4.2, b, 55, 9.0), rel=0)


def test_batch_duplicated_forward(ref):
    """Two tangent directions in one generated call (enzyme_width 2), against the analytic derivative."""
    f = ref.fn("prod2")
    x = np.array([2.0, 3.0])
    res, (t1, t2) = enzyme.autodiff(Forward, f, BatchDuplicated, BatchDuplicated(x, (np.array([1.0, 0.0]),
                                                                                     np.array([0.5, 2.0]))))
    assert (res, t1, t2) == (6.0, 3.0, 0.5 * 3.0 + 2.0 * 2.0)
    (u1, u2), = enzyme.autodiff(Forward, ref.fn("square"), BatchDuplicatedNoNeed, BatchDuplicated(3.0, (1.0, -2.0)))
    assert (u1, u2) == (6.0, -12.0)

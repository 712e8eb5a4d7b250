"""autodiff_thunk: the Enzyme.jl split-mode example in three languages, tapes, and forward thunks."""
from __future__ import annotations

import numpy as np
import pytest

import enzyme
from enzyme import Active, Const, Duplicated, DuplicatedNoNeed, Forward, ReverseSplitNoPrimal, ReverseSplitWithPrimal
from enzyme.errors import UsageError


def test_reference_split_example(ref):
    """A[1]*v with A[1] overwritten before the reverse sweep: (7.26, 2.2, [3.3])."""
    A = np.array([2.2])
    dA = enzyme.make_zero(A)
    v = 3.3
    forward, reverse = enzyme.autodiff_thunk(ReverseSplitWithPrimal, ref.fn("split"), Active, Duplicated, Active)
    tape, result, shadow_result = forward(Duplicated(A, dA), Active(v))
    assert A.tolist() == [0.0] and shadow_result is None
    _, dv = reverse(Duplicated(A, dA), Active(v), 1.0, tape)[0]
    assert (result, dv, dA.tolist()) == (pytest.approx(7.26, rel=1e-15), 2.2, [3.3])


def test_split_no_primal_and_seed(cref):
    A = np.array([2.0])
    dA = enzyme.make_zero(A)
    forward, reverse = enzyme.autodiff_thunk(ReverseSplitNoPrimal, cref.fn("split"), Active, Duplicated, Active)
    tape, result, _ = forward(Duplicated(A, dA), Active(5.0))
    assert result is None
    (_, dv), = reverse(Duplicated(A, dA), Active(5.0), 0.5, tape)
    assert (dv, dA.tolist()) == (1.0, [2.5])


def test_split_const_return_takes_no_seed(cref):
    A = np.array([2.0])
    dA = enzyme.make_zero(A)
    forward, reverse = enzyme.autodiff_thunk(ReverseSplitWithPrimal, cref.fn("split"), Const, Duplicated, Active)
    tape, result, _ = forward(Duplicated(A, dA), Active(5.0))
    assert result == 10.0
    assert reverse(Duplicated(A, dA), Active(5.0), tape) == ((None, 0.0),)
    assert dA.tolist() == [0.0]


def test_tape_is_used_once(cref):
    A = np.array([2.0])
    dA = enzyme.make_zero(A)
    forward, reverse = enzyme.autodiff_thunk(ReverseSplitWithPrimal, cref.fn("split"), Active, Duplicated, Active)
    tape, _, _ = forward(Duplicated(A, dA), Active(5.0))
    reverse(Duplicated(A, dA), Active(5.0), 1.0, tape)
    with pytest.raises(UsageError, match="already used"):
        reverse(Duplicated(A, dA), Active(5.0), 1.0, tape)
    with pytest.raises(TypeError, match="tape"):
        reverse(Duplicated(A, dA), Active(5.0), 1.0, object())
    with pytest.raises(TypeError, match="takes the arguments, the result's adjoint and the tape"):
        reverse(Duplicated(A, dA), Active(5.0), tape)


def test_split_checks_declared_activities(cref):
    forward, _ = enzyme.autodiff_thunk(ReverseSplitWithPrimal, cref.fn("split"), Active, Duplicated, Active)
    with pytest.raises(TypeError, match="must be Duplicated"):
        forward(Const(np.array([1.0])), Active(2.0))
    with pytest.raises(UsageError, match="Active is for scalars"):
        enzyme.autodiff_thunk(ReverseSplitWithPrimal, cref.fn("split"), Active, Active, Active)


def test_forward_thunk(ref):
    forward = enzyme.autodiff_thunk(Forward, ref.fn("square"), Duplicated, Duplicated)
    assert forward(Duplicated(3.14, 1.0)) == pytest.approx((9.8596, 6.28), rel=1e-15)
    forward = enzyme.autodiff_thunk(Forward, ref.fn("square"), DuplicatedNoNeed, Duplicated)
    assert forward(Duplicated(3.14, 1.0)) == pytest.approx((6.28,), rel=1e-15)

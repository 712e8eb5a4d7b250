"""The temporary-storage caveat of Enzyme.jl: where upstream silently returns 0.0, pyenzyme raises."""
from __future__ import annotations

import numpy as np
import pytest

import enzyme
from enzyme import Active, Const, Duplicated, Reverse
from enzyme.errors import DifferentiationError


def test_const_scratch_buffer_is_refused(cref):
    # The refusal names the source line although the library was compiled without debug=True.
    with pytest.raises(DifferentiationError, match=r"in @c_tmp_power at \S*reference.c:3\d:\d+: .*Duplicated"):
        enzyme.autodiff(Reverse, cref.fn("tmp_power"), Active, Active(1.2), Const(np.empty(1)), Const(5))


def test_duplicated_scratch_buffer(cref):
    (dx, _, _), = enzyme.autodiff(Reverse, cref.fn("tmp_power"), Active, Active(1.2),
                                  Duplicated(np.empty(1), np.zeros(1)), Const(5))
    assert dx == pytest.approx(1.2**4 * 5, rel=1e-15)


def test_scratch_shadow_accumulates(cref):
    """The shadow is an accumulator: what it holds (3.0) is an adjoint already there, scaled like the seed."""
    (dx, _, _), = enzyme.autodiff(Reverse, cref.fn("tmp_power"), Active, Active(1.2),
                                  Duplicated(np.empty(1), np.array([3.0])), Const(5))
    assert dx == pytest.approx((1 + 3.0) * 1.2**4 * 5, rel=1e-15)

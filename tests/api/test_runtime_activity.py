"""Runtime activity (Enzyme.jl's set_runtime_activity): Duplicated(x, x) is Const(x) at run time."""
from __future__ import annotations

import numpy as np
import pytest

import enzyme
from enzyme import Active, Const, Duplicated, Forward, Reverse


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    src = tmp_path_factory.mktemp("ra") / "weighted.c"
    src.write_text("double weighted(const double *w, const double *x, int n) {\n"
                   "  double s = 0;\n  for (int i = 0; i < n; i++) s += w[i] * x[i] * x[i];\n  return s;\n}\n")
    return enzyme.compile(src)


def test_mode_helpers():
    mode = enzyme.set_runtime_activity(Reverse)
    assert enzyme.runtime_activity(mode) and not enzyme.runtime_activity(Reverse)
    assert repr(mode) == "set_runtime_activity(Reverse)"
    assert not enzyme.runtime_activity(enzyme.clear_runtime_activity(mode))
    with pytest.raises(enzyme.UsageError, match="takes a mode"):
        enzyme.set_runtime_activity("Reverse")


def test_own_shadow_is_inactive_at_run_time(lib):
    w, x = np.array([1.0, 2.0, 3.0]), np.array([0.5, -1.0, 2.0])
    dx = np.zeros(3)
    # The weights passed as their own shadow: inactive, so the gradient is the one with Const weights.
    enzyme.autodiff(enzyme.set_runtime_activity(Reverse), lib.weighted, Active, Duplicated(w, w),
                    Duplicated(x, dx), Const(3))
    np.testing.assert_allclose(dx, 2 * w * x)  # analytic: d/dx sum w x^2
    np.testing.assert_array_equal(w, [1.0, 2.0, 3.0])  # the primal was not used as an adjoint accumulator
    (tangent,) = enzyme.autodiff(enzyme.set_runtime_activity(Forward), lib.weighted, enzyme.DuplicatedNoNeed,
                                 Duplicated(w, w), Duplicated(x, np.array([1.0, 0.0, 0.0])), Const(3))
    assert tangent == pytest.approx(2 * w[0] * x[0])


def test_without_runtime_activity_an_aliased_shadow_is_refused(lib):
    w, x = np.array([1.0, 2.0, 3.0]), np.array([0.5, -1.0, 2.0])
    with pytest.raises(enzyme.ArgumentValueError, match="shares memory with the value"):
        enzyme.autodiff(Reverse, lib.weighted, Active, Duplicated(w, w), Duplicated(x, np.zeros(3)), Const(3))
    # A shadow overlapping only part of the primal is refused even with runtime activity.
    with pytest.raises(enzyme.ArgumentValueError, match="shares memory with the value"):
        enzyme.autodiff(enzyme.set_runtime_activity(Reverse), lib.weighted, Active, Duplicated(w[:2], w[1:]),
                        Duplicated(x[:2], np.zeros(2)), Const(2))

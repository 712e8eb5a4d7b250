"""The finite-difference methods of enzyme.testing against analytic derivatives (no compiled code)."""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from enzyme.errors import UsageError
from enzyme.testing import FiniteDifferenceMethod, backward_fdm, central_fdm, forward_fdm
from enzyme.testing.fdm import _stencil_weights

# (name, f, [f', f'', f'''], x)
FUNCTIONS = [
    ("sin", math.sin, [math.cos, lambda x: -math.sin(x), lambda x: -math.cos(x)], 1.0),
    ("exp", math.exp, [math.exp, math.exp, math.exp], 3.0),
    ("log", math.log, [lambda x: 1 / x, lambda x: -1 / x**2, lambda x: 2 / x**3], 2.5),
    ("fast", lambda x: math.sin(100 * x),
     [lambda x: 100 * math.cos(100 * x), lambda x: -1e4 * math.sin(100 * x), lambda x: -1e6 * math.cos(100 * x)], 0.3),
    ("tiny scale", lambda x: 1e-8 * math.sin(x),
     [lambda x: 1e-8 * math.cos(x), lambda x: -1e-8 * math.sin(x), lambda x: -1e-8 * math.cos(x)], 0.7),
    ("cubic", lambda x: x**3 - 2 * x, [lambda x: 3 * x**2 - 2, lambda x: 6 * x, lambda x: 6.0], -1.3),
]


def _relative_error(got: float, exact: float) -> float:
    return abs(got - exact) / max(abs(exact), 1e-300)


def test_central_5_point_weights_are_the_textbook_ones() -> None:
    assert _stencil_weights((-2, -1, 0, 1, 2), 1) == (Fraction(1, 12), Fraction(-2, 3), 0, Fraction(2, 3),
                                                      Fraction(-1, 12))
    assert _stencil_weights((-1, 0, 1), 2) == (1, -2, 1)
    assert forward_fdm(2, 1).coefs == (-1.0, 1.0)


def test_weights_differentiate_polynomials_exactly() -> None:
    # A p-point stencil is exact on polynomials of degree < p (with step 1, in exact arithmetic).
    for grid in [(-2, -1, 0, 1, 2), (0, 1, 2, 3), (-3, -2, -1, 0), (-2, -1, 1, 2)]:
        for q in range(1, len(grid)):
            w = _stencil_weights(grid, q)
            for degree in range(len(grid)):
                exact = math.factorial(q) if degree == q else 0
                assert sum(c * Fraction(g) ** degree for c, g in zip(w, grid)) == exact


def test_truncation_order_of_symmetric_stencils() -> None:
    assert central_fdm(5, 1).order == 5
    assert central_fdm(5, 2).order == 6  # even derivative on a symmetric grid: odd powers cancel
    assert central_fdm(2, 1).order == 3
    assert forward_fdm(3, 1).order == 3


@pytest.mark.parametrize("name,f,derivs,x", FUNCTIONS, ids=[f[0] for f in FUNCTIONS])
@pytest.mark.parametrize("method,tolerance", [
    (central_fdm(5, 1), 1e-10),
    (central_fdm(7, 1), 1e-10),
    (central_fdm(3, 1), 1e-8),
    (forward_fdm(5, 1), 1e-9),
    (backward_fdm(5, 1), 1e-9),
    (central_fdm(5, 1, adapt=2), 1e-10),
    (central_fdm(5, 2), 1e-8),
    (central_fdm(7, 3), 1e-6),
], ids=repr)
def test_derivatives_match_analytic(name: str, f, derivs, x: float, method: FiniteDifferenceMethod,
                                    tolerance: float) -> None:
    exact = derivs[method.q - 1](x)
    got = method(f, x)
    assert isinstance(got, float)
    assert _relative_error(got, exact) < tolerance, (method, name, got, exact)


def test_step_follows_the_function_scale() -> None:
    fdm = central_fdm(5, 1)
    slow, _ = fdm.estimate_step(math.sin, 1.0)
    fast, _ = fdm.estimate_step(lambda x: math.sin(1000 * x), 1.0)
    assert fast < slow / 100


def test_array_valued_functions() -> None:
    def f(t: float) -> np.ndarray:
        return np.array([t * t, math.sin(t), 5.0])

    got = central_fdm(5, 1)(f, 2.0)
    assert isinstance(got, np.ndarray) and got.shape == (3,)
    np.testing.assert_allclose(got, [4.0, math.cos(2.0), 0.0], rtol=1e-11, atol=1e-12)


def test_constant_and_linear_functions() -> None:
    assert central_fdm(5, 1)(lambda x: 3.0, 0.0) == 0.0
    assert abs(central_fdm(5, 1)(lambda x: 2.5 * x + 1, 0.0) - 2.5) < 1e-13


def test_float32_values_use_float32_epsilon() -> None:
    f32 = lambda t: np.float32(np.sin(np.float32(1.0) + np.float32(t)))
    got = central_fdm(5, 1)(f32, 0.0)
    assert abs(got - math.cos(1.0)) < 1e-4


def test_one_sided_methods_stay_on_their_side() -> None:
    seen: list[float] = []

    def sqrt(x: float) -> float:
        seen.append(x)
        return math.sqrt(x)

    got = forward_fdm(5, 1)(sqrt, 0.01)
    assert min(seen) >= 0.01
    assert _relative_error(got, 0.5 / math.sqrt(0.01)) < 1e-8
    seen.clear()
    backward_fdm(5, 1, max_range=1e-3)(sqrt, 0.01)
    # the roughness estimate (6 points for the 5th derivative) reaches 5 steps back
    assert min(seen) >= 0.01 - 5 * 1e-3 - 1e-15 and max(seen) <= 0.01


def test_max_range_and_fixed_step() -> None:
    step, _ = central_fdm(5, 1, max_range=1e-4).estimate_step(math.sin, 1.0)
    assert step == 1e-4
    assert central_fdm(5, 1, step=1e-3).estimate_step(math.sin, 1.0)[0] == 1e-3
    assert abs(central_fdm(5, 1, step=1e-3)(math.sin, 1.0) - math.cos(1.0)) < 1e-11


@pytest.mark.parametrize("make", [lambda: central_fdm(1, 1), lambda: central_fdm(3, 3),
                                  lambda: FiniteDifferenceMethod((0, 0, 1), 1), lambda: central_fdm(5, 1, step=-1.0),
                                  lambda: central_fdm(5, 1, adapt=-1)])
def test_invalid_methods_are_refused(make) -> None:
    with pytest.raises(UsageError):
        make()


def test_repr_names_the_method() -> None:
    assert repr(central_fdm(5, 1)) == "central_fdm(5, 1, adapt=1)"
    assert repr(forward_fdm(3, 2, adapt=0)) == "forward_fdm(3, 2, adapt=0)"

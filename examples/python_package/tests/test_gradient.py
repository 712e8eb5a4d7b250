"""The extension's AD gradient against finite differences (enzyme.testing) and the analytic formula."""
from __future__ import annotations

import math

import pytest
from enzyme.testing import central_fdm

from rosenbrock_ad import gradient, rosenbrock

POINTS = [[1.0, 1.0], [-1.2, 1.0], [0.5, -0.3, 2.0, 1.5], [3.0, -2.0, 0.25]]


def analytic_gradient(x: list[float]) -> list[float]:
    g = [0.0] * len(x)
    for i in range(len(x) - 1):
        b = x[i + 1] - x[i] ** 2
        g[i] += -2.0 * (1.0 - x[i]) - 400.0 * x[i] * b
        g[i + 1] += 200.0 * b
    return g


@pytest.mark.parametrize("x", POINTS)
def test_gradient_matches_analytic_formula(x: list[float]) -> None:
    assert gradient(x) == pytest.approx(analytic_gradient(x), rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("x", POINTS)
def test_gradient_matches_finite_differences(x: list[float]) -> None:
    fdm = central_fdm(5, 1)
    for i in range(len(x)):
        def along_i(t: float, i: int = i) -> float:
            return rosenbrock([t if j == i else v for j, v in enumerate(x)])
        assert gradient(x)[i] == pytest.approx(fdm(along_i, x[i]), rel=1e-6, abs=1e-6)


def test_primal_value() -> None:
    assert rosenbrock([-1.2, 1.0]) == pytest.approx(24.2)
    assert math.isclose(rosenbrock([1.0, 1.0, 1.0]), 0.0)

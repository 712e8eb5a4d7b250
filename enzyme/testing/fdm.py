"""Finite-difference methods with an adaptive step, the oracle of :mod:`enzyme.testing`.

A method is a stencil (integer grid points ``g_j`` and weights ``c_j``) for the
``q``-th derivative; applied to ``f`` at ``x`` with step ``h`` it computes
``sum_j c_j f(x + h g_j) / h**q``::

    >>> import math
    >>> from enzyme.testing import central_fdm, forward_fdm
    >>> round(central_fdm(5, 1)(math.sin, 1.0), 12) == round(math.cos(1.0), 12)
    True
    >>> abs(forward_fdm(4, 2)(math.exp, 0.5) - math.exp(0.5)) < 1e-6
    True

``f`` may return a scalar or a numpy array (every element is differentiated).

How the step is chosen
----------------------
The total error of a stencil is the sum of two terms (as in FiniteDifferences.jl,
whose defaults we follow):

* rounding: ``factor * eps * sum|c_j| * M0 / h**q`` where ``M0`` bounds ``|f|``
  near ``x`` and ``eps`` is the machine epsilon of the values involved;
* truncation: ``C * Mk * h**(k - q)`` where ``k`` is the first power the stencil
  does not differentiate exactly (``k = p`` for ``p`` points, ``p + 1`` for some
  symmetric stencils), ``C = |sum_j c_j g_j**k| / k!`` and ``Mk`` bounds the
  ``k``-th derivative of ``f`` near ``x``.

The step that minimises the sum is ``h = (q*R / ((k-q)*C*Mk)) ** (1/k)`` with ``R``
the rounding numerator.  ``Mk`` measures how rough the function is; with
``adapt >= 1`` it is itself estimated by a finite-difference method of higher order
(``adapt - 1`` levels deep), so the step follows the function's own scale: a fast
oscillation gets a small step, a nearly polynomial function a large one.  With
``adapt=0`` the method assumes ``Mk = M0`` (features of unit scale).  ``max_range``
caps the step (use it when ``f`` is only defined near ``x``, e.g. ``sqrt`` at a
small value), and ``step`` fixes it outright.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from ..errors import UsageError

__all__ = ["FiniteDifferenceMethod", "backward_fdm", "central_fdm", "forward_fdm"]

DEFAULT_EPS = float(np.finfo(np.float64).eps)


def _stencil_weights(grid: tuple[int, ...], q: int) -> tuple[Fraction, ...]:
    """Exact weights c with sum_j c_j g_j**n == n! [n == q] for n < len(grid) (a Vandermonde solve in rationals)."""
    n = len(grid)
    # Augmented matrix rows: powers n of the grid points, right-hand side q! at row q.
    rows = [[Fraction(g) ** power for g in grid] + [Fraction(math.factorial(q) if power == q else 0)]
            for power in range(n)]
    for col in range(n):
        pivot = next(r for r in range(col, n) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                ratio = rows[r][col] / rows[col][col]
                rows[r] = [a - ratio * b for a, b in zip(rows[r], rows[col])]
    return tuple(rows[i][n] / rows[i][i] for i in range(n))


@dataclass(frozen=True)
class FiniteDifferenceMethod:
    """A ``len(grid)``-point stencil for the ``q``-th derivative, with an adaptively chosen step.

    Build one with :func:`central_fdm`, :func:`forward_fdm` or :func:`backward_fdm`;
    call it as ``fdm(f, x)``.  See the module docstring for how the step is chosen.
    """

    grid: tuple[int, ...]
    q: int
    adapt: int = 1
    factor: float = 1.0
    max_range: float = math.inf
    step: float | None = None
    kind: str = "custom"
    coefs: tuple[float, ...] = field(init=False, repr=False)
    # First power k the stencil does not differentiate exactly, and |sum c g^k| / k!.
    order: int = field(init=False, repr=False)
    truncation_constant: float = field(init=False, repr=False)

    def __post_init__(self) -> None:
        p = len(self.grid)
        if len(set(self.grid)) != p:
            raise UsageError(f"finite-difference grid {self.grid} has repeated points")
        if not 0 <= self.q < p:
            raise UsageError(f"a {p}-point stencil cannot compute derivative order {self.q}; use more than {self.q} points")
        if self.adapt < 0 or self.factor <= 0 or self.max_range <= 0:
            raise UsageError("finite-difference method: adapt must be >= 0, factor and max_range > 0")
        if self.step is not None and not self.step > 0:
            raise UsageError(f"finite-difference step must be positive, got {self.step}")
        exact = _stencil_weights(self.grid, self.q)
        k = p
        # Symmetric stencils cancel every other power, so the first inexact power may be p + 1.
        while (moment := sum(c * Fraction(g) ** k for c, g in zip(exact, self.grid))) == 0:
            k += 1
        object.__setattr__(self, "coefs", tuple(float(c) for c in exact))
        object.__setattr__(self, "order", k)
        object.__setattr__(self, "truncation_constant", float(abs(moment)) / math.factorial(k))

    # ------------------------------------------------------------------ steps
    def _roughness_method(self) -> FiniteDifferenceMethod:
        """The method that estimates the ``order``-th derivative (one adapt level less)."""
        k = self.order
        if self.kind == "forward":
            return forward_fdm(k + 1, k, adapt=self.adapt - 1, factor=self.factor, max_range=self.max_range)
        if self.kind == "backward":
            return backward_fdm(k + 1, k, adapt=self.adapt - 1, factor=self.factor, max_range=self.max_range)
        return central_fdm(k + 2, k, adapt=self.adapt - 1, factor=self.factor, max_range=self.max_range)

    def estimate_step(self, f: Callable[[float], Any], x: float = 0.0, *, eps: float | None = None) -> tuple[float, float]:
        """``(step, accuracy)``: the step this method would use for ``f`` at ``x`` and the estimated error bound."""
        f0 = np.asarray(f(x))
        eps = _eps_of(f0) if eps is None else eps
        bound = float(np.max(np.abs(f0))) if f0.size else 0.0
        if self.step is not None:
            return self.step, math.nan
        roughness = bound
        if self.adapt >= 1:
            inner = self._roughness_method()
            inner_step, _ = inner.estimate_step(f, x, eps=eps)
            values = [np.asarray(f(x + inner_step * g)) for g in inner.grid]
            bound = max([bound] + [float(np.max(np.abs(v))) if v.size else 0.0 for v in values])
            derivative = sum(c * v for c, v in zip(inner.coefs, values)) / inner_step ** inner.q
            roughness = float(np.max(np.abs(derivative))) if np.size(derivative) else 0.0
            if not math.isfinite(roughness):
                roughness = 0.0
        return self._optimal_step(bound, roughness, eps)

    def _optimal_step(self, bound: float, roughness: float, eps: float) -> tuple[float, float]:
        q, k, trunc = self.q, self.order, self.truncation_constant
        tiny = np.finfo(np.float64).tiny
        bound = max(bound, tiny)
        rounding = self.factor * eps * sum(abs(c) for c in self.coefs) * bound
        if roughness <= tiny:
            # Estimated k-th derivative is zero (f is a low-degree polynomial along this line, or
            # constant): truncation is negligible, so fall back to the unit-scale assumption.
            roughness = bound
        if q == 0:
            step = 1.0  # interpolation: rounding does not grow as h shrinks; any modest step works
        else:
            step = (q * rounding / ((k - q) * trunc * roughness)) ** (1.0 / k)
        step = min(step, self.max_range)
        accuracy = rounding / step ** q + trunc * roughness * step ** (k - q)
        return step, accuracy

    # ------------------------------------------------------------- evaluation
    def __call__(self, f: Callable[[float], Any], x: float = 0.0, *, eps: float | None = None) -> Any:
        """The ``q``-th derivative of ``f`` at ``x`` (a float, or an array shaped like ``f``'s result)."""
        step, _ = self.estimate_step(f, x, eps=eps)
        total: Any = 0.0
        for c, g in zip(self.coefs, self.grid):
            if c != 0.0:
                total = total + c * np.asarray(f(x + step * g), dtype=np.float64)
        result = total / step ** self.q
        return float(result) if np.ndim(result) == 0 else result

    def __repr__(self) -> str:
        if self.kind in ("central", "forward", "backward"):
            return f"{self.kind}_fdm({len(self.grid)}, {self.q}, adapt={self.adapt})"
        return f"FiniteDifferenceMethod(grid={self.grid}, q={self.q}, adapt={self.adapt})"


def _eps_of(value: np.ndarray) -> float:
    if np.issubdtype(value.dtype, np.floating):
        return float(np.finfo(value.dtype).eps)
    return DEFAULT_EPS


def central_fdm(p: int, q: int, *, adapt: int = 1, factor: float = 1.0, max_range: float = math.inf,
                step: float | None = None) -> FiniteDifferenceMethod:
    """A ``p``-point central stencil for the ``q``-th derivative (grid ``-(p-1)/2 .. (p-1)/2``, without 0 if p is even).

    >>> central_fdm(5, 1).coefs
    (0.08333333333333333, -0.6666666666666666, 0.0, 0.6666666666666666, -0.08333333333333333)
    """
    half = p // 2
    grid = tuple(range(-half, half + 1)) if p % 2 else tuple(g for g in range(-half, half + 1) if g != 0)
    return FiniteDifferenceMethod(grid, q, adapt=adapt, factor=factor, max_range=max_range, step=step, kind="central")


def forward_fdm(p: int, q: int, *, adapt: int = 1, factor: float = 1.0, max_range: float = math.inf,
                step: float | None = None) -> FiniteDifferenceMethod:
    """A ``p``-point one-sided stencil on ``0 .. p-1`` (only evaluates ``f`` at ``x`` and above)."""
    return FiniteDifferenceMethod(tuple(range(p)), q, adapt=adapt, factor=factor, max_range=max_range, step=step,
                                  kind="forward")


def backward_fdm(p: int, q: int, *, adapt: int = 1, factor: float = 1.0, max_range: float = math.inf,
                 step: float | None = None) -> FiniteDifferenceMethod:
    """A ``p``-point one-sided stencil on ``-(p-1) .. 0`` (only evaluates ``f`` at ``x`` and below)."""
    return FiniteDifferenceMethod(tuple(range(-(p - 1), 1)), q, adapt=adapt, factor=factor, max_range=max_range,
                                  step=step, kind="backward")

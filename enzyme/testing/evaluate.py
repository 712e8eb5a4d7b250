"""Plain (undifferentiated) calls of the function under test, at the inputs and along lines through them.

Finite differences need ``f`` as a map from numbers to numbers.  A call of a C
function that writes into its array arguments is seen as the map
``inputs -> (return value, contents of every array argument after the call)``;
every evaluation starts from fresh copies of the inputs, so writes never leak
from one evaluation into the next.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .arguments import Argument
from .fdm import FiniteDifferenceMethod

RETURN = "return"


@dataclass
class Outcome:
    """The result of one plain call: the return value and each argument's value after the call."""

    ret: Any
    after: list[Any]


def call_plain(f: Callable[..., Any], values: Sequence[Any]) -> Outcome:
    """Call ``f`` on ``values`` (mutated in place, as the caller passed copies)."""
    values = list(values)
    ret = f(*values)
    return Outcome(ret, values)


def shifted(value: Any, t: float, direction: Any) -> Any:
    """``value + t * direction`` in ``value``'s own type (float32 arrays stay float32)."""
    if isinstance(value, np.ndarray):
        return (value + t * direction).astype(value.dtype, copy=False)
    if isinstance(value, np.floating):
        return type(value)(value + t * direction)
    return float(value + t * direction)


class Line:
    """``t -> outcome of f at (inputs + t * directions)``, memoised on ``t``.

    ``directions[i]`` is None for arguments held fixed.
    """

    def __init__(self, f: Callable[..., Any], arguments: Sequence[Argument], directions: Sequence[Any]) -> None:
        self.f = f
        self.arguments = arguments
        self.directions = directions
        self._memo: dict[float, Outcome] = {}

    def __call__(self, t: float) -> Outcome:
        t = float(t)
        if t not in self._memo:
            values = [a.fresh_value() if d is None else shifted(a.value, t, d)
                      for a, d in zip(self.arguments, self.directions)]
            self._memo[t] = call_plain(self.f, values)
        return self._memo[t]


def eps_of(*values: Any) -> float:
    """The largest machine epsilon among the floating values (float64's when none is floating)."""
    eps = float(np.finfo(np.float64).eps)
    for v in values:
        dtype = v.dtype if isinstance(v, (np.ndarray, np.generic)) else None
        if dtype is not None and np.issubdtype(dtype, np.floating):
            eps = max(eps, float(np.finfo(dtype).eps))
    return eps


def derivative_along(fdm: FiniteDifferenceMethod, line: Line, pick: Callable[[Outcome], Any], eps: float) -> Any:
    """d/dt of ``pick(line(t))`` at 0 by ``fdm`` (float or float64 array)."""
    return fdm(lambda t: np.asarray(pick(line(t)), dtype=np.float64), 0.0, eps=eps)

"""The two functions reverse mode generates for one function and one set of activities."""
from __future__ import annotations

from dataclasses import dataclass

from ..ir import Function
from ..ir.types import Type


@dataclass
class SweepPair:
    augmented: Function
    reverse: Function
    out_types: tuple[Type, ...]
    returns_adjoint: bool  # reverse takes dret
    returns_shadow: bool = False  # augmented returns {primal pointer, shadow pointer}
    dret_type: Type | None = None  # the type of dret (a float for an integer that returns float bits)

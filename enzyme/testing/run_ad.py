"""The differentiated calls of the checkers, through :func:`enzyme.autodiff`, with results unpacked.

Kept in one place so the checkers depend on the API's result conventions
(Enzyme.jl's) only here.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..api.annotations import (
    Annotation,
    BatchDuplicated,
    Const,
    Duplicated,
    Forward,
    ForwardWithPrimal,
    ReverseSplitWithPrimal,
    ReverseWithPrimal,
)


@dataclass
class ForwardResult:
    has_primal: bool
    primal: Any
    # One tangent of the return per batch direction (empty for a Const return).
    tangents: list[Any]


@dataclass
class ReverseResult:
    primal: Any
    # Per argument: its derivative (Active), None otherwise; batch: a sequence of `width` derivatives.
    derivatives: tuple[Any, ...]


def _autodiff() -> Callable[..., Any]:
    from .. import api

    return api.autodiff


def forward_mode_for(ret_activity: type[Annotation]) -> Any:
    """ForwardWithPrimal where the return's primal is wanted, plain Forward for the NoNeed activities."""
    if ret_activity is Const or ret_activity in (Duplicated, BatchDuplicated):
        return ForwardWithPrimal
    return Forward


def run_forward(f: Callable[..., Any], ret_activity: type[Annotation], annotations: Sequence[Annotation],
                width: int) -> ForwardResult:
    """Results as Enzyme.jl: ForwardWithPrimal gives ``(tangent(s), primal)`` (``(primal,)`` for a Const return),
    Forward with a NoNeed return gives ``(tangent(s),)``."""
    mode = forward_mode_for(ret_activity)
    result = _autodiff()(mode, f, ret_activity, *annotations)
    call = f"autodiff({mode}, {getattr(f, 'name', f)}, {ret_activity.__name__}, ...)"
    expected_length = (1 if ret_activity is Const else 2) if mode is ForwardWithPrimal else 1
    if not isinstance(result, tuple) or len(result) != expected_length:
        raise AssertionError(f"{call} should return a tuple of {expected_length}, got {result!r}")
    has_primal = mode is ForwardWithPrimal
    primal = result[-1] if has_primal else None
    tangents: list[Any] = []
    if ret_activity is not Const:
        tangent = result[0]
        tangents = list(tangent) if issubclass(ret_activity, BatchDuplicated) else [tangent]
        if len(tangents) != width:
            raise AssertionError(f"{call} returned {len(tangents)} tangents of the return for a batch of width "
                                 f"{width}: {result!r}")
    return ForwardResult(has_primal, primal, tangents)


def run_reverse(f: Callable[..., Any], ret_activity: type[Annotation],
                annotations: Sequence[Annotation]) -> ReverseResult:
    result = _autodiff()(ReverseWithPrimal, f, ret_activity, *annotations)
    if not isinstance(result, tuple) or len(result) != 2:
        raise AssertionError(f"autodiff(ReverseWithPrimal, ...) should return (derivatives, primal), got {result!r}")
    derivatives, primal = result
    return ReverseResult(primal, tuple(derivatives))


def run_reverse_split(f: Callable[..., Any], ret_activity: type[Annotation], annotations: Sequence[Annotation],
                      dret: float | None) -> ReverseResult:
    """``autodiff_thunk(ReverseSplitWithPrimal, ...)``: the forward sweep, then the reverse sweep seeded with ``dret``."""
    from .. import api

    forward, reverse = api.autodiff_thunk(ReverseSplitWithPrimal, f, ret_activity,
                                          *(type(a) for a in annotations))
    tape, primal, _shadow = forward(*annotations)
    seed = () if dret is None else (dret,)
    result = reverse(*annotations, *seed, tape)
    if not isinstance(result, tuple) or len(result) != 1:
        raise AssertionError(f"the reverse thunk of autodiff_thunk(ReverseSplitWithPrimal, ...) should return "
                             f"(derivatives,), got {result!r}")
    return ReverseResult(primal, tuple(result[0]))

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

    return api.autodiff  # type: ignore[attr-defined, no-any-return]


def forward_mode_for(ret_activity: type[Annotation]) -> Any:
    """ForwardWithPrimal where the return's primal is wanted, plain Forward for the NoNeed activities."""
    if ret_activity is Const or ret_activity in (Duplicated, BatchDuplicated):
        return ForwardWithPrimal
    return Forward


def run_forward(f: Callable[..., Any], ret_activity: type[Annotation], annotations: Sequence[Annotation],
                width: int) -> ForwardResult:
    mode = forward_mode_for(ret_activity)
    result = _autodiff()(mode, f, ret_activity, *annotations)
    items = tuple(result) if isinstance(result, tuple) else (result,)
    has_primal = mode is ForwardWithPrimal
    primal = items[0] if has_primal and items else None
    rest = items[1:] if has_primal else items
    tangents: list[Any] = []
    if ret_activity is not Const:
        if not rest:
            raise AssertionError(f"autodiff({mode}, ..., {ret_activity.__name__}, ...) returned no tangent: {result!r}")
        tangent = rest[0]
        if issubclass(ret_activity, BatchDuplicated):
            tangents = list(tangent)
        else:
            tangents = [tangent]
        if len(tangents) != width:
            raise AssertionError(f"autodiff({mode}, ...) returned {len(tangents)} tangents of the return for a batch "
                                 f"of width {width}: {result!r}")
    return ForwardResult(has_primal, primal, tangents)


def run_reverse(f: Callable[..., Any], ret_activity: type[Annotation],
                annotations: Sequence[Annotation]) -> ReverseResult:
    result = _autodiff()(ReverseWithPrimal, f, ret_activity, *annotations)
    if not isinstance(result, tuple) or len(result) != 2:
        raise AssertionError(f"autodiff(ReverseWithPrimal, ...) should return (derivatives, primal), got {result!r}")
    derivatives, primal = result
    return ReverseResult(primal, tuple(derivatives))

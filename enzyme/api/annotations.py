"""Modes and activity annotations, mirroring Enzyme.jl / EnzymeCore.

Arguments of :func:`enzyme.autodiff` are wrapped in an annotation that says
how they take part in differentiation::

    >>> from enzyme.api.annotations import Active, Duplicated
    >>> import numpy as np
    >>> Active(3.0).val
    3.0
    >>> x = np.array([1.0, 2.0]); dx = np.zeros(2)
    >>> Duplicated(x, dx).dval is dx
    True

The return activity is given as the class itself (``Const``, ``Active``,
``Duplicated``, ...), as in ``autodiff(Reverse, f, Active, Active(a))``.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..errors import UsageError


# ----------------------------------------------------------------------- modes
@dataclass(frozen=True)
class Mode:
    """A differentiation mode. Use the module-level instances (``Forward``, ``Reverse``, ...)."""

    name: str
    reverse: bool
    return_primal: bool
    split: bool = False
    # set_runtime_activity: a Duplicated argument whose shadow is the primal array itself is inactive.
    runtime_activity: bool = False

    def __repr__(self) -> str:
        return f"set_runtime_activity({self.name})" if self.runtime_activity else self.name


Forward = Mode("Forward", reverse=False, return_primal=False)
ForwardWithPrimal = Mode("ForwardWithPrimal", reverse=False, return_primal=True)
Reverse = Mode("Reverse", reverse=True, return_primal=False)
ReverseWithPrimal = Mode("ReverseWithPrimal", reverse=True, return_primal=True)
ReverseSplitNoPrimal = Mode("ReverseSplitNoPrimal", reverse=True, return_primal=False, split=True)
ReverseSplitWithPrimal = Mode("ReverseSplitWithPrimal", reverse=True, return_primal=True, split=True)

MODES = (Forward, ForwardWithPrimal, Reverse, ReverseWithPrimal, ReverseSplitNoPrimal, ReverseSplitWithPrimal)


def set_runtime_activity(mode: Mode, on: bool = True) -> Mode:
    """``mode`` with runtime activity (Enzyme.jl's ``set_runtime_activity``): an argument passed as
    ``Duplicated(x, x)``, its shadow being the primal array itself, is taken as ``Const(x)`` when the call
    runs, instead of being refused.  pyenzyme decides the activity of everything inside the function when it
    builds it and refuses what it cannot decide, so this changes nothing else.

    >>> set_runtime_activity(Reverse)
    set_runtime_activity(Reverse)
    >>> runtime_activity(clear_runtime_activity(set_runtime_activity(Forward)))
    False
    """
    if not isinstance(mode, Mode):
        raise UsageError(f"set_runtime_activity takes a mode (enzyme.Forward, enzyme.Reverse, ...), not {mode!r}")
    return replace(mode, runtime_activity=bool(on))


def clear_runtime_activity(mode: Mode) -> Mode:
    """``mode`` without runtime activity."""
    return set_runtime_activity(mode, False)


def runtime_activity(mode: Mode) -> bool:
    """Whether ``mode`` has runtime activity on."""
    if not isinstance(mode, Mode):
        raise UsageError(f"runtime_activity takes a mode (enzyme.Forward, enzyme.Reverse, ...), not {mode!r}")
    return mode.runtime_activity


# ----------------------------------------------------------------- annotations
class Annotation:
    """Base of all argument annotations; ``val`` is the primal value."""

    __slots__ = ("val",)

    def __init__(self, val: Any) -> None:
        self.val = val

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.val!r})"


class Const(Annotation):
    """An argument that is not differentiated (plain, unannotated arguments are ``Const`` too)."""

    __slots__ = ()


class Active(Annotation):
    """A scalar argument whose derivative is returned (reverse mode only)."""

    __slots__ = ()


class Duplicated(Annotation):
    """An argument with a shadow of the same shape and dtype.

    Reverse mode adds the derivative into ``dval``; forward mode reads the
    tangent (direction) from ``dval``.
    """

    __slots__ = ("dval",)

    def __init__(self, val: Any, dval: Any) -> None:
        super().__init__(val)
        self.dval = dval

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.val!r}, {self.dval!r})"


class DuplicatedNoNeed(Duplicated):
    """Like :class:`Duplicated`, but the primal result need not be computed or kept."""

    __slots__ = ()


class BatchDuplicated(Annotation):
    """Like :class:`Duplicated` with several shadows, computed in one call."""

    __slots__ = ("dvals",)

    def __init__(self, val: Any, dvals: tuple[Any, ...] | list[Any]) -> None:
        super().__init__(val)
        if not isinstance(dvals, (tuple, list)) or not dvals:
            raise UsageError(f"{type(self).__name__} needs a non-empty tuple of shadows, got {type(dvals).__name__}")
        self.dvals = tuple(dvals)

    @property
    def width(self) -> int:
        return len(self.dvals)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.val!r}, {self.dvals!r})"


class BatchDuplicatedNoNeed(BatchDuplicated):
    """Like :class:`BatchDuplicated`, but the primal result need not be computed or kept."""

    __slots__ = ()


ANNOTATIONS = (Const, Active, Duplicated, DuplicatedNoNeed, BatchDuplicated, BatchDuplicatedNoNeed)


def annotate(arg: Any) -> Annotation:
    """An annotation for ``arg``: itself if it already is one, else ``Const(arg)``."""
    if isinstance(arg, Annotation):
        return arg
    if isinstance(arg, type) and issubclass(arg, Annotation):
        raise UsageError(f"argument {arg.__name__} is an annotation class; wrap a value, e.g. {arg.__name__}(x)")
    return Const(arg)

"""``gradcheck``: one call that runs ``test_forward`` and ``test_reverse`` with matching activities.

Activities are written once, in either mode's spelling, and translated per mode:

=====================  ==========================  ==============================
given                  forward mode                reverse mode
=====================  ==========================  ==============================
return ``Active``      ``Duplicated``              ``Active``
return ``Duplicated``  ``Duplicated``              ``Active``
scalar ``Active``      ``Duplicated`` (random ẋ)   ``Active``
scalar ``Duplicated``  ``Duplicated``              ``Active``
array ``Duplicated``   ``Duplicated`` (tangent)    ``Duplicated`` (seed)
``Const`` / plain      ``Const``                   ``Const``
=====================  ==========================  ==============================

Batch activities keep their batch form for arrays (``BatchDuplicated`` return
becomes ``Active`` in reverse mode).

>>> from enzyme.api.annotations import Active
>>> from enzyme.testing.gradcheck import for_mode
>>> for_mode("forward", Active, [Active(1.5), 2])
(<class 'enzyme.api.annotations.Duplicated'>, [(1.5, <class 'enzyme.api.annotations.Duplicated'>), 2])
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from ..api.annotations import (
    Active,
    Annotation,
    BatchDuplicated,
    BatchDuplicatedNoNeed,
    Const,
    Duplicated,
    DuplicatedNoNeed,
)
from ..errors import UsageError
from .arguments import function_name
from .compare import Report
from .fdm import FiniteDifferenceMethod
from .forward import DEFAULT_FDM, test_forward
from .reverse import test_reverse

MODES = ("forward", "reverse")


def _is_scalar(value: Any) -> bool:
    return not isinstance(value, np.ndarray)


def _forward_return(ret: type[Annotation]) -> type[Annotation]:
    return Duplicated if ret is Active else ret


def _reverse_return(ret: type[Annotation]) -> type[Annotation]:
    if ret in (Duplicated, DuplicatedNoNeed, BatchDuplicated, BatchDuplicatedNoNeed):
        return Active
    return ret


def _translate(mode: str, arg: Any) -> Any:
    if isinstance(arg, Annotation):
        value, activity, instance = arg.val, type(arg), arg
    elif isinstance(arg, tuple) and len(arg) == 2 and isinstance(arg[1], type) and issubclass(arg[1], Annotation):
        value, activity, instance = arg[0], arg[1], None
    else:
        return arg
    if activity is Const:
        return arg
    scalar = _is_scalar(value)
    if mode == "forward" and activity is Active:
        return (value, Duplicated)
    if mode == "reverse" and scalar and issubclass(activity, (Duplicated, BatchDuplicated)):
        return (value, Active)
    return instance if instance is not None else (value, activity)


def for_mode(mode: str, ret_activity: type[Annotation], args: Sequence[Any]) -> tuple[type[Annotation], list[Any]]:
    """``(return activity, arguments)`` of a gradcheck call translated for ``mode`` ("forward"/"reverse")."""
    if mode not in MODES:
        raise UsageError(f"gradcheck: unknown mode {mode!r}; use one of {MODES}")
    ret = _forward_return(ret_activity) if mode == "forward" else _reverse_return(ret_activity)
    return ret, [_translate(mode, a) for a in args]


def gradcheck(f: Callable[..., Any], ret_activity: type[Annotation], *args: Any,
              modes: Iterable[str] = MODES, rtol: float = 1e-9, atol: float = 1e-9,
              fdm: FiniteDifferenceMethod = DEFAULT_FDM, rng: np.random.Generator | int | None = None,
              testset_name: str | None = None, split: bool = False, raise_exception: bool = True) -> Report:
    """Run :func:`test_forward` and :func:`test_reverse` (or the ``modes`` named) on ``f``.

    ``split=True`` runs reverse mode through the split-mode thunks.  Both modes draw their random directions from the same seed, so a failure
    reproduces.  AssertionError names the mode, the argument and the numbers; with
    ``raise_exception=False`` the report of both modes is returned instead (true when all passed).

    >>> import enzyme
    >>> from enzyme import Active
    >>> lib = enzyme.compile("define double @mul(double %x, double %y) {\\n"
    ...                      "  %r = fmul double %x, %y\\n  ret double %r\\n}\\n")
    >>> gradcheck(lib.mul, Active, Active(1.5), 2.0)          # x active, y constant, both modes
    <Report gradcheck(mul, Active, ...): all 4 checks passed>
    """
    __tracebackhide__ = True
    modes = tuple(modes)
    seed = rng if rng is None or isinstance(rng, (int, np.integer)) else int(rng.integers(2**32))
    where = f"[{testset_name}] " if testset_name else ""
    combined = Report(f"{where}gradcheck({function_name(f)}, {ret_activity.__name__}, ...)", rtol, atol)
    for mode in modes:
        ret, translated = for_mode(mode, ret_activity, args)
        if mode == "forward":
            report = test_forward(f, ret, *translated, rtol=rtol, atol=atol, fdm=fdm, rng=seed,
                                  testset_name=testset_name, raise_exception=raise_exception)
        else:
            report = test_reverse(f, ret, *translated, rtol=rtol, atol=atol, fdm=fdm, rng=seed,
                                  testset_name=testset_name, split=split, raise_exception=raise_exception)
        combined.merge(report)
    return combined


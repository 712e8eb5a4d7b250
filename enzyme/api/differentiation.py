"""``autodiff`` and ``autodiff_thunk``, with Enzyme.jl's argument and result conventions.

>>> import numpy as np, enzyme
>>> lib = enzyme.compile("define double @sq(double %x) {\\n  %y = fmul double %x, %x\\n  ret double %y\\n}\\n")
>>> enzyme.autodiff(enzyme.Reverse, lib.sq, enzyme.Active, enzyme.Active(3.0))
((6.0,),)
>>> enzyme.autodiff(enzyme.Forward, lib.sq, enzyme.Duplicated, enzyme.Duplicated(3.0, 1.0))
(9.0, 6.0)
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..ad.modes import Activity
from ..errors import UsageError
from .annotations import (
    Active,
    Annotation,
    BatchDuplicated,
    BatchDuplicatedNoNeed,
    Const,
    Duplicated,
    DuplicatedNoNeed,
    Mode,
    annotate,
)
from .errors import ArgumentTypeError, ArgumentValueError
from .library import CFunction
from .plans import Plan, Request
from .signature import Param, array_address, check_array, check_scalar

_RET_CLASSES = (Const, Active, Duplicated, DuplicatedNoNeed, BatchDuplicated, BatchDuplicatedNoNeed)


def as_cfunction(f: Any, who: str) -> CFunction:
    if not isinstance(f, CFunction):
        raise ArgumentTypeError(f"{who}: f must be a function of a compiled library (lib = enzyme.compile(...); "
                                f"lib.f), not {type(f).__name__}")
    return f


def check_mode(mode: Any, who: str) -> Mode:
    if not isinstance(mode, Mode):
        raise ArgumentTypeError(f"{who}: the first argument must be a mode (enzyme.Forward, enzyme.Reverse, ...), "
                                f"not {mode!r}")
    return mode


def _ret_class(ret: Any, who: str) -> type:
    if isinstance(ret, Annotation):
        raise ArgumentTypeError(f"{who}: the return activity is a class (e.g. enzyme.Active), not an instance {ret!r}")
    if not (isinstance(ret, type) and issubclass(ret, _RET_CLASSES)):
        raise ArgumentTypeError(f"{who}: the return activity must be one of Const, Active, Duplicated, "
                                f"DuplicatedNoNeed, BatchDuplicated, BatchDuplicatedNoNeed; got {ret!r}")
    return ret


def batch_width(anns: list[Annotation], fn: CFunction) -> int:
    """The common number of shadows of the BatchDuplicated arguments (1 without any)."""
    widths = {a.width for a in anns if isinstance(a, BatchDuplicated)}
    if len(widths) > 1:
        raise ArgumentValueError(f"{fn.name}: BatchDuplicated arguments have different numbers of shadows "
                                 f"{sorted(widths)}; all batch sizes must be the same")
    if widths and any(type(a) in (Duplicated, DuplicatedNoNeed) for a in anns):
        raise ArgumentTypeError(f"{fn.name}: Duplicated and BatchDuplicated arguments cannot be mixed; use "
                                "BatchDuplicated(x, (dx,) * width) for every duplicated argument")
    return widths.pop() if widths else 1


def _activity(p: Param, ann: Annotation, reverse: bool, fn: CFunction) -> Activity:
    where = p.describe(fn.name)
    if isinstance(ann, Const):
        return Activity.CONST
    if isinstance(ann, Active):
        if not reverse:
            raise UsageError(f"{where}: Active is not allowed in forward mode; pass Duplicated(x, dx) with the "
                             "tangent dx")
        if p.kind == "pointer":
            raise UsageError(f"{where}: Active is for scalars; pass an array as Duplicated(x, dx) (dx receives the "
                             "gradient)")
        if p.kind != "float":
            raise UsageError(f"{where}: an integer parameter cannot be Active (its derivative is zero); pass it as "
                             "Const")
        return Activity.ACTIVE
    if isinstance(ann, (Duplicated, BatchDuplicated)):
        if p.kind == "int":
            raise UsageError(f"{where}: an integer parameter cannot be {type(ann).__name__}; pass it as Const")
        if p.kind == "float":
            if reverse:
                raise UsageError(f"{where}: a scalar is passed by value, so reverse mode cannot add into a shadow; "
                                 f"use Active(x) instead of {type(ann).__name__}")
            return Activity.DUP
        return Activity.DUPNONEED if isinstance(ann, (DuplicatedNoNeed, BatchDuplicatedNoNeed)) else Activity.DUP
    raise ArgumentTypeError(f"{where}: unknown annotation {type(ann).__name__}")


def _shadows(ann: Annotation) -> tuple[Any, ...]:
    if isinstance(ann, BatchDuplicated):
        return ann.dvals
    if isinstance(ann, Duplicated):
        return (ann.dval,)
    return ()


def packer(fn: CFunction, acts: tuple[Activity, ...]) -> Callable[[Sequence[Any]], list[Any]]:
    """A function from the arguments (annotations or plain values) to the flat block inputs of a plan.

    Built once per request; it checks every value (dtype, contiguity, shadow
    shape) on each call, but decides everything else up front.
    """
    steps = [(p, p.kind == "pointer", a.has_shadow) for p, a in zip(fn.signature.params, acts)]
    name = fn.name

    def pack(args: Sequence[Any]) -> list[Any]:
        values: list[Any] = []
        for (p, is_pointer, dup), a in zip(steps, args):
            v = a.val if isinstance(a, Annotation) else a
            if is_pointer:
                x = check_array(p, v, name)
                address = array_address(x)
                values.append(address)
                if dup:
                    for k, dx in enumerate(_shadows(a)):
                        values.append(_shadow_address(p, x, address, dx, k, a, name))
            else:
                values.append(check_scalar(p, v, name))
                if dup:
                    values += [check_scalar(p, dx, name, "tangent of ") for dx in _shadows(a)]
        return values

    return pack


def _shadow_address(p: Param, x: np.ndarray, address: int, dx: Any, k: int, ann: Any, name: str) -> int:
    what = f"shadow {k + 1} of " if isinstance(ann, BatchDuplicated) else "shadow of "
    d = check_array(p, dx, name, what, shadow=True)
    if d.shape != x.shape or d.dtype != x.dtype:
        raise ArgumentValueError(f"{what}{p.describe(name)} has shape {d.shape} and dtype {d.dtype} but the value "
                                 f"has shape {x.shape} and dtype {x.dtype}; use enzyme.make_zero(x)")
    shadow = array_address(d)
    if x.size and shadow < address + x.nbytes and address < shadow + d.nbytes:
        raise ArgumentValueError(f"{what}{p.describe(name)} shares memory with the value; the shadow must be a "
                                 "separate array")
    return shadow


def pack(fn: CFunction, anns: Sequence[Any], acts: tuple[Activity, ...]) -> list[Any]:
    """Flat input values (primals, then each argument's shadows) for a plan's block."""
    return packer(fn, acts)(anns)


def _plan(fn: CFunction, *requests: Request) -> Plan:
    plan = fn.plans.get(requests)
    if plan is None:
        fn.library.check_resolved(fn.name)
        plan = fn.plans[requests] = Plan(fn.signature, requests, fn.library)
    return plan


def autodiff(mode: Mode, f: CFunction, ret_activity: type, *args: Any) -> tuple[Any, ...]:
    """Differentiate ``f`` at ``args`` in ``mode``, as ``Enzyme.autodiff``.

    Each argument is an annotation (``Const(x)``, ``Active(x)``,
    ``Duplicated(x, dx)``, ``DuplicatedNoNeed``, ``BatchDuplicated(x, (dx1, ...))``,
    ``BatchDuplicatedNoNeed``) or a plain value (``Const``).

    Results (as Enzyme.jl):

    * ``Reverse``: ``(derivs,)``, ``derivs`` a tuple with the derivative of each
      ``Active`` argument and ``None`` for the others; ``Duplicated`` shadows
      are accumulated (``+=``).  ``ReverseWithPrimal``: ``(derivs, primal)``.
      With ``BatchDuplicated`` arguments (batch reverse, one call for all
      directions): an ``Active`` result is seeded with 1 in every direction,
      shadow ``k`` of each argument accumulates direction ``k``'s gradient,
      and each ``Active`` argument's derivative is a tuple of ``width`` values.
    * ``Forward``: return ``Duplicated`` -> ``(primal, tangent)``;
      ``DuplicatedNoNeed`` -> ``(tangent,)``; ``BatchDuplicated`` ->
      ``(primal, (tangent_1, ..., tangent_w))``; ``BatchDuplicatedNoNeed`` ->
      ``((tangent_1, ...),)``; ``Const`` -> ``()``.  Tangents of array
      outputs are written into their shadows.
    * ``ForwardWithPrimal``: derivative first, then the primal:
      ``(tangent, primal)``, ``((tangents...), primal)``, or ``(primal,)`` for ``Const``.

    >>> import enzyme
    >>> lib = enzyme.compile("define double @sq(double %x) {\\n  %y = fmul double %x, %x\\n  ret double %y\\n}\\n")
    >>> enzyme.autodiff(enzyme.ReverseWithPrimal, lib.sq, enzyme.Active, enzyme.Active(3.0))
    ((6.0,), 9.0)
    >>> enzyme.autodiff(enzyme.Forward, lib.sq, enzyme.DuplicatedNoNeed, enzyme.Duplicated(3.14, 1.0))
    (6.28,)
    """
    if mode.runtime_activity if isinstance(mode, Mode) else False:
        args = runtime_inactive(args)
    # Fast path: a call with the same mode, return activity and argument types as an earlier one.
    try:
        known_mode, call = f.fast_calls[(id(mode), ret_activity) + tuple(map(type, args))]
    except (AttributeError, KeyError, TypeError):
        return _autodiff(mode, f, ret_activity, args)
    if known_mode is not mode:
        return _autodiff(mode, f, ret_activity, args)
    return call(args)


def runtime_inactive(args: tuple[Any, ...]) -> tuple[Any, ...]:
    """Runtime activity: ``Duplicated(x, x)`` (the shadow is the primal array itself) becomes ``Const(x)``."""
    def same(a: Any) -> bool:
        x, dx = a.val, a.dval
        return isinstance(x, np.ndarray) and isinstance(dx, np.ndarray) and x.nbytes == dx.nbytes and (
            x.__array_interface__["data"][0] == dx.__array_interface__["data"][0])
    return tuple(Const(a.val) if type(a) in (Duplicated, DuplicatedNoNeed) and same(a) else a for a in args)


def _autodiff(mode: Mode, f: Any, ret_activity: Any, args: tuple[Any, ...]) -> tuple[Any, ...]:
    who = "autodiff"
    mode = check_mode(mode, who)
    fn = as_cfunction(f, who)
    ret = _ret_class(ret_activity, who)
    if mode.split:
        raise UsageError(f"{who}: {mode} is a split mode; use enzyme.autodiff_thunk({mode}, ...)")
    anns = [annotate(a) for a in args]
    fn.check_count(len(anns), "annotated arguments")
    width = batch_width(anns, fn)
    acts = tuple(_activity(p, a, mode.reverse, fn) for p, a in zip(fn.signature.params, anns))
    batched = any(isinstance(a, BatchDuplicated) for a in anns)
    if mode.reverse:
        call = _reverse_call(mode, fn, ret, acts, width, batched)
    else:
        call = _forward_call(mode, fn, ret, acts, width)
    result = call(args)
    if not batched:  # a batch call's request also depends on the number of shadows
        fn.fast_calls[(id(mode), ret_activity) + tuple(map(type, args))] = (mode, call)
    return result


def _reverse_call(mode: Mode, fn: CFunction, ret: type, acts: tuple[Activity, ...], width: int = 1,
                  batched: bool = False) -> Callable[[Sequence[Any]], Any]:
    """Batch reverse (``batched``: BatchDuplicated arguments) runs ``width`` directions in one call: an Active
    result is seeded with 1 in each, every shadow receives its own direction's gradient, and each Active
    argument's derivative is a tuple of ``width`` values (as Enzyme.jl's NTuple)."""
    sig = fn.signature
    ret_act = _reverse_ret(ret, fn)
    with_primal = mode.return_primal and sig.ret_kind != "void"
    plan = _plan(fn, Request("reverse", acts, width, ret_act, with_primal))
    pack = packer(fn, acts)
    names = [f"d{i}" if a is Activity.ACTIVE else None for i, a in enumerate(acts)]

    def deriv(block: Any, name: str) -> Any:
        v = getattr(block, name)
        if width > 1:
            return tuple(v)
        return (v,) if batched else v

    def call(args: Sequence[Any]) -> tuple[Any, ...]:
        block = plan.run(pack(args))
        derivs = tuple(deriv(block, n) if n else None for n in names)
        if mode.return_primal:
            return derivs, (block.ret if with_primal else None)
        return (derivs,)

    return call


def _forward_call(mode: Mode, fn: CFunction, ret: type, acts: tuple[Activity, ...],
                  width: int) -> Callable[[Sequence[Any]], Any]:
    ret_act, batch_ret, need_primal = _forward_ret(ret, fn, width, mode)
    plan = _plan(fn, Request("forward", acts, width, ret_act, need_primal))
    pack = packer(fn, acts)
    shadow_names = [f"rets{k}" for k in range(width)]

    def call(args: Sequence[Any]) -> tuple[Any, ...]:
        block = plan.run(pack(args))
        primal = block.ret if need_primal else None
        if ret_act == "dup":
            tangents = tuple(getattr(block, n) for n in shadow_names)
            tangent: Any = tangents if batch_ret else tangents[0]
            if mode.return_primal:
                return (tangent, primal)
            return (primal, tangent) if need_primal else (tangent,)
        return (primal,) if mode.return_primal else ()

    return call


def _reverse_ret(ret: type, fn: CFunction) -> str:
    if ret is Const:
        return "const"
    if ret is Active:
        if fn.signature.ret_kind != "float":
            raise UsageError(f"{fn.name} returns {fn.signature.ret_ir_type}, which cannot be Active; use Const "
                             "(an array output is differentiated through a Duplicated argument)")
        return "active"
    raise UsageError(f"in reverse mode the return activity must be Active or Const, not {ret.__name__}")


def _forward_ret(ret: type, fn: CFunction, width: int, mode: Mode) -> tuple[str, bool, bool]:
    """(ret activity, batched result?, primal needed?)."""
    sig = fn.signature
    if ret is Active:
        raise UsageError("Active is not allowed as the return activity in forward mode; use Duplicated, "
                         "DuplicatedNoNeed or Const")
    if ret is Const:
        return "const", False, mode.return_primal and sig.ret_kind != "void"
    if sig.ret_kind != "float":
        raise UsageError(f"{fn.name} returns {sig.ret_ir_type}, which has no tangent; use Const as the return "
                         f"activity (array outputs get their tangents in their Duplicated shadows)")
    batch = issubclass(ret, BatchDuplicated)
    if batch != (width > 1) and not (batch and width == 1):
        raise UsageError(f"the return activity {ret.__name__} does not match the arguments: with BatchDuplicated "
                         "arguments use BatchDuplicated or BatchDuplicatedNoNeed as the return activity")
    no_need = ret in (DuplicatedNoNeed, BatchDuplicatedNoNeed)
    return "dup", batch, mode.return_primal or not no_need

"""``autodiff_thunk``: derivative callables for fixed activities; split reverse mode with a tape.

>>> import numpy as np, enzyme
>>> lib = enzyme.compile('''
... define double @f(ptr %A, double %v) {
...   %a = load double, ptr %A
...   %res = fmul double %a, %v
...   store double 0.0, ptr %A
...   ret double %res
... }
... ''')
>>> A = np.array([2.2]); dA = enzyme.make_zero(A); v = 3.3
>>> forward, reverse = enzyme.autodiff_thunk(enzyme.ReverseSplitWithPrimal, lib.f, enzyme.Active,
...                                          enzyme.Duplicated, enzyme.Active)
>>> tape, result, shadow_result = forward(enzyme.Duplicated(A, dA), enzyme.Active(v))
>>> _, dv = reverse(enzyme.Duplicated(A, dA), enzyme.Active(v), 1.0, tape)[0]
>>> round(result, 12), dv, dA
(7.26, 2.2, array([3.3]))
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..ad.modes import Activity
from ..errors import UsageError
from .annotations import (
    Active,
    Annotation,
    BatchDuplicated,
    Duplicated,
    Mode,
    annotate,
)
from .differentiation import _activity, _plan, _ret_class, _reverse_ret, as_cfunction, autodiff, check_mode, pack
from .errors import ArgumentTypeError
from .library import CFunction
from .plans import Request
from .signature import check_scalar


@dataclass(eq=False)
class Tape:
    """What the forward half of a split derivative saved for its reverse half; use it once."""

    address: int
    owner: object
    used: bool = field(default=False)

    def __repr__(self) -> str:
        state = "used" if self.used else "pending"
        return f"<enzyme.Tape 0x{self.address:x} ({state})>"


def _check_types(anns: list[Annotation], types: tuple[type, ...], fn: CFunction, who: str) -> None:
    fn.check_count(len(anns), "annotated arguments")
    for i, (a, t) in enumerate(zip(anns, types)):
        if type(a) is not t:
            raise ArgumentTypeError(f"{who}: argument {i + 1} of {fn.name} must be {t.__name__}(...) as declared "
                                    f"by autodiff_thunk, got {type(a).__name__}")


def autodiff_thunk(mode: Mode, f: Any, ret_activity: type, *arg_activity_types: type) -> Any:
    """Derivative callables of ``f`` for fixed activities, as Enzyme.jl's ``autodiff_thunk``.

    * ``ReverseSplitWithPrimal`` / ``ReverseSplitNoPrimal``: returns
      ``(forward, reverse)``.  ``forward(*args)`` runs the augmented forward
      sweep and returns ``(tape, primal, shadow)`` (``primal`` is None for
      NoPrimal, ``shadow`` None: results are scalars).  ``reverse(*args,
      [dret,] tape)`` takes the same arguments, the adjoint of the result if
      the return activity is ``Active``, and the tape; it returns
      ``(derivs,)`` like ``autodiff(Reverse, ...)`` and accumulates into the
      ``Duplicated`` shadows.  Memory may change between the two calls; each
      tape is consumed by one ``reverse`` call (an unused tape's memory is
      not freed).
    * ``Forward`` / ``ForwardWithPrimal``: returns one callable
      ``forward(*args)`` with the results of :func:`autodiff`.
    """
    who = "autodiff_thunk"
    mode = check_mode(mode, who)
    fn = as_cfunction(f, who)
    ret = _ret_class(ret_activity, who)
    types = tuple(arg_activity_types)
    for t in types:
        if not (isinstance(t, type) and issubclass(t, Annotation)):
            raise ArgumentTypeError(f"{who}: argument activities are annotation classes (Const, Active, Duplicated, "
                                    f"...), not {t!r}")
    fn.check_count(len(types), "argument activity types")
    if not mode.split:
        def forward_thunk(*args: Any) -> tuple[Any, ...]:
            anns = [annotate(a) for a in args]
            _check_types(anns, types, fn, "forward")
            return autodiff(mode, fn, ret, *anns)
        return forward_thunk
    return _split(mode, fn, ret, types)


def _split(mode: Mode, fn: CFunction, ret: type, types: tuple[type, ...]) -> tuple[Callable[..., Any], ...]:
    if any(issubclass(t, BatchDuplicated) for t in types):
        raise UsageError("autodiff_thunk: BatchDuplicated in split reverse mode is not supported yet")
    sig = fn.signature
    ret_act = _reverse_ret(ret, fn)
    # Activities from the declared types: a representative value of each kind suffices for the checks.
    probes: list[Annotation] = []
    for p, t in zip(sig.params, types):
        probe: Any = t(None, None) if issubclass(t, Duplicated) else t(None)  # type: ignore[call-arg]
        probes.append(probe)
    acts = tuple(_activity(p, a, True, fn) for p, a in zip(sig.params, probes))
    augment = Request("augment", acts, 1, ret_act, True)
    backward = Request("split_reverse", acts, 1, ret_act, False)
    takes_dret = ret is Active
    owner = object()  # tapes are only valid for this thunk's reverse

    def plan() -> Any:
        return _plan(fn, augment, backward)

    def forward(*args: Any) -> tuple[Any, Any, Any]:
        anns = [annotate(a) for a in args]
        _check_types(anns, types, fn, "forward")
        block = plan().run(pack(fn, anns, acts), 0)
        primal = block.ret if mode.return_primal and sig.ret_kind != "void" else None
        return Tape(block.tape or 0, owner), primal, None

    def reverse(*args: Any) -> tuple[tuple[Any, ...]]:
        extra = 2 if takes_dret else 1
        if len(args) != len(types) + extra:
            what = "the arguments, the result's adjoint and the tape" if takes_dret else "the arguments and the tape"
            raise ArgumentTypeError(f"reverse of {fn.name} takes {what} ({len(types) + extra} values), got "
                                    f"{len(args)}")
        tape = args[-1]
        if not isinstance(tape, Tape) or tape.owner is not owner:
            raise ArgumentTypeError(f"reverse of {fn.name}: the last argument must be the tape returned by this "
                                    "thunk's forward")
        if tape.used:
            raise UsageError(f"reverse of {fn.name}: this tape was already used (each forward call's tape is "
                             "consumed by one reverse call)")
        anns = [annotate(a) for a in args[: len(types)]]
        _check_types(anns, types, fn, "reverse")
        inputs = pack(fn, anns, acts)
        if sig.ret_kind == "float":
            if takes_dret:
                from .signature import Param
                inputs.append(check_scalar(Param(len(types), "float", sig.ret_ir_type, sig.ret_ctype), args[-2],
                                           fn.name, "the result's adjoint, "))
            else:
                inputs.append(0.0)
        inputs.append(tape.address)
        tape.used = True
        block = plan().run(inputs, 1)
        return (tuple(getattr(block, f"d{i}") if a is Activity.ACTIVE else None for i, a in enumerate(acts)),)

    return forward, reverse


__all__ = ["Tape", "autodiff_thunk"]

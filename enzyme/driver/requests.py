"""Find ``__enzyme_autodiff`` / ``__enzyme_fwddiff`` calls and decode their arguments.

Argument conventions follow upstream Enzyme's C ABI: the first argument is
the function to differentiate; each primal argument may be preceded by a
marker global (``enzyme_dup``, ``enzyme_dupnoneed``, ``enzyme_const``,
``enzyme_out``); dup/dupnoneed arguments are followed by their shadow.
Without a marker, integers are const, floating-point values are ``out`` in
reverse mode and ``dup`` (value, tangent) in forward mode, pointers are dup.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import DifferentiationError, UsageError
from ..ir import CallInst, Function, GlobalVariable, LoadInst, Module, Value
from ..ir.types import FloatType, PointerType, VectorType

MARKERS = {"enzyme_dup": "dup", "enzyme_dupnoneed": "dupnoneed", "enzyme_const": "const", "enzyme_out": "out"}
UNSUPPORTED_MARKERS = frozenset({
    "enzyme_width", "enzyme_vector", "enzyme_scalar", "enzyme_allocated", "enzyme_tape", "enzyme_primal_return",
    "enzyme_nofree", "enzyme_runtime_activity", "enzyme_noret", "enzyme_shadow_return", "enzyme_dupv",
    "enzyme_dupnoneedv", "enzyme_interleave"})


@dataclass
class Arg:
    """One primal argument of a request and its activity."""

    activity: str            # const | dup | dupnoneed | out
    value: Value
    shadow: Value | None = None


@dataclass
class Request:
    call: CallInst
    mode: str                # forward | reverse
    function: Function
    args: list[Arg]
    sret: Value | None = None  # where a struct result goes when the ABI returns it through memory

    @property
    def activities(self) -> tuple[str, ...]:
        return tuple(a.activity for a in self.args)


def where(call: CallInst) -> str:
    """``in @caller (file.c:12)`` for error messages."""
    from ..ir.debugloc import source_location
    f = call.function
    loc = source_location(call)
    return f"in @{f.name if f else '?'}" + (f" ({loc})" if loc else "")


def _marker(v: Value) -> str | None:
    g = v.pointer if isinstance(v, LoadInst) else v
    if isinstance(g, GlobalVariable) and g.name is not None:
        if g.name in MARKERS:
            return g.name
        if g.name in UNSUPPORTED_MARKERS:
            return g.name
    return None


def _is_float(t: object) -> bool:
    return isinstance(t, FloatType) or (isinstance(t, VectorType) and isinstance(t.element, FloatType))


def find_requests(module: Module) -> list[Request]:
    out = []
    for f in module.functions:
        for inst in f.instructions():
            if not isinstance(inst, CallInst):
                continue
            name = inst.callee_name or ""
            if "__enzyme_autodiff" in name:
                out.append(decode(inst, "reverse"))
            elif "__enzyme_fwddiff" in name:
                out.append(decode(inst, "forward"))
            elif name.startswith("__enzyme_") and any(k in name for k in (
                    "__enzyme_augmentfwd", "__enzyme_reverse", "__enzyme_batch", "__enzyme_fwdsplit")):
                raise DifferentiationError(
                    f"{name} {where(inst)}: split and batch modes are not supported yet; "
                    "use __enzyme_autodiff or __enzyme_fwddiff")
    return out


def decode(call: CallInst, mode: str) -> Request:
    args = call.args
    sret = None
    if args and "sret" in call.arg_attrs[0]:
        # A struct result too big for registers: the ABI passes a pointer to it first.
        sret, args = args[0], args[1:]
    if not args:
        raise UsageError(f"{call.callee_name} {where(call)}: missing the function to differentiate")
    fn = args[0]
    if not isinstance(fn, Function):
        raise UsageError(f"{call.callee_name} {where(call)}: the first argument must be a function known at "
                         "compile time (got a computed pointer)")
    if fn.is_declaration:
        raise DifferentiationError(f"{call.callee_name} {where(call)}: @{fn.name} has no body in this module; "
                                   "compile and link its source together with the caller")
    params = fn.function_type.params
    decoded: list[Arg] = []
    i = 1
    for k, pt in enumerate(params):
        if i >= len(args):
            raise UsageError(f"{call.callee_name} {where(call)}: @{fn.name} takes {len(params)} arguments "
                             f"but only {len(decoded)} were given")
        mark = _marker(args[i])
        activity: str
        if mark is not None:
            if mark in UNSUPPORTED_MARKERS:
                raise DifferentiationError(f"{call.callee_name} {where(call)}: marker {mark} is not supported yet")
            activity = MARKERS[mark]
            i += 1
            if i >= len(args):
                raise UsageError(f"{call.callee_name} {where(call)}: {mark} is not followed by an argument")
        else:
            if isinstance(pt, PointerType):
                activity = "dup"
            elif _is_float(pt):
                activity = "out" if mode == "reverse" else "dup"
            else:
                activity = "const"
        v = args[i]
        i += 1
        if v.type != pt:
            raise UsageError(f"{call.callee_name} {where(call)}: argument {k + 1} of @{fn.name} has type {pt} "
                             f"but {v.type} was passed")
        shadow = None
        if activity in ("dup", "dupnoneed"):
            if mode == "reverse" and not isinstance(pt, PointerType):
                raise UsageError(f"{call.callee_name} {where(call)}: argument {k + 1} of @{fn.name} is a {pt} "
                                 "value; in reverse mode pass it as enzyme_out (or enzyme_const), not enzyme_dup")
            if i >= len(args):
                raise UsageError(f"{call.callee_name} {where(call)}: argument {k + 1} of @{fn.name} is "
                                 f"{activity} but has no shadow after it")
            shadow = args[i]
            i += 1
            if shadow.type != pt:
                raise UsageError(f"{call.callee_name} {where(call)}: the shadow of argument {k + 1} of @{fn.name} "
                                 f"has type {shadow.type}, expected {pt}")
        elif activity == "out":
            if mode == "forward":
                raise UsageError(f"{call.callee_name} {where(call)}: enzyme_out is a reverse-mode marker; in "
                                 "forward mode pass the value and its tangent (enzyme_dup)")
            if not _is_float(pt):
                raise UsageError(f"{call.callee_name} {where(call)}: argument {k + 1} of @{fn.name} is a {pt}; "
                                 "only floating-point values can be enzyme_out")
        decoded.append(Arg(activity, v, shadow))
    if i != len(args):
        raise UsageError(f"{call.callee_name} {where(call)}: @{fn.name} takes {len(params)} arguments but "
                         f"{len(args) - i} more were given")
    return Request(call, mode, fn, decoded, sret)

"""``__enzyme_batch``: the primal function run on W lanes at once.

``__enzyme_batch(f, enzyme_width, W, args...)``: each argument of ``f`` is
``enzyme_vector`` (the default) followed by W values, one per lane, or
``enzyme_scalar`` followed by one value shared by every lane.  The result is
the W results (a struct or array of them as the caller declares it), or
nothing for a void ``f``.  pyenzyme runs the lanes as W calls in lane order,
which computes what the batched function computes; LLVM's vectorizers may
merge them.
"""
from __future__ import annotations

from ..errors import UsageError
import re

from ..ir import (ArrayType, CallInst, ConstantInt, ConstantKeyword, Function, Instruction, Module, Type, Value,
                  strip_pointer_casts)
from ..ir.builder import Builder, InsertPoint
from .replace import _repack
from .requests import WIDTH_MARKER, _Decoder, _marker, _unpromoted, calls_named, where

ENTRY = "__enzyme_batch"


def replace_batches(module: Module) -> int:
    """Replace every ``__enzyme_batch`` call of ``module``; returns how many there were."""
    calls = calls_named(module.functions, ENTRY)
    for call in calls:
        _replace(call, module)
    return len(calls)


def _replace(call: CallInst, module: Module) -> None:
    d = _Decoder(call, "forward")
    args = call.args
    sret = None
    if args and "sret" in call.arg_attrs[0]:  # a struct too big for registers comes back through memory
        sret, args = args[0], args[1:]
    fn = strip_pointer_casts(args[0]) if args else None
    if not isinstance(fn, Function):
        raise d.fail("the first argument must be a function known at compile time")
    if len(args) < 3 or _marker(args[1]) != WIDTH_MARKER or not isinstance(args[2], ConstantInt) \
            or args[2].value <= 0:
        raise d.fail("expected enzyme_width and a positive integer constant right after the function")
    width = args[2].value
    lanes: list[list[Value]] = [[] for _ in range(width)]
    i = 3
    inserted: list[Instruction] = []
    for k, pt in enumerate(fn.function_type.params):
        mark = _marker(args[i]) if i < len(args) else None
        if mark not in (None, "enzyme_vector", "enzyme_scalar"):
            raise d.fail(f"{mark} is not a batch marker; use enzyme_vector or enzyme_scalar")
        i += mark is not None
        count = 1 if mark == "enzyme_scalar" else width
        if i + count > len(args):
            raise d.fail(f"argument {k + 1} of @{fn.name} needs {count} value{'s' * (count > 1)}, got "
                         f"{len(args) - i}")
        values = [_unpromoted(d, v, pt, f"argument {k + 1} of @{fn.name} has type {pt} but {{got}} was passed",
                              inserted) for v in args[i:i + count]]
        i += count
        for lane in range(width):
            lanes[lane].append(values[lane if count > 1 else 0])
    if i != len(args):
        raise d.fail(f"@{fn.name} takes {len(fn.function_type.params)} arguments but more were given")
    b = Builder(InsertPoint.before_inst(call))
    results: list[Value] = [b.call(fn, lane) for lane in lanes]
    declared = _sret_type(call, d, module) if sret is not None else call.type
    if fn.return_type.is_void or declared.is_void:
        if sret is not None or (call.has_uses and not call.type.is_void):
            raise d.fail(f"@{fn.name} returns {fn.return_type}, but the batch is declared to return {declared}")
    else:
        lanes_array: Value = ConstantKeyword(ArrayType(width, fn.return_type), "undef")
        for lane, r in enumerate(results):
            lanes_array = b.insertvalue(lanes_array, r, [lane])
        packed = _repack(b, lanes_array, declared)
        if packed.type != declared:
            raise UsageError(f"{ENTRY} {where(call)}: declared to return {declared}, but {width} lanes of "
                             f"@{fn.name} give {width} values of type {fn.return_type}; declare a struct of them")
        if sret is not None:
            b.store(packed, sret)
        else:
            call.replace_all_uses_with(packed)
    call.erase()


def _sret_type(call: CallInst, d: _Decoder, module: Module) -> Type:
    """The struct type of the call's ``sret(%name)`` attribute."""
    m = re.search(r'sret\(%("[^"]+"|[-\w.$]+)\)', call.arg_attrs[0])
    found = module.struct_types.get(m.group(1).strip('"')) if m else None
    if found is None:
        raise d.fail(f"cannot tell the result type from {call.arg_attrs[0]!r}")
    return found

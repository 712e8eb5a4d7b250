"""``scanf``, ``fscanf`` and ``sscanf`` in differentiated code (rules.scanf).

The numbers they store are parsed from text: constants to derivatives.  Each destination the call assigned
loses whatever derivative it held, like memory a store of a constant overwrites: forward mode zeroes its
tangent after the call, the reverse sweep zeroes its adjoint.  A conversion assigns its destination only when
the input matched up to it, so the k-th counted destination is zeroed only where the call's result (the number
of assigned conversions; EOF is negative) exceeds k.  The constant format string says which arguments are
destinations and how many bytes each gets; a format that is not a constant or not understood, and strings or
``%n`` counts stored into memory that may hold floats, are refused when a destination has a shadow.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from ..analysis.debuginfo import describe
from ..errors import DifferentiationError
from ..ir import (ArrayType, CallInst, ConstantExpr, ConstantInt, ConstantKeyword, ConstantText, FunctionType,
                  GlobalVariable, Module, Value, strip_pointer_casts)
from ..ir.builder import Builder, const_int
from ..ir.types import I8, I64, PTR, IntType
from ..rules.scanf import ScanfFunction, Written, scanf_function, scanf_writes
from .common import zero_fill
from .copy_types import function_contexts, points_to_no_floats
from .forward_state import ForwardState
from .reverse_state import ReverseState


def format_text(v: Value) -> str | None:
    """The text of a constant C string at offset 0 of its global, else None."""
    v = strip_pointer_casts(v)
    while isinstance(v, ConstantExpr) and v.opcode == "getelementptr" and v.operands:
        if not all(isinstance(i, ConstantInt) and i.value == 0 for i in v.operands[1:]):
            return None
        v = strip_pointer_casts(v.operands[0])
    if not isinstance(v, GlobalVariable) or not isinstance(v.initializer, ConstantText):
        return None
    spelling = v.initializer.spelling
    if not spelling.startswith('c"'):
        return None
    # LLVM spells non-printable bytes, '"' and '\\' as \XX.
    text = re.sub(r"\\([0-9A-Fa-f]{2})", lambda g: chr(int(g.group(1), 16)), spelling[2:-1])
    return text.split("\0", 1)[0]


def _destinations(inst: CallInst, spec: ScanfFunction, has_shadow: Callable[[Value], bool],
                  no_floats: Callable[[Value], bool]) -> list[tuple[int, Written, int]]:
    """(operand index, what is written, its rank among counted conversions) of each destination with a shadow;
    refuses what cannot be followed."""
    args = inst.args
    if not any(has_shadow(a) for a in args[spec.first:]):
        return []
    fmt = format_text(args[spec.format]) if spec.format < len(args) else None
    writes = scanf_writes(fmt) if fmt is not None else None
    if writes is None or len(writes) > len(args) - spec.first:
        what = "a format that is not a constant string" if fmt is None else f"the format {fmt!r}, which is not understood"
        raise DifferentiationError(
            f"{describe(inst)}: @{inst.callee_name} stores parsed values into memory that may hold derivatives, "
            f"with {what}, so which bytes it overwrites is unknown; use a constant format of standard conversions")
    out: list[tuple[int, Written, int]] = []
    rank = 0
    for k, w in enumerate(writes):
        index = spec.first + k
        if has_shadow(args[index]):
            if not w.counted and not no_floats(args[index]):
                raise DifferentiationError(
                    f"{describe(inst)}: @{inst.callee_name} stores %{w.conversion} (argument {index + 1}) into "
                    "memory that may hold floating-point derivatives, and whether it is stored is not known here; "
                    "store the count into a separate int variable")
            if w.counted:
                out.append((index, w, rank))
        rank += w.counted
    return out


def _assigned_bytes(m: Module, b: Builder, result: Value, dst: Value, w: Written, rank: int) -> Value:
    """The bytes the call stored at ``dst`` (the new code's values): the conversion's size, or the string and its
    NUL (``strlen`` right after the call), where the call assigned it; else 0."""
    assert isinstance(result.type, IntType)
    assigned = b.icmp("sgt", result, const_int(result.type, rank))
    if w.size is not None:
        return b.select(assigned, const_int(I64, w.size), const_int(I64, 0))
    strlen = m.declare_function("strlen", FunctionType(I64, (PTR,)))
    # strlen only where the call assigned the string: an unassigned buffer may hold no NUL.
    safe = b.select(assigned, dst, format_anchor(m))
    n = b.add(b.call(strlen, [safe]), const_int(I64, 1))
    return b.select(assigned, n, const_int(I64, 0))


def format_anchor(m: Module) -> Value:
    """An empty C string: what ``strlen`` reads where the call assigned nothing."""
    g = m.globals.get(_EMPTY)
    if g is None:
        t = ArrayType(1, I8)
        g = GlobalVariable(_EMPTY, t, initializer=ConstantText(t, 'c"\\00"'), is_constant=True,
                           prefix="private unnamed_addr")
        m.add(g)
    return g


_EMPTY = "__pyenzyme_empty_string"


def forward_scanf_call(st: ForwardState, inst: CallInst, ni: CallInst, b: Builder) -> None:
    """Zero the tangent of each destination the call (already run, as ``ni``) assigned."""
    spec = scanf_function(inst.callee_name)
    assert spec is not None

    def has_shadow(v: Value) -> bool:
        t = st.tangent(v)
        return t is not None and not (isinstance(t, ConstantKeyword) and t.keyword == "null")

    infos = function_contexts(st.ctx, st.fn)
    m = st.ctx.module
    for index, w, rank in _destinations(inst, spec, has_shadow, lambda p: points_to_no_floats(infos, p)):
        sd = st.tangent(inst.args[index])
        assert sd is not None
        zero_fill(m, b, sd, _assigned_bytes(m, b, ni, ni.args[index], w, rank))


def augment_scanf_call(st: ReverseState, inst: CallInst, ni: CallInst, b: Builder) -> None:
    """Tape the length of each string the call stored into memory with a shadow (the reverse sweep zeroes that
    many adjoint bytes); refuse, before any code is made, what the reverse sweep could not follow."""
    spec = scanf_function(inst.callee_name)
    assert spec is not None
    infos = function_contexts(st.ctx, st.fn)
    for index, w, rank in _destinations(inst, spec, lambda v: v in st.shadow, lambda p: points_to_no_floats(infos, p)):
        if w.size is None:
            st.push(b, _assigned_bytes(st.m, b, ni, ni.args[index], w, rank))


def reverse_scanf_call(st: ReverseState, b: Builder, inst: CallInst) -> None:
    """The assigned destinations' adjoints are consumed by nothing: zero them."""
    spec = scanf_function(inst.callee_name)
    assert spec is not None
    infos = function_contexts(st.ctx, st.fn)
    dests = _destinations(inst, spec, lambda v: v in st.shadow, lambda p: points_to_no_floats(infos, p))
    if not dests:
        return
    result = st.primal(inst) if any(w.size is not None for _, w, _ in dests) else None
    for index, w, rank in reversed(dests):  # strings' lengths come off the tape last pushed, first popped
        shadow = st.available(st.shadow[inst.args[index]])
        if w.size is None:
            n = st.pop(b, I64)
        else:
            assert result is not None and isinstance(result.type, IntType)
            assigned = b.icmp("sgt", result, const_int(result.type, rank))
            n = b.select(assigned, const_int(I64, w.size), const_int(I64, 0))
        zero_fill(st.m, b, shadow, n)

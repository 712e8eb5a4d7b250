"""Derivatives through integers that hold the bits of floating-point values.

Type analysis says which integers carry float data (a ``uint64_t`` filled by
``memcpy`` from a double, a union member, a bitcast).  Copying such bits
(loads, stores, phis, selects, bitcasts) keeps their derivative; of the
integer operations only the sign-bit ones (:mod:`enzyme.analysis.sign_bits`)
have one: the result is plus or minus its magnitude source, so the source's
derivative passes with its sign flipped where the two sign bits differ.  In
forward mode tangents of float bits stay integers (the tangent's bits); in
reverse mode their adjoints are floats of the same width.  Every other
integer operation on active float bits is refused.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from ..analysis import DataLayout
from ..analysis.debuginfo import describe, source_location
from ..analysis.sign_bits import FLOAT_OF_WIDTH, constant_bits, sign_bit
from ..errors import DifferentiationError
from ..ir import (BinaryOperator, BranchInst, CallInst, CastInst, CmpInst, Constant, FreezeInst, Function, GEPInst,
                  Instruction, IntType, LoadInst, PhiInst, ReturnInst, SelectInst, StoreInst, SwitchInst, Value)
from ..ir.builder import Builder, const_int
from ..ir.types import FloatType
from ..rules import lookup
from ..rules.memory import lookup_memory
from .common import ADContext
from .copy_types import function_contexts
from .hash_tables import bucket_word


#: Opcodes that read an integer's bits as a number or a decision, never as a float (derivative zero).
INTEGER_SINKS = frozenset({"icmp", "br", "switch", "sitofp", "uitofp"})


def float_bits_type(ctx: ADContext, fn: Function, v: Value) -> FloatType | None:
    """The float type whose bits the integer ``v`` holds (type analysis, any calling context), or None."""
    t = v.type
    if not isinstance(t, IntType) or t.bits not in FLOAT_OF_WIDTH:
        return None
    for info in function_contexts(ctx, fn):
        kind = info.float_kind(v)
        if kind is not None and FloatType(kind).bits == t.bits:
            return FloatType(kind)
    return None


def copied_word_type(ctx: ADContext, fn: Function, v: Value, pointer_bits: int) -> FloatType | None:
    """``float`` for a 32-bit integer load that is only stored again (a copy of 4 bytes, ``std::swap`` of an
    ``int`` or a ``float`` at -O0) when type analysis does not prove it an integer in every context: such bytes
    can only be a float's or an integer's (a pointer is wider), and moving their adjoint like a float's is right
    for both -- an integer's shadow bytes hold zeros, whose sum is zero.  None otherwise, and where any context
    says the bytes are part of something wider (a double's half, a pointer's) or conflict."""
    t = v.type
    if isinstance(v, LoadInst) and isinstance(t, IntType):  # a word of a Rust HashMap entry (hash_tables)
        word = bucket_word(fn, v.pointer, t.bits // 8, DataLayout.of_module(ctx.module))
        if isinstance(word, FloatType) and word.bits == t.bits:
            return word
    if not isinstance(v, LoadInst) or not isinstance(t, IntType) or t.bits != 32 or pointer_bits == 32 \
            or not v.uses or any(not isinstance(u.user, StoreInst) or u.user.value is not v or u.user.pointer is v
                                 for u in v.uses) \
            or is_integer_data(ctx, fn, v) \
            or any(isinstance(u.user, StoreInst) and _library_state(u.user.pointer) for u in v.uses):
        return None
    for info in function_contexts(ctx, fn):
        top = info.top(v)
        if top is not None and not top.is_integer and not (top.is_float and top.float_kind == "float"):
            return None
        for path, fact in info.pointee_tree(v.pointer):
            # Part of a wider float or of a pointer (a double copied as two halves): not a float of its own.
            if len(path) == 1 and -7 <= path[0] <= 3 and (fact.is_pointer or fact.is_anything or (
                    fact.is_float and (path[0] != 0 or fact.float_kind != "float"))):
                return None
    return FloatType("float")


def _library_state(p: Value) -> bool:
    """Does ``p`` point into memory a library function handed out (``errno`` through ``__errno_location``), which
    holds no floats of the program?"""
    while isinstance(p, (GEPInst, CastInst)):
        p = p.operand(0)
    if not isinstance(p, CallInst) or p.called_function is None or not p.called_function.is_declaration:
        return False
    return lookup_memory(p.callee_name or "") is None


def is_float_data(ctx: ADContext, fn: Function, v: Value) -> bool:
    """Does type analysis say (in any calling context) that the integer ``v`` holds floating-point data?"""
    return isinstance(v.type, IntType) and any(info.is_float(v) for info in function_contexts(ctx, fn))


def is_integer_data(ctx: ADContext, fn: Function, v: Value) -> bool:
    """Does type analysis say (in every calling context) that ``v`` is an integer, never float bits?"""
    return all(info.is_integer(v) for info in function_contexts(ctx, fn))


def float_integer_conflict(ctx: ADContext, fn: Function, accesses: Sequence[tuple[Value, int]]) -> bool:
    """Did type analysis meet, in some calling context, the bytes one of ``accesses`` (pointer, size) touches as both
    an integer and a float (an ``int`` access by its TBAA tag where other accesses read a double: a type pun that
    breaks strict aliasing)?  Conflicts are recorded on the pointer where the facts met, or on a pointer the
    accessed one is derived from (an argument, an alloca): only those at the accessed bytes count (a struct's
    integer field beside a union elsewhere in it is no pun)."""
    from ..analysis.type_offsets import gep_offset
    layout = DataLayout.of_module(ctx.module)
    within: dict[Value, tuple[int, int] | None] = {}  # value -> accessed bytes relative to it (None: unknown)
    for p, size in accesses:
        delta: int | None = 0
        within[p] = (0, size)
        while isinstance(p, (GEPInst, CastInst)) and p.operands:
            if isinstance(p, GEPInst) and delta is not None:
                const, strides = gep_offset(layout, p.source_type, list(p.operands[1:]))
                delta = None if strides else delta + const
            p = p.operand(0)
            within[p] = None if delta is None else (delta, delta + size)
    for info in function_contexts(ctx, fn):
        for c in info.conflicts:
            if c.value not in within or not ((c.old.is_float and c.new.is_integer) or
                                             (c.old.is_integer and c.new.is_float)):
                continue
            span = within[c.value]
            offset = c.path[1] if len(c.path) == 2 and c.path[0] == -1 else None
            if span is None or offset is None or offset < 0 or span[0] <= offset < span[1]:
                return True
    return False


def conflicting_bits_error(inst: Instruction) -> DifferentiationError:
    return DifferentiationError(
        f"{describe(inst)}: copies memory through an integer ({inst.operand(0).type}) whose bytes type analysis also "
        "found accessed as floating-point data (in C, a double copied through uint32_t or uint64_t pointers: a "
        "strict-aliasing violation, typed as an integer by TBAA), so its derivative would be lost in reverse mode; "
        "copy the value with its floating-point type or with memcpy, or build with -fno-strict-aliasing")


def may_hold_active_bits(v: Value, is_bits: Callable[[Value], bool], from_active_memory: Callable[[LoadInst], bool],
                         depth: int = 0) -> bool:
    """Could the integer ``v`` be computed from the bits of active floats (loaded from active memory)?"""
    if is_bits(v):
        return True
    if depth > 8 or not isinstance(v, Instruction) or not isinstance(v.type, IntType):
        return False
    if isinstance(v, LoadInst):
        return from_active_memory(v)
    if isinstance(v, PhiInst):
        ops: Sequence[Value] = [x for x, _ in v.incoming]
    elif isinstance(v, (BinaryOperator, SelectInst, FreezeInst)) or \
            (isinstance(v, CastInst) and v.opcode in ("trunc", "zext", "sext", "bitcast")):
        ops = v.operands
    else:
        return False
    return any(not isinstance(x, Constant) and may_hold_active_bits(x, is_bits, from_active_memory, depth + 1)
               for x in ops)


def float_granule(ctx: ADContext, fn: Function, v: Value) -> int | None:
    """The width in bits of the floats type analysis puts in the integer ``v`` (None: no float, or unknown)."""
    for info in function_contexts(ctx, fn):
        kind = info.float_kind(v)
        if kind is not None:
            return FloatType(kind).bits
    return None


def moves_whole_floats(inst: Instruction, granule: int) -> bool:
    """Does ``inst`` only move whole ``granule``-bit floats around inside integers (a small struct such as
    ``{float, int}`` passed as one i64: trunc, zext, shifts and masks by whole floats, ``or disjoint``)?

    Applied to tangent bits such an operation moves the tangents exactly as it moves the values.
    """
    op = inst.opcode
    t = inst.type
    if not isinstance(t, IntType) or t.bits % granule:
        return False
    if op in ("trunc", "zext"):
        return isinstance(inst.operand(0).type, IntType)
    if op in ("shl", "lshr"):
        c = constant_bits(inst.operand(1), t.bits)
        return c is not None and c % granule == 0
    if op == "and":
        for x in inst.operands:
            c = constant_bits(x, t.bits)
            if c is not None:
                lanes = [(c >> k) & ((1 << granule) - 1) for k in range(0, t.bits, granule)]
                return all(lane in (0, (1 << granule) - 1) for lane in lanes)
        return False
    return op == "or" and isinstance(inst, BinaryOperator) and "disjoint" in inst.flags


def only_integer_uses(ctx: ADContext, fn: Function, v: Value) -> bool:
    """Do all uses of the integer ``v`` (through integer arithmetic, casts, phis and selects) end in
    comparisons, branches, integer-to-float conversions, address arithmetic, integer arguments of math
    functions (``ldexp``) or an integer return value?

    Then no floating-point value is ever made from its bits (an ``isfinite`` written on the bits, an
    exponent extracted into an int): it has no derivative, and dropping it is exact.
    """
    work, seen = [v], {v}
    while work:
        x = work.pop()
        for u in x.users:
            if isinstance(u, (CmpInst, BranchInst, SwitchInst)) or \
                    (isinstance(u, CastInst) and u.opcode in ("sitofp", "uitofp")) or \
                    (isinstance(u, GEPInst) and u.pointer is not x) or \
                    (isinstance(u, SelectInst) and u.operand(0) is x and x not in (u.operand(1), u.operand(2))) or \
                    (isinstance(u, CallInst) and lookup(u.callee_name or "") is not None) or \
                    (isinstance(u, ReturnInst) and not is_float_data(ctx, fn, x)):
                continue
            if isinstance(u, (BinaryOperator, PhiInst, SelectInst, FreezeInst)) or \
                    (isinstance(u, CastInst) and u.opcode in ("trunc", "zext", "sext")):
                if isinstance(u.type, IntType) and u not in seen:
                    seen.add(u)
                    work.append(u)
                continue
            return False
    return True


def returns_float_data(ctx: ADContext, fn: Function) -> bool:
    """Does ``fn`` return floating-point data in an integer (all of it, or part: ``{float, int}`` as i64)?"""
    return isinstance(fn.return_type, IntType) and any(
        isinstance(inst, ReturnInst) and inst.value is not None and is_float_data(ctx, fn, inst.value)
        for inst in fn.instructions())


def returned_float_bits(ctx: ADContext, fn: Function) -> FloatType | None:
    """The float type whose bits ``fn`` returns as an integer (a ``bits_of(double)`` helper), or None."""
    if not isinstance(fn.return_type, IntType):
        return None
    for inst in fn.instructions():
        if isinstance(inst, ReturnInst) and inst.value is not None:
            ft = float_bits_type(ctx, fn, inst.value)
            if ft is not None:
                return ft
    return None


def sign_flip_mask(b: Builder, result: Value, source: Value) -> Value:
    """``(result ^ source) & SIGN``: the sign bit where a sign-bit operation changed its source's sign."""
    t = result.type
    assert isinstance(t, IntType)
    return b.binop("and", b.binop("xor", result, source), const_int(t, sign_bit(t.bits)))


def flip_adjoint(b: Builder, adjoint: Value, mask: Value) -> Value:
    """The float ``adjoint`` with its sign flipped where ``mask`` (an integer sign mask) is set."""
    bits = b.cast("bitcast", adjoint, mask.type)
    return b.cast("bitcast", b.binop("xor", bits, mask), adjoint.type)


def float_bits_error(inst: Instruction, what: str = "integer arithmetic on") -> DifferentiationError:
    return DifferentiationError(
        f"{describe(inst)}: {what} the bits of an active floating-point value; only sign-bit operations "
        "(negation, fabs, copysign through the bits) have a derivative. Compute on the floating-point value instead")


def untracked_bits_error(inst: Instruction) -> DifferentiationError:
    """``inst`` makes a float of integer bits read from memory with a shadow that carry no derivative here (or
    passes them to a function that does)."""
    where = describe(inst)
    if not source_location(inst):  # made by the optimizer: cite the nearest code that has a source line
        nearby = [*_operand_chain(inst), *(inst.parent.instructions if inst.parent is not None else [])]
        loc = next((loc for v in nearby if (loc := source_location(v))), None)
        if loc:
            where += f" near {loc}"
    bits = "integer bits read from memory that may hold active floating-point values"
    callee = inst.called_function if isinstance(inst, CallInst) else None
    what = f"passes {bits} to @{callee.name}, which makes a float of them" if callee is not None \
        else f"makes a {inst.type} of {bits}"
    return DifferentiationError(
        f"{where}: {what}, but type analysis does not know them for float bits (the memory is also accessed as an "
        "integer: a double array read through a uint64_t pointer is typed \"long\" by TBAA), so their derivative "
        "would be lost; read the value as a floating-point number or copy it with memcpy")


def makes_float_of_untracked_bits(inst: Instruction, tracked: Callable[[Value], bool],
                                  shadowed: Callable[[Value], bool]) -> bool:
    """Is ``inst`` a bitcast of an integer to a float whose bits may come from memory with a shadow (whatever
    type analysis says about that memory), but carry no derivative (``tracked`` is false)?  Integer data in
    active memory is never reinterpreted as a float except by a type pun, so such bits are float bits whose
    derivative was not followed."""
    if not (isinstance(inst, CastInst) and inst.opcode == "bitcast" and isinstance(inst.type, FloatType)):
        return False
    v = inst.operands[0]
    return isinstance(v.type, IntType) and not tracked(v) and \
        may_hold_active_bits(v, tracked, lambda load: shadowed(load.pointer))


def passes_untracked_bits(inst: Instruction, tracked: Callable[[Value], bool],
                          shadowed: Callable[[Value], bool]) -> bool:
    """Does the call ``inst`` pass such untracked bits to a parameter its callee makes a float of?"""
    if not isinstance(inst, CallInst):
        return False
    callee = inst.called_function
    if callee is None or callee.is_declaration:
        return False
    for a, formal in zip(inst.args, callee.args):
        if isinstance(a.type, IntType) and not tracked(a) and \
                may_hold_active_bits(a, tracked, lambda load: shadowed(load.pointer)) and \
                any(isinstance(u.user, CastInst) and u.user.opcode == "bitcast" and isinstance(u.user.type, FloatType)
                    for u in formal.uses):
            return True
    return False


def _operand_chain(inst: Instruction, depth: int = 8) -> list[Instruction]:
    """The instructions ``inst`` is computed from, nearest first (breadth first, ``depth`` levels)."""
    seen: list[Instruction] = []
    frontier = [inst]
    for _ in range(depth):
        frontier = [op for v in frontier for op in v.operands if isinstance(op, Instruction) and op not in seen]
        seen += frontier
    return seen


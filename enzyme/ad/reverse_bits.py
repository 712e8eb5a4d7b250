"""Guards of the augmented sweep for float bits carried in integers (reverse mode).

Reverse mode follows an active float through integer copies (loads,
stores, phis, bitcasts) and sign-bit operations (float_bits.py); every
other integer operation on active float bits would lose the derivative, so
it is refused here, before any code is generated for it.
"""
from __future__ import annotations

from collections.abc import Callable

from ..analysis.sign_bits import BITWISE, sign_operation
from ..errors import DifferentiationError
from ..ir import (AllocaInst, BinaryOperator, CallInst, CastInst, GEPInst, Instruction, IntType, LoadInst, PhiInst,
                  ReturnInst, SelectInst, StoreInst, Value)
from ..ir.types import PointerType
from .common import describe, is_inactive_function
from .custom import custom_rules
from .copy_types import function_contexts, points_to_no_floats
from .memory_insts import descriptor_word
from .float_bits import (INTEGER_SINKS, conflicting_bits_error, float_bits_error, float_integer_conflict, float_bits_type,
                         is_float_data, is_integer_data,
                         makes_float_of_untracked_bits, may_hold_active_bits, moves_whole_floats, only_integer_uses,
                         passes_untracked_bits, untracked_bits_error)
from .reverse_state import ReverseState


def check_float_bits(st: ReverseState, inst: Instruction) -> None:
    """Refuse integer operations on active float bits that are not sign-bit operations."""
    bits_in = [v for v in inst.operands if v in st.float_bits]
    if inst.opcode not in INTEGER_SINKS:
        for v in inst.operands:
            if v not in st.float_bits and isinstance(v.type, IntType) and is_float_data(st.ctx, st.fn, v) \
                    and float_bits_type(st.ctx, st.fn, v) is None and _may_hold_active_bits(st, v):
                raise DifferentiationError(
                    f"{describe(inst)}: part of an active floating-point value travels in an integer ({v.type}; "
                    "a small struct such as {float, int} passed or returned as one integer?); not supported "
                    "in reverse mode yet")
    if isinstance(inst, (BinaryOperator, CastInst)) and inst not in st.float_bits and inst.opcode != "bitcast" \
            and is_float_data(st.ctx, st.fn, inst) and not (inst.opcode in BITWISE and sign_operation(inst)) \
            and any(_may_hold_active_bits(st, v) for v in inst.operands) \
            and not only_integer_uses(st.ctx, st.fn, inst):
        raise float_bits_error(inst)  # e.g. nextafter by adding 1 to the bits of an active double
    if isinstance(inst, BinaryOperator) and inst.opcode in BITWISE and (bits_in or inst in st.float_bits):
        if sign_operation(inst) is None and not only_integer_uses(st.ctx, st.fn, inst):
            raise float_bits_error(inst)
    elif makes_float_of_untracked_bits(inst, lambda v: v in st.float_bits, st.maybe_shadowed) or \
            passes_untracked_bits(inst, lambda v: v in st.float_bits, st.maybe_shadowed):
        raise untracked_bits_error(inst)
    elif isinstance(inst, StoreInst) and _copies_conflicting_bits(st, inst):
        raise conflicting_bits_error(inst)
    elif isinstance(inst, (LoadInst, StoreInst, PhiInst, SelectInst)) \
            or (isinstance(inst, CastInst) and inst.opcode == "bitcast"):
        return  # copies of the bits
    elif isinstance(inst, ReturnInst):
        if bits_in and st.return_bits is None:
            raise float_bits_error(inst, "a function returning")
    elif isinstance(inst, CallInst):
        name = inst.callee_name
        callee = inst.called_function
        if bits_in and not (name and is_inactive_function(name)) and not custom_rules(st.m).is_inactive(inst.called_function) \
                and (callee is None or callee.is_declaration or custom_rules(st.m).gradient(inst.called_function) is not None):
            raise float_bits_error(inst, "a call passing")  # defined callees take them as active arguments
    elif bits_in and moves_whole_floats(inst, st.float_bits[bits_in[0]].bits):
        raise DifferentiationError(
            f"{describe(inst)}: moves an active floating-point value inside a wider integer (a small struct "
            "such as {float, int} passed or returned as one integer?); forward mode supports this, reverse "
            "mode not yet")
    elif inst in st.float_bits or (bits_in and inst.opcode not in INTEGER_SINKS
                                     and not only_integer_uses(st.ctx, st.fn, inst)):
        raise float_bits_error(inst, "a conversion of" if isinstance(inst, CastInst) else "integer arithmetic on")


def _copies_conflicting_bits(st: ReverseState, inst: StoreInst) -> bool:
    """Does ``inst`` store integer bits read from memory that type analysis saw as both integers and floats (an
    ``int`` access by TBAA where other accesses read a double: ``uint32_t`` halves of a double, a strict-aliasing
    violation) into memory that may hold floats?  Their width and float type are unknown, so their adjoint cannot
    be moved (forward mode copies the tangent bits as they are, which is exact)."""
    v = inst.value
    # Only a load stored as it is: integer arithmetic on such bytes (a counter in a struct whose facts merged into
    # "anything") is no copy of a float, and arithmetic on float bits is refused above.
    if not isinstance(v, LoadInst) or not isinstance(v.type, IntType) or v in st.float_bits \
            or not st.maybe_shadowed(inst.pointer) or not _may_hold_active_bits(st, v) \
            or not float_integer_conflict(st.ctx, st.fn, [(v.pointer, st.layout.store_size(v.type)),
                                                          (inst.pointer, st.layout.store_size(v.type))]):
        return False
    if any(descriptor_word(st.layout, q, v.type) for q in (v.pointer, inst.pointer)):
        return False  # a flang descriptor's extent or stride, copied field by field
    return not points_to_no_floats(function_contexts(st.ctx, st.fn), inst.pointer)


def _may_hold_active_bits(st: ReverseState, v: Value) -> bool:
    return may_hold_active_bits(
        v, lambda x: x in st.float_bits,
        lambda load: st.maybe_shadowed(load.pointer) and not is_integer_data(st.ctx, st.fn, load)
        and _may_receive_active(st, load.pointer))


def _may_receive_active(st: ReverseState, p: Value) -> bool:
    """Could the memory ``p`` points into hold active data?  Only a local that nothing active is stored
    into, and whose address goes to no call, answers no."""
    while isinstance(p, (GEPInst, CastInst)) and isinstance(p.operand(0).type, PointerType):
        p = p.operand(0)
    if not isinstance(p, AllocaInst):
        return True
    got = st.receives_active.get(p)
    if got is None:
        st.receives_active[p] = False  # a cycle through its own stores adds nothing
        got = st.receives_active[p] = _alloca_receives(p, lambda v: v in st.active or (
            isinstance(v.type, IntType) and _may_hold_active_bits(st, v)))
    return got


def _alloca_receives(alloca: AllocaInst, is_active: Callable[[Value], bool]) -> bool:
    """Is anything ``is_active`` stored into ``alloca`` (through GEPs and casts), or does its address reach a call?"""
    work: list[Value] = [alloca]
    seen: set[Value] = set()
    while work:
        p = work.pop()
        if p in seen:
            continue
        seen.add(p)
        for u in p.users:
            if isinstance(u, StoreInst):
                if u.pointer is p and is_active(u.value) or u.value is p:
                    return True  # an active value, or the address itself escapes
            elif isinstance(u, (GEPInst, CastInst, PhiInst, SelectInst)):
                work.append(u)
            elif isinstance(u, CallInst) and not (u.callee_name or "").startswith("llvm.lifetime."):
                return True
    return False

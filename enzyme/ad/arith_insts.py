"""Arithmetic, comparisons and casts: their forward, augmented and reverse code side by side.

Arithmetic is data: partials come from rules.INSTRUCTIONS, the linear
conversions (fpext/fptrunc) from rules.LINEAR_CONVERSIONS; forward mode sums
partial · tangent, reverse mode adds partial · adjoint to each operand.
Integer instructions carry no derivative, except where they move the bits
of active floats or flip their sign bits (float_bits.py).  handlers.py
lists which handler each instruction class gets in each mode.
"""
from __future__ import annotations

from collections.abc import Sequence

from ..analysis.sign_bits import BITWISE, sign_operation
from ..errors import DifferentiationError
from ..ir import BinaryOperator, CallInst, CastInst, Constant, Instruction, IntType, LoadInst, Value
from ..ir.builder import Builder
from ..ir.types import FloatType, PointerType, Type, scalar_of
from ..rules import INSTRUCTIONS, LINEAR_CONVERSIONS, may_be_nonfinite
from ..rules.dsl import Rule
from ..rules.emit import Emitter
from .common import carries_float, describe, value_name, zero
from .float_bits import (float_bits_error, float_bits_type, flip_adjoint, is_float_data, is_integer_data,
                         makes_float_of_untracked_bits, moves_whole_floats, only_integer_uses, sign_flip_mask,
                         untracked_bits_error)
from .forward_state import ForwardState
from .grad_logging import log_gradient
from .memory_insts import augment_address, shadow_name
from .reverse_state import ReverseState


# -- forward ---------------------------------------------------------------------------------------------------

def apply_rule(st: ForwardState, inst: Instruction, ni: Instruction, rule: Rule, args: Sequence[Value],
               b: Builder) -> None:
    """``tangent = sum of partial_i · tangent_i`` (the rule's partials, emitted once for all lanes)."""
    tans = [st.tangent(a) for a in args]
    if all(t is None for t in tans[:rule.arity]):
        return
    em = st.emitters.get(inst)
    if em is None:
        em = st.emitters[inst] = Emitter(
            st.ctx.module, b, ni.operands[:rule.arity] if not isinstance(ni, CallInst) else ni.args, ni, inst.type)
    total: Value | None = None
    for i, p in enumerate(rule.partials):
        t = tans[i] if i < len(tans) else None
        if p is None or t is None:
            continue
        term = em.times(p, t, singular=rule.singular)
        total = term if total is None else b.fadd(total, term)
    if total is not None:
        total.name = value_name(inst, "'")
        st.tan[inst] = total


def forward_arithmetic(st: ForwardState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    rule = INSTRUCTIONS.get(inst.opcode)
    if rule is not None:
        apply_rule(st, inst, ni, rule, inst.operands, b)
    elif isinstance(inst, BinaryOperator):
        _forward_integer(st, inst, ni, b)


def _forward_integer(st: ForwardState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    """Integer arithmetic: no tangent, unless it moves or flips the sign of active float bits."""
    ops = inst.operands
    on_bits = any(v in st.float_bits for v in ops) or (
        is_float_data(st.ctx, st.fn, inst) and any(st.may_hold_active_bits(v) for v in ops))
    if not on_bits:
        return
    if inst.opcode in BITWISE and sign_operation(inst) is not None \
            and float_bits_type(st.ctx, st.fn, inst) is not None:
        _forward_sign_bits(st, inst, ni, b)
    elif not _move_floats(st, inst, ni, b) and not only_integer_uses(st.ctx, st.fn, inst):
        raise float_bits_error(inst)


def _move_floats(st: ForwardState, inst: Instruction, ni: Instruction, b: Builder) -> bool:
    """Tangents of an integer operation that moves whole floats (see moves_whole_floats); False if it does not."""
    if is_integer_data(st.ctx, st.fn, inst):
        return True  # the integer part of a mixed value: no derivative
    granule = next((st.float_bits[v] for v in inst.operands if st.float_bits.get(v)), 0)
    if not granule or not moves_whole_floats(inst, granule):
        return False
    c = ni.clone()
    if isinstance(c, BinaryOperator):
        c.flags = []  # nuw/nsw/disjoint were proven for the values, not for their tangents
    for i, v in enumerate(inst.operands):
        t = st.tangent(v)
        if t is not None:
            c.set_operand(i, t)
        elif not isinstance(v, Constant) or inst.opcode == "or":
            c.set_operand(i, zero(v.type))  # shift amounts and masks stay
    st.tan[inst] = b.insert(c, value_name(inst, "'"))
    st.mark_bits(inst, granule)
    return True


def _forward_sign_bits(st: ForwardState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    """fneg/fabs/copysign through the bits: the magnitude source's tangent, its sign flipped as the value's."""
    assert isinstance(inst, BinaryOperator) and isinstance(inst.type, IntType)
    sop = sign_operation(inst)
    if sop is None:
        raise float_bits_error(inst)
    t = st.tangent(sop.source) if sop.source is not None else None
    if t is None:
        return  # only a sign bit (+-0.0), or a constant magnitude: no derivative
    mask = st.sign_masks.get(inst)
    if mask is None:
        mask = st.sign_masks[inst] = sign_flip_mask(b, ni, ni.operand(sop.index))
    st.tan[inst] = b.binop("xor", t, mask, value_name(inst, "'"))
    st.mark_bits(inst, inst.type.bits)


def forward_cast(st: ForwardState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    op, x = inst.opcode, inst.operand(0)
    if op == "inttoptr":
        s = st.displacements[st.lane].shadow(inst, b, value_name(inst, "'"))
        loaded = st.tangent(x) if isinstance(x, LoadInst) else None
        if s is None and loaded is not None:
            # An address loaded as an integer from memory with a shadow: the shadow slot holds the shadow's
            # address (stores of integer addresses put it there, memory_insts.store_integer_address).
            s = b.cast("inttoptr", loaded, inst.type, value_name(inst, "'"))
        if s is not None:
            st.tan[inst] = s
        return
    if makes_float_of_untracked_bits(inst, lambda v: st.tangent(v) is not None, lambda p: st.tangent(p) is not None):
        raise untracked_bits_error(inst)
    # sitofp/uitofp read the bits as an integer: a step function, derivative zero.
    if op not in ("bitcast", "sitofp", "uitofp") and (x in st.float_bits or (
            is_float_data(st.ctx, st.fn, inst) and st.may_hold_active_bits(x))):
        if not _move_floats(st, inst, ni, b) and not only_integer_uses(st.ctx, st.fn, inst):
            raise float_bits_error(inst, "a conversion of")
        return
    t = st.tangent(x)
    if t is not None and (op in LINEAR_CONVERSIONS or op in ("bitcast", "addrspacecast")):
        st.tan[inst] = b.cast(op, t, inst.type, value_name(inst, "'"))
        if op == "bitcast" and (carries_float(x.type) or x in st.float_bits) and not carries_float(inst.type):
            # copying these bits is fine, computing with them is not
            st.mark_bits(inst, st.float_bits.get(x) or _bits(scalar_of(x.type)))


def _bits(t: Type) -> int:
    assert isinstance(t, (FloatType, IntType))
    return t.bits


# -- augmented ------------------------------------------------------------------------------------------------

def augment_cast(st: ReverseState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    assert isinstance(inst, CastInst)
    if isinstance(inst.type, PointerType) and inst.opcode in ("bitcast", "addrspacecast"):
        augment_address(st, inst, ni, b)
    elif inst.opcode == "inttoptr":
        s = st.displacements[st.lane].shadow(inst, b, shadow_name(st, inst))
        loaded = inst.operand(0)
        if s is None and isinstance(loaded, LoadInst) and isinstance(st.shadow.get(loaded), Value):
            s = b.cast("inttoptr", st.shadow[loaded], inst.type, shadow_name(st, inst))  # as in forward_cast
        if s is not None:
            st.shadow[inst] = s
    elif inst.opcode == "bitcast" and inst.operand(0) in st.active and not carries_float(inst.type) \
            and inst not in st.float_bits and not only_integer_uses(st.ctx, st.fn, inst):
        # e.g. bitcast double -> i64: the value's derivative would travel as integer bits.
        raise DifferentiationError(
            f"{describe(inst)}: reinterprets an active {inst.operand(0).type} value as {inst.type}; its "
            "derivative cannot follow integer bits in reverse mode yet")


# -- reverse --------------------------------------------------------------------------------------------------

def reverse_rule(st: ReverseState, b: Builder, inst: Instruction, rule: Rule, args: Sequence[Value]) -> None:
    """Add ``partial_i · adjoint`` to each active argument's adjoint (the rule's partials, emitted once)."""
    d = st.take_adjoint(b, inst)
    log_gradient(st, b, inst, d, args)
    em = st.emitters.get(inst)  # made by the first lane: the partials are shared by the others
    if em is None:
        # Only what the partials with respect to the active operands read: ``c * f(x)`` with a constant ``c``
        # needs no ``f(x)`` in the reverse sweep (it would be taped for nothing).
        need, uses_result = rule.needs_for({i for i, a in enumerate(args) if a in st.active})
        rargs = [st.primal(a) if i in need else a for i, a in enumerate(args)]
        result = st.primal(inst) if uses_result else None
        em = st.emitters[inst] = Emitter(st.m, b, rargs, result, inst.type, adjoints=True)
    nonfinite = st.ctx.nonfinite.may_be_nonfinite
    for i, p in enumerate(rule.partials):
        if p is None or i >= len(args) or args[i] not in st.active:
            continue
        # A value the program computes and then drops (a select's other operand, a branch LLVM made
        # speculative) has a zero adjoint; where its partial may be infinite (1/y at y == 0), 0·inf
        # must not put a NaN into the gradient (enzyme/analysis/nonfinite.py).
        singular = rule.singular or may_be_nonfinite(p, lambda k: nonfinite(args[k]), nonfinite(inst))
        st.add_adjoint(b, args[i], em.times(p, d, singular=singular))


def reverse_arithmetic(st: ReverseState, b: Builder, inst: Instruction) -> None:
    rule = INSTRUCTIONS.get(inst.opcode)
    if rule is not None:
        if inst in st.active:
            reverse_rule(st, b, inst, rule, inst.operands)
    elif isinstance(inst, BinaryOperator) and inst in st.float_bits:
        _reverse_sign_bits(st, b, inst)
    elif inst in st.active:
        unsupported(st, b, inst)


def _reverse_sign_bits(st: ReverseState, b: Builder, inst: BinaryOperator) -> None:
    """fneg/fabs/copysign through the bits: the adjoint goes to the magnitude source, sign-flipped as it was."""
    d = st.take_adjoint(b, inst)
    sop = sign_operation(inst)
    assert sop is not None and sop.source is not None  # checked by reverse_bits.check_float_bits
    mask = st.sign_masks.get(inst)  # the same for every lane
    if mask is None:
        mask = st.sign_masks[inst] = sign_flip_mask(b, st.primal(inst), st.primal(sop.source))
    st.add_adjoint(b, sop.source, flip_adjoint(b, d, mask))


def reverse_cast(st: ReverseState, b: Builder, inst: Instruction) -> None:
    if inst not in st.active:
        return
    op, x = inst.opcode, inst.operand(0)
    if op == "bitcast" and (inst in st.float_bits or x in st.float_bits):
        d = st.take_adjoint(b, inst)
        st.add_adjoint(b, x, d if d.type == st.adjoint_type(x) else b.cast("bitcast", d, st.adjoint_type(x)))
    elif op in LINEAR_CONVERSIONS:
        d = st.take_adjoint(b, inst)
        st.add_adjoint(b, x, b.cast(LINEAR_CONVERSIONS[op], d, x.type))
    elif x in st.active:
        raise DifferentiationError(f"{describe(inst)}: reverse mode does not support this cast yet")


def unsupported(st: ReverseState, b: Builder, inst: Instruction) -> None:
    if inst in st.active:
        raise DifferentiationError(f"{describe(inst)}: reverse mode does not support this instruction yet")

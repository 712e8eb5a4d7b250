"""Forward mode of non-call instructions: each instruction class's tangent rule, in one table.

A handler in :data:`FORWARD` gives its instruction a tangent in the current
lane (``st.tan``) from its operands' tangents; it runs once per batch lane
unless its entry says ``once``.  Arithmetic is data: partials come from
rules.INSTRUCTIONS, the linear conversions from rules.LINEAR_CONVERSIONS.
Integer instructions have no tangent, except where they move the bits of
active floats (float_bits.py).  Calls are forward_calls.py's.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from ..analysis.layout import DataLayout
from ..analysis.sign_bits import BITWISE, sign_operation
from ..errors import DifferentiationError
from ..ir import (AllocaInst, BinaryOperator, CallInst, CastInst, CmpInst, Constant, ConstantKeyword, ExtractElementInst,
                  ExtractValueInst, FreezeInst, GEPInst, InsertElementInst, InsertValueInst, Instruction, IntType,
                  LoadInst, ReturnInst, SelectInst, ShuffleVectorInst, StoreInst, UnaryOperator, Value)
from ..ir.builder import Builder, InsertPoint, const_int
from ..ir.types import I64, FloatType, Type, scalar_of
from ..rules import INSTRUCTIONS, LINEAR_CONVERSIONS
from ..rules.dsl import Rule
from ..rules.emit import Emitter
from .aggregate_shadows import holds_pointers
from .common import carries_float, describe, underlying_global, unshadowed_store_error, value_name, zero, zero_fill
from .custom import custom_rules
from .float_bits import (float_bits_error, float_bits_type, is_float_data, is_integer_data,
                         makes_float_of_untracked_bits, moves_whole_floats, only_integer_uses, sign_flip_mask,
                         untracked_bits_error)
from .forward_state import ForwardState
from .lanes import pack
from .reverse_insts import handler_for

ForwardFn = Callable[[ForwardState, Instruction, Instruction, Builder], None]


class Handler(NamedTuple):
    run: ForwardFn
    once: bool = False  # run at lane 0 only; the handler covers every lane itself


def has_tangent(t: Type) -> bool:
    """Values of type ``t`` carry a tangent: floats, or a shadow: pointers (and aggregates of them)."""
    return carries_float(t) or holds_pointers(t)


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


def _integer(st: ForwardState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    """Integer arithmetic: no tangent, unless it moves or flips the sign of active float bits."""
    ops = inst.operands
    on_bits = any(v in st.float_bits for v in ops) or (
        is_float_data(st.ctx, st.fn, inst) and any(st.may_hold_active_bits(v) for v in ops))
    if not on_bits:
        return
    if inst.opcode in BITWISE and sign_operation(inst) is not None \
            and float_bits_type(st.ctx, st.fn, inst) is not None:
        _sign_bit_operation(st, inst, ni, b)
    elif not _move_floats(st, inst, ni, b) and not only_integer_uses(st.ctx, st.fn, inst):
        raise float_bits_error(inst)


def _arithmetic(st: ForwardState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    rule = INSTRUCTIONS.get(inst.opcode)
    if rule is not None:
        apply_rule(st, inst, ni, rule, inst.operands, b)
    elif isinstance(inst, BinaryOperator):
        _integer(st, inst, ni, b)


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


def _sign_bit_operation(st: ForwardState, inst: Instruction, ni: Instruction, b: Builder) -> None:
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


def _cast(st: ForwardState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    op, x = inst.opcode, inst.operand(0)
    if op == "inttoptr":
        s = st.displacements[st.lane].shadow(inst, b, value_name(inst, "'"))
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
    # fptosi/fptoui: an integer result carries no derivative


def _bits(t: Type) -> int:
    assert isinstance(t, (FloatType, IntType))
    return t.bits


def _load(st: ForwardState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    assert isinstance(inst, LoadInst)
    s = st.tangent(inst.pointer)
    if s is not None:
        st.tan[inst] = b.load(inst.type, s, value_name(inst, "'"), inst.align)


def _store(st: ForwardState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    assert isinstance(inst, StoreInst)
    v, p = inst.value, inst.pointer
    s = st.tangent(p)
    if s is not None:
        st.check_null_shadow(inst, v)
        b.store(st.t(v), s, inst.align)
    elif st.tangent(v) is not None and has_tangent(v.type) \
            and not custom_rules(st.ctx.module).is_inactive_global(underlying_global(p)):
        # A pointer's tangent (shadow) would be lost as well.  A global declared inactive drops it on purpose.
        raise unshadowed_store_error(inst, p)


def _address(st: ForwardState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    assert isinstance(inst, GEPInst)
    s = st.tangent(inst.pointer)
    if s is not None:
        g = ni.clone()
        g.set_operand(0, s)
        st.tan[inst] = b.insert(g, value_name(inst, "'"))


def _alloca(st: ForwardState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    assert isinstance(inst, AllocaInst)
    shadow = b.insert(ni.clone(), value_name(inst, "'"))
    st.tan[inst] = shadow
    # Zeroed, as upstream does: bytes nothing differentiated writes (an inactive call's output, say) have no
    # tangent.  LLVM drops the memset where stores overwrite everything anyway.
    nbytes: Value = const_int(I64, DataLayout.of_module(st.ctx.module).alloc_size(inst.allocated_type))
    if inst.count is not None:
        count = ni.operand(0)
        nbytes = b.mul(count if count.type == I64 else b.cast("zext", count, I64), nbytes)
    zero_fill(st.ctx.module, b, shadow, nbytes)


def _select(st: ForwardState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    ops = inst.operands
    if has_tangent(inst.type) or ops[1] in st.float_bits or ops[2] in st.float_bits:
        if st.tangent(ops[1]) is not None or st.tangent(ops[2]) is not None:
            st.tan[inst] = b.select(ni.operand(0), st.t(ops[1]), st.t(ops[2]), value_name(inst, "'"))


def _extract(st: ForwardState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    """extractvalue, extractelement, freeze: the same operation on the tangent."""
    t = st.tangent(inst.operand(0))
    if t is not None:
        c = ni.clone()
        c.set_operand(0, t)
        st.tan[inst] = b.insert(c, value_name(inst, "'"))


def _insert(st: ForwardState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    """insertvalue, insertelement, shufflevector: the same operation on the tangents."""
    ops = inst.operands
    if st.tangent(ops[0]) is not None or st.tangent(ops[1]) is not None:
        for v in ops[:2]:
            st.check_null_shadow(inst, v)
        c = ni.clone()
        c.set_operand(0, st.t(ops[0]))
        c.set_operand(1, st.t(ops[1]))
        st.tan[inst] = b.insert(c, value_name(inst, "'"))


def _return(st: ForwardState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    """``ret {primal, tangents of all lanes}`` where the derivative returns a tangent."""
    assert isinstance(inst, ReturnInst)
    if st.new.return_type == st.fn.return_type:
        return
    rb = Builder(InsertPoint.before_inst(ni))
    v = inst.value
    assert v is not None
    st.check_null_shadow(inst, v)
    agg = rb.insertvalue(ConstantKeyword(st.new.return_type, "undef"), ni.operand(0), [0])
    ni.set_operand(0, rb.insertvalue(agg, pack(rb, st.all_lanes(v)), [1]))


def _nothing(st: ForwardState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    """Comparisons and control flow carry no tangent."""


#: Instruction class -> its forward handler.  Phis are the walk's (forward.py), calls forward_calls.py's;
#: an instruction of a class not listed is refused where a tangent would flow through it.
FORWARD: dict[type, Handler] = {
    BinaryOperator: Handler(_arithmetic),
    UnaryOperator: Handler(_arithmetic),
    CmpInst: Handler(_nothing),
    CastInst: Handler(_cast),
    LoadInst: Handler(_load),
    StoreInst: Handler(_store),
    GEPInst: Handler(_address),
    AllocaInst: Handler(_alloca),
    SelectInst: Handler(_select),
    ExtractValueInst: Handler(_extract),
    ExtractElementInst: Handler(_extract),
    FreezeInst: Handler(_extract),
    InsertValueInst: Handler(_insert),
    InsertElementInst: Handler(_insert),
    ShuffleVectorInst: Handler(_insert),
    ReturnInst: Handler(_return, once=True),
}


def forward_instruction(st: ForwardState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    """The tangent code of a non-call, non-phi instruction for every lane (each handler as its entry says)."""
    h = handler_for(FORWARD, inst)
    if h is None:
        if inst.is_terminator or inst.opcode == "fence":
            return
        if any(st.tangent(v) is not None for v in inst.operands) or carries_float(inst.type):
            raise DifferentiationError(f"{describe(inst)}: forward mode does not support this instruction yet")
        return
    if h.once:
        h.run(st, inst, ni, b)
        return
    for _ in st.lanes():
        h.run(st, inst, ni, b)
        mark_float_bits(st, inst)


def mark_float_bits(st: ForwardState, inst: Instruction) -> None:
    """An integer result computed from float bits (and given a tangent) holds float bits too."""
    if isinstance(inst.type, IntType) and inst not in st.float_bits and st.tangent(inst) is not None \
            and (any(v in st.float_bits for v in inst.operands) or st.holds_float_bits(inst)):
        st.mark_bits(inst, next((st.float_bits[v] for v in inst.operands if st.float_bits.get(v)), 0))

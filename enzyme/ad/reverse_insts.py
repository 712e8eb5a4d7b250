"""The reverse sweep of non-call instructions: each instruction class's adjoint rule, in one table.

A handler in :data:`REVERSE` takes the adjoint of its instruction (reading
and zeroing it) and adds the contributions to its operands' adjoints; it
runs once per batch lane unless its entry says ``once``.  Arithmetic is
data: the partials of ``fadd``, ``fmul``... come from rules.INSTRUCTIONS
and the linear conversions' transposes from rules.LINEAR_CONVERSIONS.
Calls are reverse_calls.py's.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple, TypeVar

from ..analysis.sign_bits import sign_operation
from ..errors import DifferentiationError
from ..ir import (AllocaInst, BinaryOperator, CastInst, ExtractElementInst, ExtractValueInst, FreezeInst, GEPInst,
                  InsertElementInst, InsertValueInst, Instruction, LoadInst, SelectInst, ShuffleVectorInst,
                  StoreInst, UnaryOperator, Value)
from ..ir.builder import Builder
from ..ir.types import PointerType
from ..rules import INSTRUCTIONS, LINEAR_CONVERSIONS, may_be_nonfinite
from ..rules.dsl import Rule
from ..rules.emit import Emitter
from .aggregate_shadows import holds_pointers
from .common import carries_float, describe, zero
from .float_bits import flip_adjoint, sign_flip_mask
from .grad_logging import log_gradient
from .reverse_state import ReverseState, fadd_deep
from .vectors import reverse_lane_instruction

ReverseFn = Callable[[ReverseState, Builder, Instruction], None]


class Handler(NamedTuple):
    run: ReverseFn
    once: bool = False  # run at lane 0 only; the handler covers every lane itself


H = TypeVar("H")


def handler_for(table: dict[type, H], inst: Instruction) -> H | None:
    """The entry of ``inst``'s class (or its nearest listed base class) in a handler table."""
    for cls in type(inst).__mro__:
        got = table.get(cls)
        if got is not None:
            return got
    return None


def reverse_rule(st: ReverseState, b: Builder, inst: Instruction, rule: Rule, args: Sequence[Value]) -> None:
    """Add ``partial_i · adjoint`` to each active argument's adjoint (the rule's partials, emitted once)."""
    d = st.take_adjoint(b, inst)
    log_gradient(st, b, inst, d, args)
    em = st.emitters.get(inst)  # made by the first lane: the partials are shared by the others
    if em is None:
        need = rule.used_args
        rargs = [st.primal(a) if i in need else a for i, a in enumerate(args)]
        result = st.primal(inst) if rule.uses_result else None
        em = st.emitters[inst] = Emitter(st.m, b, rargs, result, inst.type)
    nonfinite = st.ctx.nonfinite.may_be_nonfinite
    for i, p in enumerate(rule.partials):
        if p is None or i >= len(args) or args[i] not in st.active:
            continue
        # A value the program computes and then drops (a select's other operand, a branch LLVM made
        # speculative) has a zero adjoint; where its partial may be infinite (1/y at y == 0), 0·inf
        # must not put a NaN into the gradient (enzyme/analysis/nonfinite.py).
        singular = rule.singular or may_be_nonfinite(p, lambda k: nonfinite(args[k]), nonfinite(inst))
        st.add_adjoint(b, args[i], em.times(p, d, singular=singular))


def _arithmetic(st: ReverseState, b: Builder, inst: Instruction) -> None:
    rule = INSTRUCTIONS.get(inst.opcode)
    if rule is not None:
        if inst in st.active:
            reverse_rule(st, b, inst, rule, inst.operands)
    elif isinstance(inst, BinaryOperator) and inst in st.float_bits:
        _sign_bit_operation(st, b, inst)
    elif inst in st.active:
        _unsupported(st, b, inst)


def _sign_bit_operation(st: ReverseState, b: Builder, inst: BinaryOperator) -> None:
    """fneg/fabs/copysign through the bits: the adjoint goes to the magnitude source, sign-flipped as it was."""
    d = st.take_adjoint(b, inst)
    sop = sign_operation(inst)
    assert sop is not None and sop.source is not None  # checked by reverse_bits.check_float_bits
    mask = st.sign_masks.get(inst)  # the same for every lane
    if mask is None:
        mask = st.sign_masks[inst] = sign_flip_mask(b, st.primal(inst), st.primal(sop.source))
    st.add_adjoint(b, sop.source, flip_adjoint(b, d, mask))


def _cast(st: ReverseState, b: Builder, inst: Instruction) -> None:
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


def _load(st: ReverseState, b: Builder, inst: Instruction) -> None:
    assert isinstance(inst, LoadInst)
    if inst in st.active and inst.pointer in st.shadow:
        if holds_pointers(inst.type):
            raise DifferentiationError(f"{describe(inst)}: loads a {inst.type} mixing pointers and "
                                       "floating-point values; not supported in reverse mode yet")
        d = st.take_adjoint(b, inst)
        sp = st.available(st.shadow[inst.pointer])
        b.store(fadd_deep(b, b.load(d.type, sp, align=inst.align), d), sp, inst.align)


def _store(st: ReverseState, b: Builder, inst: Instruction) -> None:
    assert isinstance(inst, StoreInst)
    v, p = inst.value, inst.pointer
    if p not in st.shadow or isinstance(v.type, PointerType):
        return
    sp = st.available(st.shadow[p])
    if carries_float(v.type) or v in st.float_bits:
        if holds_pointers(v.type):
            raise DifferentiationError(f"{describe(inst)}: stores a {v.type} mixing pointers and "
                                       "floating-point values; not supported in reverse mode yet")
        t = st.adjoint_type(v)
        d = b.load(t, sp, align=inst.align)
        b.store(zero(t), sp, inst.align)
        st.add_adjoint(b, v, d)
    else:
        b.store(zero(v.type), sp, inst.align)


def _select(st: ReverseState, b: Builder, inst: Instruction) -> None:
    if inst in st.active:
        d = st.take_adjoint(b, inst)
        c = st.primal(inst.operand(0))
        z = zero(d.type)
        st.add_adjoint(b, inst.operand(1), b.select(c, d, z))
        st.add_adjoint(b, inst.operand(2), b.select(c, z, d))


def _freeze(st: ReverseState, b: Builder, inst: Instruction) -> None:
    if inst in st.active:  # the identity on the values a derivative exists for
        st.add_adjoint(b, inst.operand(0), st.take_adjoint(b, inst))


def _extractvalue(st: ReverseState, b: Builder, inst: Instruction) -> None:
    assert isinstance(inst, ExtractValueInst)
    if inst in st.active:
        d = st.take_adjoint(b, inst)
        agg = inst.operand(0)
        st.add_adjoint(b, agg, b.insertvalue(zero(agg.type), d, inst.indices))


def _insertvalue(st: ReverseState, b: Builder, inst: Instruction) -> None:
    assert isinstance(inst, InsertValueInst)
    if inst in st.active:
        d = st.take_adjoint(b, inst)
        agg, val = inst.operands
        if val in st.active:
            st.add_adjoint(b, val, b.extractvalue(d, inst.indices))
        if agg in st.active:
            st.add_adjoint(b, agg, b.insertvalue(d, zero(val.type), inst.indices))


def _alloca(st: ReverseState, b: Builder, inst: Instruction) -> None:
    st.free_both(b, inst)  # the stack object moved to the heap, and its shadows


def _nothing(st: ReverseState, b: Builder, inst: Instruction) -> None:
    """Address arithmetic: shadows were computed in the augmented sweep, no adjoint flows."""


def _unsupported(st: ReverseState, b: Builder, inst: Instruction) -> None:
    if inst in st.active:
        raise DifferentiationError(f"{describe(inst)}: reverse mode does not support this instruction yet")


#: Instruction class -> its reverse handler.  Phis and terminators are the walk's (reverse.py), calls
#: reverse_calls.py's; an active instruction of a class not listed is refused.
REVERSE: dict[type, Handler] = {
    BinaryOperator: Handler(_arithmetic),
    UnaryOperator: Handler(_arithmetic),
    CastInst: Handler(_cast),
    LoadInst: Handler(_load),
    StoreInst: Handler(_store),
    SelectInst: Handler(_select),
    FreezeInst: Handler(_freeze),
    ExtractValueInst: Handler(_extractvalue),
    InsertValueInst: Handler(_insertvalue),
    ExtractElementInst: Handler(reverse_lane_instruction),
    InsertElementInst: Handler(reverse_lane_instruction),
    ShuffleVectorInst: Handler(reverse_lane_instruction),
    AllocaInst: Handler(_alloca, once=True),
    GEPInst: Handler(_nothing),
}


def reverse_instruction(st: ReverseState, b: Builder, inst: Instruction) -> None:
    """The reverse of a non-call instruction for every lane (each handler as its entry declares)."""
    h = handler_for(REVERSE, inst)
    if h is None:
        if inst in st.active:
            _unsupported(st, b, inst)
        return
    if h.once:
        h.run(st, b, inst)
        return
    for _ in st.lanes():
        h.run(st, b, inst)

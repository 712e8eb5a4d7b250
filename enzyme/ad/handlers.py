"""One table: each instruction class's forward, augmented and reverse handler.

The block walks (forward.py, reverse.py) look an instruction's class up in
:data:`INSTRUCTIONS` and run the part for their sweep; calls go through the
call classifier instead (call_kinds.py, forward_calls.py, reverse_calls.py).
A part runs once per batch lane (``st.lane`` is the lane) unless it says
``once``: then it runs at lane 0 and covers every lane itself.  A class
with no part for a sweep needs no code in that sweep; an active value of a
class not listed at all is refused.  Adding an instruction is one entry
here and its handlers in the family module (arith_insts.py,
memory_insts.py, value_insts.py, vectors.py).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import DifferentiationError
from ..ir import (AllocaInst, AtomicRMWInst, BinaryOperator, CastInst, CmpInst, ExtractElementInst, ExtractValueInst, FreezeInst,
                  GEPInst, InsertElementInst, InsertValueInst, Instruction, IntType, LoadInst, ReturnInst, SelectInst,
                  ShuffleVectorInst, StoreInst, UnaryOperator)
from ..ir.builder import Builder
from .arith_insts import (augment_cast, forward_arithmetic, forward_cast, reverse_arithmetic, reverse_cast,
                          unsupported)
from .common import carries_float, describe
from .forward_state import ForwardState
from .memory_insts import (augment_address, augment_alloca, augment_load, augment_store, forward_address,
                           forward_alloca, forward_atomic_update, forward_load, forward_store, reverse_alloca,
                           reverse_atomic_update, reverse_load, reverse_store)
from .reverse_state import ReverseState
from .value_insts import (augment_extractvalue, augment_insertvalue, augment_return, augment_select, forward_extract,
                          forward_insert, forward_return, forward_select, no_derivative, reverse_extractvalue,
                          reverse_freeze, reverse_insertvalue, reverse_select)
from .vectors import reverse_lane_instruction


@dataclass(frozen=True)
class Part:
    run: Callable[..., None]
    once: bool = False  # run at lane 0 only; the handler covers every lane itself


@dataclass(frozen=True)
class InstructionRules:
    """What each sweep does for one instruction class (None: nothing to do in that sweep)."""

    forward: Part | None = None    # (ForwardState, inst, clone, builder after the clone)
    augment: Part | None = None    # (ReverseState, inst, clone, builder after the clone)
    reverse: Part | None = None    # (ReverseState, builder in the reverse block, inst)


def _per_lane(run: Callable[..., None]) -> Part:
    return Part(run)


def _once(run: Callable[..., None]) -> Part:
    return Part(run, once=True)


INSTRUCTIONS: dict[type, InstructionRules] = {
    BinaryOperator: InstructionRules(_per_lane(forward_arithmetic), None, _per_lane(reverse_arithmetic)),
    UnaryOperator: InstructionRules(_per_lane(forward_arithmetic), None, _per_lane(reverse_arithmetic)),
    CmpInst: InstructionRules(_per_lane(no_derivative)),
    CastInst: InstructionRules(_per_lane(forward_cast), _per_lane(augment_cast), _per_lane(reverse_cast)),
    LoadInst: InstructionRules(_per_lane(forward_load), _per_lane(augment_load), _per_lane(reverse_load)),
    StoreInst: InstructionRules(_per_lane(forward_store), _per_lane(augment_store), _per_lane(reverse_store)),
    GEPInst: InstructionRules(_per_lane(forward_address), _per_lane(augment_address), None),
    AllocaInst: InstructionRules(_per_lane(forward_alloca), _per_lane(augment_alloca), _once(reverse_alloca)),
    SelectInst: InstructionRules(_per_lane(forward_select), _per_lane(augment_select), _per_lane(reverse_select)),
    # A frozen pointer (LLVM freezes the bounds of std::sort's loops) points where its operand does.
    FreezeInst: InstructionRules(_per_lane(forward_extract), _per_lane(augment_address), _per_lane(reverse_freeze)),
    ExtractValueInst: InstructionRules(_per_lane(forward_extract), _per_lane(augment_extractvalue),
                                       _per_lane(reverse_extractvalue)),
    InsertValueInst: InstructionRules(_per_lane(forward_insert), _per_lane(augment_insertvalue),
                                      _per_lane(reverse_insertvalue)),
    ExtractElementInst: InstructionRules(_per_lane(forward_extract), None, _per_lane(reverse_lane_instruction)),
    InsertElementInst: InstructionRules(_per_lane(forward_insert), None, _per_lane(reverse_lane_instruction)),
    ShuffleVectorInst: InstructionRules(_per_lane(forward_insert), None, _per_lane(reverse_lane_instruction)),
    ReturnInst: InstructionRules(_once(forward_return), _once(augment_return), None),
    AtomicRMWInst: InstructionRules(_per_lane(forward_atomic_update), None, _per_lane(reverse_atomic_update)),
}


def rules_for(inst: Instruction) -> InstructionRules | None:
    """The entry of ``inst``'s class, or of its nearest listed base class."""
    for cls in type(inst).__mro__:
        got = INSTRUCTIONS.get(cls)
        if got is not None:
            return got
    return None


def _run(part: Part, st: ForwardState | ReverseState, *args: Any) -> None:
    if part.once:
        part.run(st, *args)
        return
    for _ in st.lanes():
        part.run(st, *args)


def forward_instruction(st: ForwardState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    """The tangent code of a non-call, non-phi instruction for every lane."""
    rules = rules_for(inst)
    if rules is None or rules.forward is None:
        if not (inst.is_terminator or inst.opcode == "fence") and (
                any(st.tangent(v) is not None for v in inst.operands) or carries_float(inst.type)):
            raise DifferentiationError(f"{describe(inst)}: forward mode does not support this instruction yet")
        return
    if rules.forward.once:
        rules.forward.run(st, inst, ni, b)
        return
    for _ in st.lanes():
        rules.forward.run(st, inst, ni, b)
        mark_float_bits(st, inst)


def mark_float_bits(st: ForwardState, inst: Instruction) -> None:
    """An integer result computed from float bits (and given a tangent) holds float bits too."""
    if isinstance(inst.type, IntType) and inst not in st.float_bits and st.tangent(inst) is not None \
            and (any(v in st.float_bits for v in inst.operands) or st.holds_float_bits(inst)):
        st.mark_bits(inst, next((st.float_bits[v] for v in inst.operands if st.float_bits.get(v)), 0))


def augment_instruction(st: ReverseState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    """The augmented code of a non-call instruction for every lane."""
    rules = rules_for(inst)
    if rules is not None and rules.augment is not None:
        _run(rules.augment, st, inst, ni, b)


def reverse_instruction(st: ReverseState, b: Builder, inst: Instruction) -> None:
    """The reverse of a non-call, non-phi, non-terminator instruction for every lane."""
    rules = rules_for(inst)
    if rules is None or rules.reverse is None:
        if rules is None:
            unsupported(st, b, inst)  # refused if active
        return
    _run(rules.reverse, st, b, inst)

"""Counted innermost loops reserve their tape space once, before the loop.

An innermost loop whose trip count is known in its preheader (loop_plans.TripCount) and whose
iterations push at most a fixed number of bytes (no callee pushing onto the same tape) asks the
tape once, in the preheader, for ``trip count x bytes`` and pushes without a capacity check
inside: no compare-and-realloc branch per push, and slot addresses affine in the iteration.  A
count so large that the product would overflow reserves more than any allocator gives, so the
tape's realloc fails and the program aborts as it would have on the way.
"""
from __future__ import annotations

from ..ir import Block, CallInst, ConstantInt, Function, Module, Value
from ..ir.builder import Builder, InsertPoint, const_int
from ..ir.types import I64
from .loop_plans import LoopPlan
from .tape import TAPE_PUSH, TAPE_PUSH_RESERVED, TAPE_RESERVE

_HUGE = 1 << 62  # more bytes than any realloc grants


def reserve_loop_pushes(module: Module, loops: dict[Block, LoopPlan], fwd: dict[Value, Value], tape: Value) -> None:
    """Give each eligible loop (module docstring) one reservation and unchecked pushes."""
    reserve, push_reserved = module.get_function(TAPE_RESERVE), module.get_function(TAPE_PUSH_RESERVED)
    assert reserve is not None and push_reserved is not None
    for lp in loops.values():
        trip = lp.trip
        if trip is None or lp.loop.children:
            continue
        pushes = _loop_pushes(lp, fwd, tape)
        if not pushes:
            continue
        per_iteration = sum(_size(p) for p in pushes)
        pre = fwd[lp.preheader]
        assert isinstance(pre, Block)
        b = Builder(InsertPoint.before_terminator(pre))
        count = b.add(trip.last_iteration(b, fwd.get(trip.start, trip.start), fwd.get(trip.bound, trip.bound)),
                      const_int(I64, 1))
        too_many = b.icmp("ugt", count, const_int(I64, _HUGE // per_iteration))
        b.call(reserve, [tape, b.select(too_many, const_int(I64, _HUGE),
                                        b.mul(count, const_int(I64, per_iteration), flags=["nuw"]))])
        for p in pushes:
            p.set_operand(len(p.operands) - 1, push_reserved)  # the callee is a call's last operand


def _loop_pushes(lp: LoopPlan, fwd: dict[Value, Value], tape: Value) -> list[CallInst] | None:
    """The pushes onto ``tape`` in the loop's augmented blocks; None if a call there may push too."""
    out: list[CallInst] = []
    for blk in lp.loop.blocks:
        aug = fwd.get(blk)
        if not isinstance(aug, Block):
            return None
        for inst in aug.instructions:
            if not isinstance(inst, CallInst):
                continue
            callee = inst.called_function
            if isinstance(callee, Function) and callee.name == TAPE_PUSH:
                if inst.args[0] is tape:
                    if not isinstance(inst.args[1], ConstantInt):
                        return None
                    out.append(inst)
                continue  # the deferred frees' stack (another field of the tape) keeps its checks
            if any(a is tape for a in inst.args):
                return None  # a callee's augmented sweep pushes an amount not known here
    return out


def _size(push: CallInst) -> int:
    size = push.args[1]
    assert isinstance(size, ConstantInt)
    return size.value

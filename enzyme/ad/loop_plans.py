"""Counted loops in the reverse sweep: iteration counters instead of taped branch decisions.

A loop in simplified form (preheader, one latch, dedicated exits) gets an
iteration counter in the augmented sweep; its exits push the final count,
and the reverse sweep counts down to know when it is back at iteration 0.
The counter also lets the reverse sweep recompute induction variables
(``start + step * k``) instead of taping them (recompute.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..ir import BinaryOperator, Block, ConstantInt, Function, PhiInst, Value
from ..ir.cfg import Loop, LoopInfo
from ..ir.types import IntType


@dataclass(eq=False)
class LoopPlan:
    """A loop reversed with an iteration counter instead of taped branch decisions."""

    loop: Loop
    preheader: Block
    latch: Block
    exits: set[Block]
    counter: Value | None = None   # augmented: iteration number
    slot: Value | None = None      # reverse: current iteration number
    # Values defined before the loop that its reverse needs: pushed once at each exit (after the
    # counters), popped once in the exit's reverse into ``invariant_slots`` (recompute.py).
    invariants: list[Value] = field(default_factory=list)
    invariant_slots: dict[Value, Value] = field(default_factory=dict)

    @property
    def returns_inside(self) -> bool:
        """Can the function return from inside the loop (so that its reverse starts there, past no exit)?"""
        return any(b.terminator is not None and b.terminator.opcode in ("ret", "resume") for b in self.loop.blocks)


def plan_loops(fn: Function, order: list[Block]) -> dict[Block, LoopPlan]:
    """Loops in simplified form (preheader, one latch, dedicated exits), keyed by header."""
    reachable = set(order)
    out: dict[Block, LoopPlan] = {}
    for lp in LoopInfo(fn).all_loops:
        pre = lp.preheader
        if pre is None or len(lp.latches) != 1:
            continue
        header = lp.header
        if set(header.predecessors) != {pre, lp.latches[0]}:
            continue
        exits = set(lp.exit_blocks)
        if any(p not in lp.blocks for x in exits for p in x.predecessors if p in reachable):
            continue  # an exit block also reached from outside: not dedicated
        out[header] = LoopPlan(lp, pre, lp.latches[0], exits)
    return out


def affine_iv(phi: PhiInst, loops: dict[Block, LoopPlan]) -> tuple[LoopPlan, Value, int] | None:
    """``phi = start + step * iteration`` for a header phi of a counted loop with a constant integer step."""
    lp = loops.get(phi.parent) if phi.parent is not None else None
    if lp is None or not isinstance(phi.type, IntType):
        return None
    start = phi.value_for(lp.preheader)
    nxt = phi.value_for(lp.latch)
    if isinstance(nxt, BinaryOperator) and nxt.opcode in ("add", "sub"):
        a, b = nxt.operands
        if a is phi and isinstance(b, ConstantInt):
            return lp, start, b.value if nxt.opcode == "add" else -b.value
        if b is phi and isinstance(a, ConstantInt) and nxt.opcode == "add":
            return lp, start, a.value
    return None

"""Counted loops in the reverse sweep: iteration counters instead of taped branch decisions.

A loop in simplified form (preheader, one latch, dedicated exits) gets an
iteration counter in the augmented sweep; its exits push the final count,
and the reverse sweep counts down to know when it is back at iteration 0.
The counter also lets the reverse sweep recompute induction variables
(``start + step * k``) instead of taping them (recompute.py).

A loop that leaves only at its latch, on a comparison of an induction
variable stepping by one with a value defined before the loop, needs no
push: its trip count follows from the start and that bound (``TripCount``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..ir import BinaryOperator, Block, BranchInst, CallInst, CmpInst, ConstantInt, Function, Instruction, PhiInst, Value
from ..ir.builder import Builder, InsertPoint, const_int
from ..ir.types import I64, IntType
from ..ir.cfg import Loop, LoopInfo

#: The predicate that holds when ``a P b`` does not, and the one that holds for ``b P a``.
_INVERSE = {"eq": "ne", "ne": "eq", "slt": "sge", "sge": "slt", "sgt": "sle", "sle": "sgt",
            "ult": "uge", "uge": "ult", "ugt": "ule", "ule": "ugt"}
_SWAPPED = {"eq": "eq", "ne": "ne", "slt": "sgt", "sgt": "slt", "sle": "sge", "sge": "sle",
            "ult": "ugt", "ugt": "ult", "ule": "uge", "uge": "ule"}


@dataclass(frozen=True)
class TripCount:
    """The loop goes on while ``iv + step <predicate> bound``, ``iv`` starting at ``start`` (both defined
    before the loop), ``step`` being +1 or -1 and the loop leaving only at its latch."""

    start: Value
    bound: Value
    step: int
    predicate: str  # ne, slt, ult (step +1), sgt, ugt (step -1)

    def last_iteration(self, b: Builder, start: Value, bound: Value) -> Value:
        """The number of the last iteration (trip count - 1) as an i64, from ``start`` and ``bound``."""
        lo, hi = (start, bound) if self.step > 0 else (bound, start)
        if self.predicate == "ne":
            # The iterations until ``iv + step`` wraps around to the bound in the IV's width: 2^w when
            # start == bound (so compute count - 1 in that width before widening).
            last = b.sub(b.sub(hi, lo), const_int(start.type, 1))
            return last if start.type == I64 else b.cast("zext", last, I64)
        # A do-while: one iteration at least; no wrap (the step carries nsw/nuw for this predicate).
        pred = ("s" if self.predicate.startswith("s") else "u") + "gt"
        count = b.select(b.icmp(pred, hi, lo), b.sub(hi, lo), const_int(start.type, 1))
        wide = count if start.type == I64 else b.cast("zext", count, I64)
        return b.sub(wide, const_int(I64, 1))


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
    trip: TripCount | None = None  # set where the reverse sweep can compute the count instead of popping it

    @property
    def returns_inside(self) -> bool:
        """Can the function return from inside the loop (so that its reverse starts there, past no exit)?"""
        return any(b.terminator is not None and b.terminator.opcode in ("ret", "resume") for b in self.loop.blocks)


def plan_loops(fn: Function, order: list[Block]) -> dict[Block, LoopPlan]:
    """Loops in simplified form (preheader, one latch, dedicated exits), keyed by header."""
    reachable = set(order)
    out: dict[Block, LoopPlan] = {}
    for lp in LoopInfo(fn).all_loops:
        if lp.header not in reachable:
            continue  # a loop in code that is not differentiated (it cannot return: throws, aborts)
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
    for plan in out.values():
        plan.trip = _trip_count(plan, out)
    return out


def reserve_loop_tapes(loops: dict[Block, LoopPlan], fwd: dict[Value, Value], tape: Value, push: Function,
                       limit: int, reserve: Callable[[Builder, Value], None]) -> None:
    """Before each innermost counted loop whose trip count is known at its preheader, make room on the tape for
    every iteration's pushes at once (device code: one malloc per thread instead of a doubling series of
    malloc, copy and free, each of which thousands of threads contend for).  A capacity hint only: pushes of
    called derivatives still grow the tape as they go, and a count over ``limit`` bytes reserves nothing."""
    for lp in loops.values():
        if lp.trip is None or any(other is not lp and other.loop.header in lp.loop.blocks for other in loops.values()):
            continue
        per_iteration = 0
        for blk in lp.loop.blocks:
            clone = fwd.get(blk)
            for inst in clone.instructions if isinstance(clone, Block) else ():
                if isinstance(inst, CallInst) and inst.called_function is push and inst.args[0] is tape \
                        and isinstance(inst.args[1], ConstantInt):
                    per_iteration += inst.args[1].value
        preheader = fwd.get(lp.preheader)
        if per_iteration == 0 or not isinstance(preheader, Block):
            continue
        b = Builder(InsertPoint.before_terminator(preheader))
        trip = lp.trip
        count = b.add(trip.last_iteration(b, fwd.get(trip.start, trip.start), fwd.get(trip.bound, trip.bound)),
                      const_int(I64, 1))
        fits = b.icmp("ult", count, const_int(I64, limit // per_iteration))
        reserve(b, b.select(fits, b.mul(count, const_int(I64, per_iteration)), const_int(I64, 0), "tape.reserve"))


def _defined_before(v: Value, lp: Loop) -> bool:
    return not isinstance(v, Instruction) or (v.parent is not None and v.parent not in lp.blocks)


def _trip_count(plan: LoopPlan, loops: dict[Block, LoopPlan]) -> TripCount | None:
    """The loop's trip count as a function of values defined before it, where it has one (see TripCount)."""
    lp, latch = plan.loop, plan.latch
    br = latch.terminator
    if plan.returns_inside or lp.exiting_blocks != [latch] or not isinstance(br, BranchInst) \
            or not br.is_conditional or not isinstance(br.condition, CmpInst) or br.condition.opcode != "icmp":
        return None
    cmp = br.condition
    targets = br.successor_blocks()
    pred = cmp.predicate if targets[0] is lp.header else _INVERSE.get(cmp.predicate, "")  # goes on while ...
    for phi in lp.header.phis():
        iv = affine_iv(phi, loops)
        if iv is None or iv[2] not in (1, -1):
            continue
        nxt = phi.value_for(latch)
        a, b = cmp.operands
        if a is nxt:
            p, bound = pred, b
        elif b is nxt:
            p, bound = _SWAPPED.get(pred, ""), a
        else:
            continue
        if not _defined_before(bound, lp):
            continue
        flags = nxt.flags if isinstance(nxt, BinaryOperator) else []
        step = iv[2]
        if p == "ne" or (p == ("slt" if step > 0 else "sgt") and "nsw" in flags) \
                or (p == "ult" and step > 0 and "nuw" in flags) or (p == "ugt" and step < 0 and "nuw" in flags):
            return TripCount(iv[1], bound, step, p)
    return None


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

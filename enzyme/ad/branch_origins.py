"""Which predecessor a merge block was entered from, read off a branch the reverse sweep can recompute.

The reverse of a block with several predecessors must go back to the one the
forward trace came from.  In general the augmented sweep records it (a
``from`` phi pushed on the tape).  When the block's immediate dominator ``D``
ends in ``br c, T, F`` and each side leads to exactly one of the two
predecessors, the last execution of ``D`` before the block decided it, so
recomputing ``c`` in the reverse sweep gives the answer without a push: an
``if`` without ``else``, a diamond, a guard skipping an inner loop.

Each side ``S`` of the branch either is the merge block itself (its
predecessor is ``D``) or has ``D`` as its only predecessor and dominates
exactly one of the two predecessors: whatever runs between the last ``D`` and
the merge block then stays on that side.  ``D`` must lie in the same innermost
loop as the merge block (so ``c`` recomputed for the current iteration is the
value of that last execution), and the merge block must not be a loop header.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..ir import Block, BranchInst, Function, Value
from ..ir.cfg import DominatorTree, LoopInfo


@dataclass(frozen=True)
class DecidingBranch:
    """The trace entered the merge block from ``if_true`` when ``condition`` (primal) holds, else from
    ``if_false``."""

    condition: Value
    if_true: Block
    if_false: Block


class BranchOrigins:
    """Deciding branches of one function's merge blocks (see the module docstring)."""

    def __init__(self, fn: Function) -> None:
        self.dom = DominatorTree(fn)
        self.loops = LoopInfo(fn, self.dom)
        self.headers = {lp.header for lp in self.loops.all_loops}

    def deciding_branch(self, blk: Block, preds: list[Block]) -> DecidingBranch | None:
        if len(preds) != 2 or blk in self.headers:
            return None
        d = self.dom.immediate(blk)
        if d is None or self.loops.loop_of(d) is not self.loops.loop_of(blk):
            return None
        br = d.terminator
        if not isinstance(br, BranchInst) or not br.is_conditional:
            return None
        sides = [self._pred_through(d, s, blk, preds) for s in br.successor_blocks()]
        if sides[0] is None or sides[1] is None or sides[0] is sides[1]:
            return None
        return DecidingBranch(br.condition, sides[0], sides[1])

    def _pred_through(self, d: Block, side: Block, blk: Block, preds: list[Block]) -> Block | None:
        """The one predecessor of ``blk`` the trace reaches after ``d`` branched to ``side``, if only one."""
        if side is blk:
            return d if d in preds else None
        if side.predecessors != [d]:
            return None
        reached = [p for p in preds if self.dom.dominates(side, p)]
        return reached[0] if len(reached) == 1 else None

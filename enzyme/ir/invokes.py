"""Invokes whose exception a handler catches and carries on from, each made the only instruction of its block.

A derivative follows the path the primal took.  An ``invoke`` has two: the
normal one, and the unwind edge into a landing pad.  When the handler there
can reach a ``ret`` (``try { x = solve(); } catch (...) { x = fallback; }``)
the derivative keeps that edge, and the reverse sweep must know which way the
invoke went.  With the invoke alone in a block entered by an unconditional
branch, the reverse of the unwind edge is simply the reverse of the block
before it: nothing of the invoke's block ran to completion, its call is not
reversed, and what the block pushes on the tape it pushes after the call
returned normally.  Splitting a block this way changes nothing the program
computes.
"""
from __future__ import annotations

from .blocks import Block, Function
from .cfg import reachable
from .instructions import BranchInst, InvokeInst, PhiInst, ReturnInst


def returning_blocks(f: Function) -> set[Block]:
    """The blocks from which a ``ret`` can be reached, along any edge (normal or unwind)."""
    live = reachable(f)
    out = {b for b in live if isinstance(b.terminator, ReturnInst)}
    work = list(out)
    while work:
        for p in work.pop().predecessors:
            if p in live and p not in out:
                out.add(p)
                work.append(p)
    return out


def catching_invokes(f: Function) -> list[InvokeInst]:
    """The invokes of ``f`` whose landing pad can reach a ``ret``: an exception there is caught, and the
    function carries on.  (Landing pads that only clean up and resume are not followed by derivatives.)"""
    returning = returning_blocks(f)
    out = []
    for b in f.blocks:
        term = b.terminator
        if isinstance(term, InvokeInst) and b in returning and term.unwind_dest in returning:
            out.append(term)
    return out


def is_isolated(inv: InvokeInst) -> bool:
    """Is ``inv`` alone in its block, entered only by an unconditional branch from one predecessor?"""
    b = inv.parent
    assert b is not None and b.parent is not None
    if b is b.parent.entry or b.instructions != [inv]:
        return False
    preds = b.predecessors
    if len(preds) != 1:
        return False
    term = preds[0].terminator
    return isinstance(term, BranchInst) and not term.is_conditional


def isolate_catching_invokes(f: Function) -> int:
    """Move every catching invoke of ``f`` into a block of its own, reached by ``br`` from the rest of its old
    block (see the module docstring).  Returns how many blocks were split."""
    n = 0
    for inv in catching_invokes(f):
        if is_isolated(inv):
            continue
        b = inv.parent
        assert b is not None
        nb = f.insert_block_after(b, None)
        inv.remove_from_parent()
        nb.append(inv)
        b.append(BranchInst(nb))
        for succ in {inv.normal_dest, inv.unwind_dest}:
            retarget_phis(succ, b, nb)
        n += 1
    return n


def retarget_phis(block: Block, old: Block, new: Block) -> None:
    """The phis of ``block`` take from ``new`` what they took from ``old``."""
    for phi in block.phis():
        assert isinstance(phi, PhiInst)
        for i in range(1, len(phi.operands), 2):
            if phi.operands[i] is old:
                phi.set_operand(i, new)

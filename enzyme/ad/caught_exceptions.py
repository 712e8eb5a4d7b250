"""Exceptions caught inside a differentiated function: the derivative follows the path the primal took.

The driver made every invoke whose handler carries on (``try { x = solve(); }
catch (...) { x = fallback; }``) the only instruction of its block
(``ir/invokes.py``).  The walks clone it as a call followed by a branch, so
that every handler treats it as any call; the blocks of the handler are
differentiated like the rest of the function (the landing pad's values are
exception objects: inactive, as are the ``__cxa_*`` calls).  Once the
derivative is made, :func:`restore_invokes` turns the call standing for the
invoke (the callee's augmented sweep or tangent, or the primal call) back into
an invoke whose unwind edge leads to the handler's copy; what followed the
call in its block runs only on the normal edge.

Reverse mode records the way the invoke went as any branch (the handler's
copy is a successor like any other), and its reverse of the unwind edge goes
straight to the reverse of the block before the invoke: the call did not
complete, so it has no reverse.  What a callee's augmented sweep pushed on the
tape before the exception left it is dropped: the landing pad sets the tape's
top back to where it was before the invoke.
"""
from __future__ import annotations

import re

from ..errors import DifferentiationError
from ..ir import Block, CallInst, Function, Instruction, InvokeInst, PhiInst, Value
from ..ir.builder import Builder, InsertPoint, const_int
from ..ir.cfg import LoopInfo
from ..ir.invokes import catching_invokes, is_isolated, retarget_phis
from ..ir.types import I8, I64
from .common import describe


_PERSONALITY = re.compile(r"personality ptr (@[-\w.$]+|@\"[^\"]*\")")


def caught_invokes(fn: Function, order: list[Block]) -> list[InvokeInst]:
    """The invokes of ``fn`` the derivative keeps with their unwind edge (handlers in ``order``)."""
    inside = set(order)
    out = [inv for inv in catching_invokes(fn) if inv.parent in inside and inv.unwind_dest in inside]
    for inv in out:
        if not is_isolated(inv):
            raise DifferentiationError(f"{describe(inv)}: internal error: an invoke whose exception is caught in "
                                       f"@{fn.name} was not isolated in a block of its own; please report this")
    return out


def check_reversible(fn: Function, invokes: list[InvokeInst]) -> None:
    """Reverse mode: an exception caught outside the loop it was thrown in would leave the loop by an edge the
    loops' reverse does not count; refused."""
    if not invokes:
        return
    loops = LoopInfo(fn)
    for inv in invokes:
        lp = loops.loop_of(inv.parent)  # type: ignore[arg-type]
        if lp is not None and not lp.contains(inv.unwind_dest):
            raise DifferentiationError(
                f"{describe(inv)}: an exception thrown here is caught outside the loop it is thrown in, in "
                f"@{fn.name}; not supported in reverse mode (catch it inside the loop body)")


def unwind_reverse_target(pred: Block, blk: Block, caught: set[InvokeInst]) -> Block | None:
    """Reverse mode: where the reverse of the edge ``pred -> blk`` goes in the primal CFG when it is the
    unwind edge of a caught invoke (the invoke's only predecessor: the call has no reverse); else None."""
    term = pred.terminator
    if isinstance(term, InvokeInst) and term in caught and term.unwind_dest is blk:
        return pred.predecessors[0]
    return None


def restore_invokes(new: Function, invokes: list[InvokeInst], vmap: dict[Value, Value],
                    tape: Value | None = None) -> None:
    """Make each caught invoke's call in the derivative ``new`` an invoke again (see the module docstring);
    ``tape``: the augmented sweep's tape, whose top the landing pad restores."""
    saved: dict[Block, list[tuple[Value, Block]]] = {}
    if invokes and "personality" not in new.suffix:  # the landing pads' copies need the primal's personality
        found = _PERSONALITY.search(invokes[0].function.suffix if invokes[0].function else "")
        assert found is not None, "a function with landing pads has a personality"
        new.suffix = f"{new.suffix} {found.group(0)}".strip()
    for inv in invokes:
        nb = vmap[inv.parent]  # type: ignore[index]
        nl = vmap[inv.unwind_dest]
        assert isinstance(nb, Block) and isinstance(nl, Block)
        call = _standing_call(inv, nb)
        cont = new.insert_block_after(nb, None)
        rest = nb.instructions[nb.instructions.index(call) + 1:]
        for i in rest:
            i.remove_from_parent()
            cont.append(i)
        for s in cont.successors:
            retarget_phis(s, nb, cont)
        if tape is not None:
            b = Builder(InsertPoint.before_inst(call))
            top = b.load(I64, b.gep(I8, tape, [const_int(I64, 8)], inbounds=True), align=8)
            saved.setdefault(nl, []).append((top, nb))
        ops = call.operands
        args = list(ops[:call.n_args])
        k, bundles = call.n_args, []
        for tag, n in call.bundles:
            bundles.append((tag, ops[k:k + n]))
            k += n
        ni = InvokeInst(call.function_type, call.callee, args, cont, nl, arg_attrs=call.arg_attrs,
                        flags=call.flags, prefix=call.prefix, fn_attrs=call.fn_attrs, bundles=bundles)
        ni.metadata = list(call.metadata)
        name = call.name
        nb.append(ni)
        call.replace_all_uses_with(ni)
        call.erase()
        ni.name = name
    for nl, tops in saved.items():
        phi = PhiInst(I64, tops)
        nl.insert(0, phi)
        b = Builder(InsertPoint(nl, nl.instructions[nl.first_non_phi_index()]))
        b.store(phi, b.gep(I8, tape, [const_int(I64, 8)], inbounds=True), align=8)  # type: ignore[arg-type]


def _standing_call(inv: InvokeInst, nb: Block) -> CallInst:
    """The call in ``nb`` that does what ``inv`` did: the first call there, with nothing before it that has an
    effect.  Anything else is refused rather than guessed."""
    for i in nb.instructions:
        if isinstance(i, CallInst) and not isinstance(i, InvokeInst):
            callee = i.called_function
            if callee is None or callee is inv.called_function or not callee.is_declaration:
                return i
            break
        if _has_effect(i):
            break
    where = inv.function.name if inv.function is not None else "?"
    raise DifferentiationError(f"{describe(inv)}: an exception thrown here is caught in @{where}, "
                               "but its derivative code is not a single call that can unwind to the handler; "
                               "not supported yet (catch the exception outside the differentiated function)")


def _has_effect(i: Instruction) -> bool:
    return i.opcode in ("store", "call", "invoke", "atomicrmw", "cmpxchg", "fence") or i.is_terminator

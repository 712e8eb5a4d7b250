"""Pointer phis and selects that merge only pointers without a shadow get none either.

A pointer returned by an inactive call (``std::use_facet``, a stream's buffer)
has no shadow: nothing differentiated reads or writes through it.  A phi or
select merging only such pointers (and null/undef) points to the same inactive
memory, so it gets no shadow (tangent) either, and what uses it stays inactive
(``std::endl``'s indirect ``ctype::do_widen`` call at -O2).  A shadow built from
the incoming pointers' missing shadows would be null: loads through it would
read address zero, and calls given it would count as active.

The answer is an optimistic fixed point: every pointer phi and select starts
shadowless and leaves the set as soon as one of its incoming values may have a
shadow.  Anything but a shadowless merge, an inactive call, a null/undef
constant, a global or an argument without a shadow (``std::cout``, an
``enzyme_const`` array: globals and arguments get theirs before the walk), and
an address computed from one of those (a GEP or cast: the pointer walking a
constant array in ``std::inner_product``'s loop) may have one.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

from ..ir import (Argument, CallInst, CastInst, ConstantKeyword, GEPInst, GlobalVariable, Instruction, PhiInst,
                  SelectInst, Value)
from .aggregate_shadows import holds_pointers
from .call_kinds import CallKind


def shadowless_merges(insts: Iterable[Instruction], kind_of: Callable[[CallInst], CallKind],
                      live: Callable[[PhiInst], Iterable[Value]],
                      shadowed: Callable[[Value], bool]) -> set[Instruction]:
    """The pointer phis and selects of ``insts`` whose every incoming value has no shadow.

    ``kind_of`` classifies a call; ``live(phi)`` are the phi's incoming values on edges that are differentiated;
    ``shadowed(v)``: does global or argument ``v`` have a shadow?
    """
    merges = [i for i in insts if isinstance(i, (PhiInst, SelectInst)) and holds_pointers(i.type)]
    out: set[Instruction] = set(merges)

    def leaf(v: Value) -> bool:
        if v in out:
            return True
        if isinstance(v, ConstantKeyword):
            return v.keyword in ("null", "undef", "poison")
        if isinstance(v, (GlobalVariable, Argument)):
            return not shadowed(v)
        if isinstance(v, GEPInst) or isinstance(v, CastInst) and v.opcode in ("bitcast", "addrspacecast"):
            return leaf(v.operand(0))
        return isinstance(v, CallInst) and kind_of(v) is CallKind.INACTIVE

    changed = True
    while changed:
        changed = False
        for m in merges:
            if m not in out:
                continue
            incoming = list(live(m)) if isinstance(m, PhiInst) else [m.operand(1), m.operand(2)]
            if not all(leaf(v) for v in incoming):
                out.discard(m)
                changed = True
    return out

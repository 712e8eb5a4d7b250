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
``enzyme_const`` array: globals and arguments get theirs before the walk), an
address computed from one of those (a GEP or cast: the pointer walking a
constant array in ``std::inner_product``'s loop), a pointer loaded through a
shadowless merge (the rows of a ``&[&[f64]]`` walked by a loop over a constant
slice) and a landing pad's exception object may have one.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

from ..ir import (AllocaInst, Argument, CallInst, CastInst, CmpInst, ConstantKeyword, ExtractValueInst, GEPInst,
                  GlobalVariable, Instruction, LandingPadInst, LoadInst, Module, PhiInst, SelectInst, StoreInst, Value)
from .aggregate_shadows import holds_pointers
from ..rules.names import proxy_parts
from .call_kinds import CallKind, CallSite
from .custom import custom_rules


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
        if isinstance(v, LandingPadInst):  # an exception object and its type's number: inactive
            return True
        if isinstance(v, (GEPInst, ExtractValueInst)) or \
                isinstance(v, CastInst) and v.opcode in ("bitcast", "addrspacecast"):
            return leaf(v.operand(0))
        if isinstance(v, LoadInst) and isinstance(v.pointer, (PhiInst, SelectInst)):
            return v.pointer in out  # read through a shadowless merge: no shadow to read the pointer's from
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


#: Calls whose pointer arguments' shadows nothing differentiated would use: a local passed to them may have none.
_SHADOW_FREE_KINDS = (CallKind.INACTIVE, CallKind.UNKNOWN, CallKind.INDIRECT, CallKind.LIFETIME)


def plain_allocation(i: Instruction, site_of: Callable[[CallInst], CallSite], module: Module) -> bool:
    """Is ``i`` a stack object, or a heap block of malloc's family (not a user's allocation_like allocator)?"""
    if isinstance(i, AllocaInst):
        return True
    if not isinstance(i, CallInst):
        return False
    site = site_of(i)
    mf = site.memory
    return mf is not None and mf.out is None and mf.kind.value in ("alloc", "calloc") \
        and proxy_parts(site.name or "") is None and custom_rules(module).allocation(i) is None


def stays_out_of_derivatives(alloca: Instruction, site_of: Callable[[CallInst], CallSite]) -> bool:
    """Does the address of ``alloca`` (a stack object or heap block; through GEPs and casts) only serve loads,
    stores into it (a string's pointer to its own buffer too), comparisons, calls of library functions and
    calls through pointers, input calls (``istream::read``), ``free`` and copies into it from constants
    (``const char s[] = "..."``)?  One that activity analysis proves inactive may then go without a shadow.
    One passed to a differentiated callee, stored elsewhere or merged with other pointers keeps its shadow: the
    callee's derivative would see it as constant memory beside shadowed pointers, and refuse what it copies or
    selects there (``std::max`` of two locals, ``memcpy`` of integers into a work array)."""
    work: list[Value] = [alloca]
    seen: set[Value] = set(work)
    into: list[Value] = []  # where its address is stored: only into itself (a string's pointer to its own buffer)
    while work:
        v = work.pop()
        for u in v.uses:
            user = u.user
            if isinstance(user, (LoadInst, CmpInst)):
                continue
            if isinstance(user, StoreInst) and (user.pointer is v) != (user.value is v):
                if user.value is v:
                    into.append(user.pointer)
                continue
            if isinstance(user, CallInst) and user.callee is not v and _shadow_free_call(user, v, seen, site_of):
                continue
            if isinstance(user, (GEPInst, CastInst)) and user.operand(0) is v and holds_pointers(user.type):
                if user not in seen:
                    seen.add(user)
                    work.append(user)
                continue
            return False
    return all(p in seen for p in into)


def _shadow_free_call(call: CallInst, v: Value, seen: set[Value], site_of: Callable[[CallInst], CallSite]) -> bool:
    site = site_of(call)
    if site.kind in _SHADOW_FREE_KINDS:
        return True
    mf = site.memory
    if site.kind is not CallKind.MEMORY or mf is None:
        return False
    if mf.kind.value in ("input", "free"):  # data read from a stream (into it, or by it): constant
        return True
    if mf.kind.value not in ("copy", "move", "set"):
        return False
    return all(a in seen or not holds_pointers(a.type) or (isinstance(a, GlobalVariable) and a.is_constant)
               for a in call.args)

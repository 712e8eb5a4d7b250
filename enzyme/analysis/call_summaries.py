"""Call summaries for activity analysis: what a function's return value may depend on.

Activity analysis analyses a callee once for all its calls; to keep a call with
constant arguments constant, each call asks which arguments (by index) and
whether memory the callee's result depends on.  A small flow-insensitive taint
analysis answers: loads read all memory (except private stack slots, which -O0
code keeps every local in), stores taint all memory, calls use their callee's
summary.
"""
from __future__ import annotations

from ..ir import (AllocaInst, AtomicRMWInst, CallInst, CmpXchgInst, DebugRecord, Function, Instruction, LoadInst,
                  OpaqueInst, ReturnInst, StoreInst, VAArgInst, Value)
from . import known_functions as known
from .memory_objects import type_has_pointer


MEMORY = "memory"
ALL_DEPS = frozenset({MEMORY, *range(64)})


def return_dependencies(functions: list[Function]) -> dict[Function, frozenset]:
    """For each function, which arguments (by index) and whether memory its return value may depend on.

    A flow-insensitive taint analysis: stored values taint all memory, loads
    read all memory; calls use the callee's summary (unknown callees: all).
    """
    deps: dict[Function, frozenset] = {g: frozenset() for g in functions}
    # A function's summary depends on those of its callees among ``functions`` only: after the first round, only
    # the callers of a function whose summary changed are analysed again.
    callees = {g: {c for inst in g.instructions() if isinstance(inst, CallInst)
                   and (c := inst.called_function) is not None and c in deps} for g in functions}
    again = list(functions)
    while again:
        changed = set()
        for g in again:
            new = _taint(g, deps)
            if new != deps[g]:
                deps[g] = new
                changed.add(g)
        again = [g for g in functions if not changed.isdisjoint(callees[g])]
    return deps


def _private_slots(g: Function) -> set[Instruction]:
    """Allocas only ever loaded from and stored to directly (-O0 keeps every local in one)."""
    slots: set[Instruction] = set()
    for inst in g.instructions():
        if not isinstance(inst, AllocaInst):
            continue
        ok = True
        for use in inst.uses:
            u = use.user
            if isinstance(u, (LoadInst, DebugRecord)) or (isinstance(u, StoreInst) and use.index == 1):
                continue
            if isinstance(u, CallInst) and u.called_function is not None and \
                    known.call_kind(u.called_function.name) == "inactive":
                continue  # lifetime markers, debug intrinsics
            ok = False
            break
        if ok:
            slots.add(inst)
    return slots


def _taint(g: Function, deps: dict[Function, frozenset]) -> frozenset:
    taint: dict[Value, frozenset] = {a: frozenset({a.index}) for a in g.args}
    slots = _private_slots(g)
    slot_taint: dict[Value, frozenset] = {}
    mem: frozenset = frozenset({MEMORY})
    empty: frozenset = frozenset()
    changed = True
    result: frozenset = empty
    while changed:
        changed = False
        for inst in g.instructions():
            t: frozenset = empty
            for o in inst.operands:
                t = t | taint.get(o, empty)
            if isinstance(inst, LoadInst) and inst.pointer in slots:
                t = slot_taint.get(inst.pointer, empty)
            elif isinstance(inst, StoreInst) and inst.pointer in slots:
                old = slot_taint.get(inst.pointer, empty)
                new = old | taint.get(inst.value, empty)
                if new != old:
                    slot_taint[inst.pointer] = new
                    changed = True
                continue
            elif isinstance(inst, (LoadInst, VAArgInst)):
                t = t | mem
            elif isinstance(inst, (StoreInst, AtomicRMWInst, CmpXchgInst)):
                if not t <= mem:
                    mem = mem | t
                    changed = True
                t = t | mem if isinstance(inst, (AtomicRMWInst, CmpXchgInst)) else t
            elif isinstance(inst, (CallInst, OpaqueInst)):
                t, stored = _call_taint(inst, taint, deps, mem)
                if not stored <= mem:  # what the call may store anywhere
                    mem = mem | stored
                    changed = True
            if isinstance(inst, ReturnInst):
                result = result | t
                continue
            if t and not t <= taint.get(inst, empty):
                taint[inst] = t | taint.get(inst, empty)
                changed = True
    return result


def _call_taint(inst: Instruction, taint: dict[Value, frozenset], deps: dict[Function, frozenset],
                mem: frozenset) -> tuple[frozenset, frozenset]:
    """(taint of the result, taint the call may store into memory)."""
    empty: frozenset = frozenset()
    callee = inst.called_function if isinstance(inst, CallInst) else None
    kind = known.call_kind(callee.name) if callee is not None else "unknown"
    args = inst.args if isinstance(inst, CallInst) else inst.operands
    everything = empty
    for a in args:
        everything = everything | taint.get(a, empty)
    if kind == "unknown" and known.pure_intrinsic(callee, args):
        kind = "rule"
    if kind in ("inactive", "alloc", "calloc", "realloc", "free", "copy", "set"):
        return empty, empty  # no float result; copies move memory that is tainted already
    if kind == "rule":
        if any(type_has_pointer(a.type) for a in args):  # sincos, modf: write through pointers
            return everything | mem, everything
        return everything, empty
    if callee is not None and callee in deps and kind == "unknown":
        d = deps[callee]
        t = empty
        for i in d:
            if isinstance(i, int) and i < len(args):
                t = t | taint.get(args[i], empty)
        if MEMORY in d:
            t = t | mem
        return t, everything  # the callee may store its arguments anywhere
    return everything | mem, everything

"""Loads the reverse sweep may re-read instead of taping: memory nothing can write after the load.

At the top level the augmented and reverse sweeps run back to back and the
augmented sweep frees nothing (frees are deferred to the end of the reverse
sweep, memory_calls.py), so a load still reads the value it read in the
augmented sweep if no instruction that may write its memory can run after
it.  "After" is CFG reachability (a later instruction of the same block, or
any block reachable from the load's block, the block itself included when
it lies on a cycle); "may write its memory" compares underlying objects:

* a block allocated in the function (malloc, calloc...) or a global is a
  distinct object from every other one and from what an argument points to;
* two arguments are distinct only when one of them is ``noalias``;
* a store through a pointer of unknown origin, or a call that may write
  memory (anything but math functions, allocators, frees and the memory
  functions whose destination is known), may write anything.

Loads from stack objects are never re-read: the augmented sweep's allocas
are gone when the reverse sweep runs.

Restored stores.  A function that reads its inputs in loops and then writes
its result through an argument (``*err = ...``) would tape every input it
read, since the result pointer may alias them.  A store that runs at most
once per call (on no cycle, on every path to a return) of a float through an
argument's address instead keeps the value it overwrites (one slot of the
frame record): the reverse sweep puts those values back at its entry, last
store first, and writes the stored values again at its end.  In between,
memory is as it was before those stores, so a load they follow may be
re-read; a load that one of them precedes and may alias saw the stored
value, and stays taped.
"""
from __future__ import annotations

from collections.abc import Callable

from ..ir import (AllocaInst, Argument, Block, CallInst, CastInst, Constant, Function, GEPInst, GlobalVariable,
                  Instruction, LoadInst, PhiInst, ReturnInst, SelectInst, StoreInst, Value)
from ..ir.builder import Builder, InsertPoint
from ..ir.cfg import DominatorTree
from ..ir.types import FloatType, PointerType, Type
from ..rules import lookup
from ..rules.memory import MemoryKind, lookup_memory

#: Underlying objects a pointer may point into; None: unknown (anything).
Bases = frozenset[Value] | None

_HARMLESS_INTRINSICS = ("llvm.lifetime.", "llvm.assume", "llvm.dbg.", "llvm.experimental.noalias.scope.decl")


def _fresh_allocation(v: Value) -> bool:
    if not isinstance(v, CallInst):
        return False
    mf = lookup_memory(v.callee_name or "")
    return mf is not None and mf.kind in (MemoryKind.ALLOC, MemoryKind.CALLOC) and mf.out is None


def underlying_objects(p: Value) -> Bases:
    """The objects ``p`` may point into (through GEPs, casts, phis and selects), or None if unknown."""
    out: set[Value] = set()
    seen: set[Value] = set()
    work = [p]
    while work:
        v = work.pop()
        if v in seen:
            continue
        seen.add(v)
        if isinstance(v, GEPInst):
            work.append(v.operand(0))
        elif isinstance(v, CastInst) and v.opcode in ("bitcast", "addrspacecast"):
            work.append(v.operand(0))
        elif isinstance(v, PhiInst):
            work.extend(x for x, _ in v.incoming)
        elif isinstance(v, SelectInst):
            work.extend((v.operand(1), v.operand(2)))
        elif isinstance(v, (Argument, GlobalVariable, AllocaInst)) or _fresh_allocation(v):
            out.add(v)
        else:
            return None
    return frozenset(out)


def _distinct(a: Value, b: Value) -> bool:
    """Can objects ``a`` and ``b`` (underlying objects, see above) never overlap?"""
    if a is b:
        return False
    if isinstance(a, Argument) and isinstance(b, Argument):
        return "noalias" in a.attrs.split() or "noalias" in b.attrs.split()
    if isinstance(a, Argument) or isinstance(b, Argument):
        arg, other = (a, b) if isinstance(a, Argument) else (b, a)
        assert isinstance(arg, Argument)
        return not isinstance(other, GlobalVariable) or "noalias" in arg.attrs.split()
    return True  # two globals, stack objects or fresh blocks


def _written(inst: Instruction) -> Bases | bool:
    """What ``inst`` may write: its objects (None: anything), or False when it writes nothing."""
    if isinstance(inst, StoreInst):
        return underlying_objects(inst.pointer)
    if inst.opcode in ("atomicrmw", "cmpxchg"):
        return underlying_objects(inst.operand(0))
    if inst.opcode in ("va_arg", "callbr"):
        return None
    if not isinstance(inst, CallInst):
        return False
    name = inst.callee_name or ""
    if name.startswith(_HARMLESS_INTRINSICS):
        return False
    if lookup(name) is not None and not any(isinstance(a.type, PointerType) for a in inst.args):
        return False  # a math function computing only its result
    mf = lookup_memory(name)
    if mf is None or mf.kind is MemoryKind.REALLOC:
        return None
    if mf.kind is MemoryKind.FREE:
        return False  # deferred to the end of the reverse sweep
    if mf.out is not None:
        return underlying_objects(inst.args[mf.out])
    if mf.dst is not None:
        return underlying_objects(inst.args[mf.dst])
    return False  # an allocator: only its own new block


class RereadableLoads:
    """Which loads of one function the reverse sweep of a top-level call may re-read (module docstring)."""

    def __init__(self, fn: Function, acyclic: set[Block] | None = None) -> None:
        self.writers: list[tuple[Instruction, Bases]] = []
        for inst in fn.instructions():
            w = _written(inst)
            if w is not False:
                self.writers.append((inst, w))  # type: ignore[arg-type]
        self._position = {inst: i for blk in fn.blocks for i, inst in enumerate(blk.instructions)}
        self._reach: dict[Block, set[Block]] = {}
        self._memo: dict[LoadInst, bool] = {}
        #: The restored stores (module docstring), in the order they run.
        self.restored: list[StoreInst] = _restorable(self, fn, acyclic) if acyclic else []
        self._restored = set(self.restored)

    def reached_from(self, blk: Block) -> set[Block]:
        """Blocks reachable from ``blk`` along at least one edge."""
        got = self._reach.get(blk)
        if got is None:
            got = set()
            work = list(blk.successors)
            while work:
                b = work.pop()
                if b not in got:
                    got.add(b)
                    work.extend(b.successors)
            self._reach[blk] = got
        return got

    def allows(self, load: LoadInst) -> bool:
        got = self._memo.get(load)
        if got is None:
            got = self._decide(load)
            self._memo[load] = got
        return got

    def _decide(self, load: LoadInst) -> bool:
        if load.volatile or load.atomic or load.parent is None:
            return False
        objects = underlying_objects(load.pointer)
        if not objects or any(isinstance(o, AllocaInst) for o in objects):
            return False
        for w, written in self.writers:
            if w in self._restored:
                if self.runs_before(w, load) and _may_alias(objects, written):
                    return False  # the load saw the stored value; the reverse sweep sees the one before
            elif self.runs_before(load, w) and _may_alias(objects, written):
                return False
        return True

    def runs_before(self, a: Instruction, b: Instruction) -> bool:
        """Can ``b`` run after ``a`` (in the same call)?"""
        ab, bb = a.parent, b.parent
        if ab is None or bb is None:
            return False
        return bb in self.reached_from(ab) or (ab is bb and self._position[b] > self._position[a])

    def blockers(self, load: LoadInst, objects: frozenset[Value]) -> list[Instruction]:
        """The writers that may run after ``load`` and write its memory."""
        return [w for w, written in self.writers if self.runs_before(load, w) and _may_alias(objects, written)]


def _may_alias(objects: frozenset[Value], written: Bases) -> bool:
    return written is None or not all(_distinct(o, x) for o in objects for x in written)


def _argument_address(p: Value) -> bool:
    """Is ``p`` an argument, or constant offsets from one (rebuilt at the reverse sweep's entry)?"""
    while isinstance(p, GEPInst):
        if not all(isinstance(i, Constant) for i in p.operands[1:]):
            return False
        p = p.operand(0)
    return isinstance(p, Argument)


def _restorable(loads: RereadableLoads, fn: Function, acyclic: set[Block]) -> list[StoreInst]:
    """The stores to restore (module docstring): those that alone keep a load on a cycle from being re-read,
    unless restoring one would keep another load on a cycle that is re-read now from being so."""
    candidates = {w for w, written in loads.writers
                  if isinstance(w, StoreInst) and w.parent in acyclic and not (w.volatile or w.atomic)
                  and isinstance(w.value.type, FloatType) and written
                  and all(isinstance(o, Argument) for o in written) and _argument_address(w.pointer)}
    if not candidates:
        return []
    in_cycles = [(ld, objs) for ld in fn.instructions() if isinstance(ld, LoadInst) and ld.parent not in acyclic
                 and not (ld.volatile or ld.atomic) and (objs := underlying_objects(ld.pointer))
                 and not any(isinstance(o, AllocaInst) for o in objs)]
    chosen: set[Instruction] = set()
    free: list[tuple[LoadInst, frozenset[Value]]] = []  # re-read without restoring anything
    for ld, objs in in_cycles:
        blockers = loads.blockers(ld, objs)
        if not blockers:
            free.append((ld, objs))
        elif all(w in candidates for w in blockers):
            chosen.update(blockers)
    if not chosen:
        return []
    returns = [b for b in fn.blocks if isinstance(b.terminator, ReturnInst)]
    dt = DominatorTree(fn)
    kept = [s for s in chosen if isinstance(s, StoreInst) and s.parent is not None
            and all(dt.dominates(s.parent, r) for r in returns)
            and not any(loads.runs_before(s, ld) and _may_alias(objs, underlying_objects(s.pointer))
                        for ld, objs in free)]

    def depth(s: StoreInst) -> tuple[int, int]:
        d, b = 0, s.parent
        while b is not None:
            b = dt.immediate(b)
            d += 1
        return d, loads._position[s]
    return sorted(kept, key=depth)  # on every path to a return: they lie on one chain of dominators


def restore_stores(stores: list[StoreInst], fwd: dict[Value, Value], keep: Callable[[Builder, Builder, Value, Type], Value], rev: Function, rentry: Block,
                   exit_block: Block) -> None:
    """Emit what the module docstring describes: in the augmented sweep, keep the value each store
    overwrites (``keep(augmented builder, reverse builder, value, type)`` gives it back in the reverse
    sweep); at the reverse sweep's entry, put them back, last store first; at its exit, store again
    what was there."""
    if not stores:
        return
    eb = Builder(InsertPoint.before_terminator(rentry))
    again: list[tuple[Value, Value, int | None]] = []
    for s in reversed(stores):
        aug = fwd[s]
        assert isinstance(aug, StoreInst)
        t = s.value.type
        ab = Builder(InsertPoint.before_inst(aug))
        old = keep(ab, eb, ab.load(t, aug.pointer, align=s.align), t)
        p = _rebuild(eb, s.pointer, fwd, rev)
        again.append((p, eb.load(t, p, align=s.align), s.align))
        eb.store(old, p, s.align)
    xb = Builder(InsertPoint.before_terminator(exit_block))
    for p, v, align in reversed(again):
        xb.store(v, p, align)


def _rebuild(b: Builder, p: Value, fwd: dict[Value, Value], rev: Function) -> Value:
    if isinstance(p, Argument):
        a = fwd[p]
        assert isinstance(a, Argument)
        return rev.args[a.index]
    assert isinstance(p, GEPInst)
    base = _rebuild(b, p.operand(0), fwd, rev)
    return b.insert(p.clone(lambda v: base if v is p.operand(0) else v))

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
"""
from __future__ import annotations

from ..ir import (AllocaInst, Argument, Block, CallInst, CastInst, Function, GEPInst, GlobalVariable, Instruction,
                  LoadInst, PhiInst, SelectInst, StoreInst, Value)
from ..ir.types import PointerType
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

    def __init__(self, fn: Function) -> None:
        self.writers: list[tuple[Instruction, Bases]] = []
        for inst in fn.instructions():
            w = _written(inst)
            if w is not False:
                self.writers.append((inst, w))  # type: ignore[arg-type]
        self._position = {inst: i for blk in fn.blocks for i, inst in enumerate(blk.instructions)}
        self._reach: dict[Block, set[Block]] = {}
        self._memo: dict[LoadInst, bool] = {}

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
        blk = load.parent
        later = self.reached_from(blk)
        position = self._position[load]
        for w, written in self.writers:
            wb = w.parent
            if wb is None or not (wb in later or (wb is blk and self._position[w] > position)):
                continue
            if written is None or not all(_distinct(o, x) for o in objects for x in written):
                return False
        return True

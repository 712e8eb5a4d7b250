"""The frame record: fixed slots for what the blocks outside every cycle hand to the reverse sweep.

A block on no cycle of the primal CFG runs at most once per call, so each value its reverse block
needs (a "need" of recompute.py that is neither recomputed nor loop-invariant) gets a fixed offset
in a record local to the augmented frame: an ``alloca`` that LLVM's SROA turns back into
registers.  The whole record goes onto the tape in one push just before each return of the
augmented sweep -- after everything else the call pushed -- and the reverse sweep pops it as the
first thing at its entry and reads every value from its slot.  Values of blocks on cycles keep
their own pushes on the growing tape; both stacks are read in the mirror order of the forward
trace, so they stay independent.

Straight-line code then costs one tape push and one pop per call instead of one per value: each
push inlines a capacity check and a ``realloc`` branch, which made the derivative of a large
straight-line function many times the size of its input and LLVM superlinear on it.
"""
from __future__ import annotations

from ..analysis.layout import DataLayout
from ..ir import Block, Function, Module, Type, Value
from ..ir.builder import Builder, InsertPoint, const_int
from ..ir.instructions import AllocaInst, Instruction, LoadInst, PhiInst, ReturnInst
from ..ir.types import I1, I8, I64, PTR, VOID, ArrayType, FunctionType
from .common import carries_float
from .tape import slot_size, tape_functions

_MEMCPY = "llvm.memcpy.p0.p0.i64"


def blocks_on_no_cycle(order: list[Block]) -> set[Block]:
    """The blocks of ``order`` (a function's blocks, entry first) that lie on no cycle among them."""
    index: dict[Block, int] = {}
    low: dict[Block, int] = {}
    stack: list[Block] = []
    on_stack: set[Block] = set()
    inside = set(order)
    acyclic: set[Block] = set()
    counter = 0
    # Tarjan's strongly connected components, iteratively (functions can have thousands of blocks).
    for root in order:
        if root in index:
            continue
        work: list[tuple[Block, list[Block]]] = []

        def enter(b: Block) -> None:
            nonlocal counter
            index[b] = low[b] = counter
            counter += 1
            stack.append(b)
            on_stack.add(b)
            work.append((b, [s for s in b.successors if s in inside]))

        enter(root)
        while work:
            b, succs = work[-1]
            if succs:
                s = succs.pop()
                if s not in index:
                    enter(s)
                elif s in on_stack:
                    low[b] = min(low[b], index[s])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[b])
            if low[b] == index[b]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w is b:
                        break
                if len(component) == 1 and b not in b.successors:
                    acyclic.add(b)
    return acyclic


class FrameRecord:
    """The record of one augmented/reverse pair (see the module docstring)."""

    def __init__(self, module: Module, aug: Function, rev: Function, layout: DataLayout, acyclic: set[Block],
                 acyclic_augmented: set[Block]) -> None:
        self.module, self.aug, self.rev, self.layout = module, aug, rev, layout
        self.acyclic = acyclic                      # primal blocks
        self.acyclic_augmented = acyclic_augmented  # their clones in the augmented sweep
        self.size = 0
        self.aug_record: AllocaInst | None = None
        self.rev_record: AllocaInst | None = None
        self.value_offsets: dict[Value, int] = {}

    def holds(self, blk: Block) -> bool:
        """Do the needs of primal block ``blk`` go into the record?"""
        return blk in self.acyclic

    def defined_once(self, av: Value) -> bool:
        """Is augmented value ``av`` defined at most once per call (so one slot holds it for the whole reverse)?"""
        return isinstance(av, Instruction) and not av.is_terminator and av.parent in self.acyclic_augmented

    def prefers(self, av: Value) -> bool:
        """Should the reverse read ``av`` from the record rather than recompute it?  Floating-point results
        defined once: recomputing repeats their whole chain in every reverse block that needs them, while the
        slot costs nothing once LLVM inlines both sweeps into one function and SROA keeps it in a register.
        Addresses, integers and loads stay recomputed (cheap, and they keep the record small)."""
        return self.defined_once(av) and carries_float(av.type) and not isinstance(av, LoadInst)

    def value(self, av: Value, rb: Builder) -> Value:
        """``av`` (defined once) read with ``rb`` from its slot, stored right after its definition."""
        assert isinstance(av, Instruction)
        offset = self.value_offsets.get(av)
        if offset is None:
            blk = av.parent
            assert blk is not None
            after = InsertPoint.at_start(blk) if isinstance(av, PhiInst) else InsertPoint.after_inst(av)
            offset = self.value_offsets[av] = self._store(Builder(after), av)
        return self._load(rb, av.type, offset)

    def keep(self, ab: Builder, pb: Builder, v: Value, t: Type) -> Value:
        """Store ``v`` into a new slot with ``ab`` (augmented); the value read back with ``pb`` (reverse)."""
        return self._load(pb, t, self._store(ab, v))

    def _store(self, ab: Builder, v: Value) -> int:
        if self.aug_record is None or self.rev_record is None:
            self.aug_record = _entry_alloca(self.aug)
            self.rev_record = _entry_alloca(self.rev)
        offset = self.size
        self.size += slot_size(v.type, self.layout)
        ab.store(v, ab.gep(I8, self.aug_record, [offset], inbounds=True), 8)
        return offset

    def _load(self, rb: Builder, t: Type, offset: int) -> Value:
        assert self.rev_record is not None
        return rb.load(t, rb.gep(I8, self.rev_record, [offset], inbounds=True), align=8)

    def finish(self, aug_tape: Value, rev_tape: Value) -> None:
        """Size the records, push the augmented one before every return, pop it at the reverse's entry."""
        if self.aug_record is None or self.rev_record is None:
            return
        for record in (self.aug_record, self.rev_record):
            record.allocated_type = ArrayType(self.size, I8)
        push, pop = tape_functions(self.module)
        memcpy = self.module.declare_function(_MEMCPY, FunctionType(VOID, (PTR, PTR, I64, I1)))
        size = const_int(I64, self.size)
        for blk in self.aug.blocks:
            if isinstance(blk.terminator, ReturnInst):
                b = Builder(InsertPoint.before_terminator(blk))
                b.call(memcpy, [b.call(push, [aug_tape, size]), self.aug_record, size, const_int(I1, 0)])
        b = Builder(InsertPoint.after_inst(self.rev_record))
        b.call(memcpy, [self.rev_record, b.call(pop, [rev_tape, size]), size, const_int(I1, 0)])


def _entry_alloca(fn: Function) -> AllocaInst:
    entry = fn.blocks[0]
    alloca = Builder(InsertPoint(entry, entry.instructions[0] if entry.instructions else None)).alloca(
        ArrayType(0, I8), name="frame.record", align=8)
    assert isinstance(alloca, AllocaInst)
    return alloca

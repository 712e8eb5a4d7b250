"""The frame record: fixed slots for the floats that code outside every cycle hands to the reverse sweep.

A block on no cycle of the primal CFG runs at most once per call, so each floating-point value the
reverse needs from it gets a fixed offset in a record: a typed ``alloca`` per slot in the augmented
frame, which LLVM's SROA turns back into registers.  A float defined in such a block has one slot for
the whole reverse sweep, stored right after its definition and read wherever the reverse needs it,
instead of being recomputed -- its whole chain again -- in every reverse block that uses it.

The record is one entry of the tape: pushed just before each return of the augmented sweep, after
everything else the call pushed, and popped first at the reverse sweep's entry, which reads the slots
in place (the reverse sweep never pushes, so the popped memory stays put until it returns).  Values of
blocks on cycles keep their own pushes.  Straight-line code thus costs one tape push and one pop per
call instead of one per value, each of which inlined a capacity check and a ``realloc`` branch: that
made the derivative of a large straight-line function 30 times the size of its input and LLVM
superlinear on it.  Integers and pointers stay on the tape as before (see ``_plain_float``).
"""
from __future__ import annotations

from ..analysis.layout import DataLayout
from ..ir import Block, Function, Module, Type, Value
from ..ir.builder import Builder, InsertPoint, const_int
from ..ir.instructions import (AllocaInst, BranchInst, CallInst, Instruction, LoadInst, ReturnInst, StoreInst,
                               SwitchInst)
from ..ir.types import I8, I64, FloatType, VectorType
from .tape import slot_size, tape_functions


def _plain_float(t: Type) -> bool:
    """Floats and float vectors only: the record's copy onto the tape is a load and a store of each slot,
    which a later differentiation of this code (higher order) must see as float data, not as a copy of
    memory through an integer or a pointer."""
    return isinstance(t, FloatType) or (isinstance(t, VectorType) and isinstance(t.element, FloatType))


def blocks_on_no_cycle(order: list[Block]) -> set[Block]:
    """The blocks of ``order`` (a function's blocks, entry first) that lie on no cycle among them.

    Tarjan's strongly connected components, iteratively (functions can have thousands of blocks): a block
    is on no cycle when its component is itself alone and it does not branch to itself.
    """
    inside = set(order)
    index: dict[Block, int] = {}
    low: dict[Block, int] = {}
    stack: list[Block] = []
    on_stack: set[Block] = set()
    acyclic: set[Block] = set()
    work: list[tuple[Block, list[Block]]] = []

    def enter(b: Block) -> None:
        index[b] = low[b] = len(index)
        stack.append(b)
        on_stack.add(b)
        work.append((b, [s for s in b.successors if s in inside]))

    for root in order:
        if root in index:
            continue
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
                 acyclic_augmented: set[Value]) -> None:
        self.module, self.aug, self.rev, self.layout = module, aug, rev, layout
        self.acyclic = acyclic                      # primal blocks
        self.acyclic_augmented = acyclic_augmented  # their clones in the augmented sweep
        self.slots: list[tuple[int, AllocaInst]] = []  # (byte offset on the tape, the augmented frame's slot)
        self.size = 0
        self.rev_popped: CallInst | None = None     # the record on the tape, popped at the reverse's entry
        self.value_offsets: dict[Value, int] = {}

    def holds(self, blk: Block, v: Value) -> bool:
        """Does ``v``, needed by the reverse of primal block ``blk``, go into the record?"""
        return blk in self.acyclic and _plain_float(v.type)

    def defined_once(self, av: Value) -> bool:
        """Is augmented value ``av`` a float defined at most once per call (one slot holds it for the whole
        reverse)?"""
        return isinstance(av, Instruction) and not av.is_terminator and av.parent in self.acyclic_augmented \
            and _plain_float(av.type)

    def prefers(self, av: Value) -> bool:
        """Should the reverse read ``av`` from the record rather than recompute it?  Floating-point results
        defined once, but not loads: recomputing repeats their whole chain in every reverse block that needs
        them, while the slot costs nothing once LLVM inlines both sweeps into one function and SROA keeps it
        in a register.  Loads stay re-read (cheap, and they keep the record small)."""
        return self.defined_once(av) and not isinstance(av, LoadInst)

    def value(self, av: Value, rb: Builder) -> Value:
        """``av`` (defined once) read with ``rb`` from its slot, stored at the end of its block (which it
        dominates; finding the place right after it costs a search through the block)."""
        assert isinstance(av, Instruction)
        offset = self.value_offsets.get(av)
        if offset is None:
            blk = av.parent
            assert isinstance(blk, Block)
            offset = self.value_offsets[av] = self._store(Builder(InsertPoint.before_terminator(blk)), av)
        return self._load(rb, av.type, offset)

    def keep(self, ab: Builder, pb: Builder, v: Value, t: Type) -> Value:
        """Store ``v`` into a new slot with ``ab`` (augmented); the value read back with ``pb`` (reverse)."""
        return self._load(pb, t, self._store(ab, v))

    def _store(self, ab: Builder, v: Value) -> int:
        # One typed alloca per slot in the augmented frame (SROA makes each a register): the type of every
        # byte stays plain, also to a later differentiation of this code (higher order).
        entry = self.aug.blocks[0]
        slot = Builder(InsertPoint(entry, entry.instructions[0] if entry.instructions else None)).alloca(
            v.type, name="frame.slot", align=8)
        assert isinstance(slot, AllocaInst)
        offset = self.size
        self.slots.append((offset, slot))
        self.size += slot_size(v.type, self.layout)
        ab.store(v, slot, 8)
        return offset

    def _load(self, rb: Builder, t: Type, offset: int) -> Value:
        if self.rev_popped is None:
            # The first thing the reverse pops (its size is set by ``finish``).  The reverse sweep never
            # pushes, so the popped slot stays valid (no realloc) until the reverse returns.
            entry = self.rev.blocks[0]
            _, pop = tape_functions(self.module)
            at = Builder(InsertPoint(entry, entry.instructions[0] if entry.instructions else None))
            self.rev_popped = at.call(pop, [self.rev.args[-1], const_int(I64, 0)], name="frame.record")
        return rb.load(t, rb.gep(I8, self.rev_popped, [offset], inbounds=True), align=8)

    def finish(self, aug_tape: Value) -> None:
        """Push the record before every return of the augmented sweep, slot by slot with its type."""
        if not self.slots:
            return
        size = const_int(I64, self.size)
        if self.rev_popped is not None:
            self.rev_popped.set_operand(1, size)
        push, _ = tape_functions(self.module)
        if self._push_at_entry(aug_tape, push, size):
            return
        for blk in self.aug.blocks:
            if isinstance(blk.terminator, ReturnInst):
                b = Builder(InsertPoint.before_terminator(blk))
                pushed = b.call(push, [aug_tape, size])
                for offset, slot in self.slots:
                    b.store(b.load(slot.allocated_type, slot, align=8), b.gep(I8, pushed, [offset], inbounds=True), 8)

    def _push_at_entry(self, aug_tape: Value, push: Function, size: Value) -> bool:
        """Push the record at the augmented sweep's entry and store each value straight into its slot there,
        when nothing else in the sweep pushes (its tape has no other use: no loop values, no callee
        sweeps) and every path through it returns (no invoke, resume or unreachable): the record is then
        the last thing pushed either way, and nothing moves the tape between the push and the stores.

        The copy slot by slot before each return kept every value of a straight-line function live to
        the end, in a register or spilled: thousands at once, where LLVM's register allocator and machine
        scheduler (superlinear in what is live) spent most of the build, and the code copied each spilled
        value twice.  Returns False, changing nothing, where the copy at the returns is needed.
        """
        if aug_tape.users or not any(isinstance(b.terminator, ReturnInst) for b in self.aug.blocks):
            return False
        if not all(isinstance(b.terminator, (ReturnInst, BranchInst, SwitchInst)) for b in self.aug.blocks):
            return False
        entry = self.aug.blocks[0]
        for _, slot in self.slots:
            if slot.parent is not entry or not all(
                    isinstance(u, StoreInst) and u.pointer is slot and u.value is not slot for u in slot.users):
                return False
        erased = {slot for _, slot in self.slots}  # all in the entry block (see _store)
        # After the entry's other allocas, which stay together at its start (static allocas to the inliner).
        first = next((inst for inst in entry.instructions if inst not in erased and not isinstance(inst, AllocaInst)),
                     None)
        at = Builder(InsertPoint(entry, first))
        pushed = at.call(push, [aug_tape, size], name="frame.record")
        for offset, slot in self.slots:
            slot.replace_all_uses_with(at.gep(I8, pushed, [offset], inbounds=True))
        entry.instructions = [inst for inst in entry.instructions if inst not in erased]
        for slot in erased:
            slot.parent = None
            slot.drop_operands()
        return True

"""The recompute-or-tape decision: how a value of the augmented sweep becomes available in the reverse sweep.

A value is recomputed when that is cheap and gives the same value (pure
operations on available values, induction variables of counted loops,
loads of memory nothing writes after them in a top-level call, reread.py); otherwise it is pushed
on the tape at the end of its forward block and popped at the start of
that block's reverse.  Loop counters (loop_plans.py) are pushed at loop
exits and counted down in the reverse sweep.
"""
from __future__ import annotations

from ..ir import Argument, Block, CallInst, Constant, Function, Instruction, LoadInst, PhiInst, Value
from ..ir.builder import Builder, InsertPoint, const_int
from ..ir.parser import Placeholder
from ..ir.types import I64, Type
from .common import value_name
from .frame_record import FrameRecord
from .loop_plans import LoopPlan, affine_iv
from .reread import RereadableLoads
from .scratch_stores import ScratchStores


_RECOMPUTABLE = frozenset({
    "getelementptr", "add", "sub", "mul", "shl", "lshr", "ashr", "and", "or", "xor", "icmp", "fcmp", "select",
    "trunc", "zext", "sext", "fptrunc", "fpext", "sitofp", "uitofp", "fptosi", "fptoui", "bitcast", "ptrtoint",
    "inttoptr", "fadd", "fsub", "fmul", "fneg", "extractvalue", "extractelement", "insertelement",
    "shufflevector", "freeze"})


_RECOMPUTABLE_INTRINSICS = ("llvm.fmuladd.", "llvm.fma.", "llvm.fabs.", "llvm.copysign.", "llvm.minnum.",
                            "llvm.maxnum.", "llvm.minimum.", "llvm.maximum.", "llvm.smax.", "llvm.smin.",
                            "llvm.umax.", "llvm.umin.", "llvm.abs.", "llvm.frexp.")


def recomputable(inst: Instruction) -> bool:
    """Pure, cheap instructions that give the same value whenever their operands do."""
    if isinstance(inst, CallInst):
        return (inst.callee_name or "").startswith(_RECOMPUTABLE_INTRINSICS)
    return inst.opcode in _RECOMPUTABLE


class Recomputation:
    """The reverse sweep's access to augmented values (mixed into the reverse state)."""

    fwd: dict[Value, Value]
    orig_of: dict[Value, Value]
    aug: Function
    rev: Function
    order: list[Block]
    loops: dict[Block, LoopPlan]
    rereadable: RereadableLoads | None  # top level only: loads of memory nothing writes afterwards (reread.py)
    scratch: ScratchStores | None  # loads of scratch buffers one loop fills (scratch_stores.py)
    rentry: Block
    cur_blk: Block
    cur_ib: Block
    needs: dict[Value, Value]
    need_order: list[Value]
    recomputed: dict[Value, Value]
    recomputed_shifted: dict[tuple[int, int], dict[Value, Value]]  # (loop, iteration value) -> values
    # Forward exit block -> its last counter push (None: it pushes none): the loop invariants go right after,
    # before the pushes of the values the block's reverse needs (inserted before its terminator).
    after_counter_pushes: dict[Block, Instruction | None]
    counter_pops: dict[Block, Instruction]          # exit block -> the first counter pop of its reverse
    record: FrameRecord

    def push(self, b: Builder, v: Value) -> None:
        raise NotImplementedError

    def pop(self, b: Builder, t: Type) -> Value:
        raise NotImplementedError

    def count_iterations(self) -> None:
        """Give each counted loop an iteration counter and push its final value at the loop's exits."""
        for lp in self.loops.values():
            header = self.fwd[lp.loop.header]
            latch = self.fwd[lp.latch]
            hb = Builder(InsertPoint.at_start(header))  # type: ignore[arg-type]
            k = hb.phi(I64, "iter")
            nb = Builder(InsertPoint.before_terminator(latch))  # type: ignore[arg-type]
            k_next = nb.add(k, const_int(I64, 1), "iter.next", flags=["nuw", "nsw"])
            k.add_incoming(const_int(I64, 0), self.fwd[lp.preheader])  # type: ignore[arg-type]
            k.add_incoming(k_next, latch)  # type: ignore[arg-type]
            lp.counter = k
        # Exit blocks push the counters of every loop they leave, outermost first (those whose count
        # the reverse sweep cannot compute).
        for blk in self.order:
            leaving = self.loops_exited_at(blk)
            if leaving:
                xb = Builder(InsertPoint.at_start(self.fwd[blk]))  # type: ignore[arg-type]
                pushed = [lp.counter for lp in leaving if lp.trip is None]
                for counter in pushed:
                    assert counter is not None
                    self.push(xb, counter)
                assert xb.ip.before is not None  # the terminator at least
                insts = xb.ip.block.instructions
                self.after_counter_pushes[blk] = insts[insts.index(xb.ip.before) - 1] if pushed else None

    def loops_exited_at(self, blk: Block) -> list[LoopPlan]:
        out = [lp for lp in self.loops.values() if blk in lp.exits]
        return sorted(out, key=lambda lp: lp.loop.depth)

    def restore_counters(self, b: Builder, blk: Block) -> None:
        """At the end of an exit block's reverse: pop the counters (innermost first) into their slots, or
        compute them from the loop's start and bound."""
        leaving = list(reversed(self.loops_exited_at(blk)))
        for lp in leaving:
            if lp.trip is None:
                popped = self.pop(b, I64)
                assert isinstance(popped, LoadInst) and isinstance(popped.pointer, Instruction)
                self.counter_pops.setdefault(blk, popped.pointer)  # the pop's call: where this block's pops begin
                b.store(popped, self.counter_slot(lp))
        for lp in leaving:
            if lp.trip is not None:
                trip = lp.trip
                start, bound = (self.available(self.fwd.get(v, v)) for v in (trip.start, trip.bound))
                store = b.store(trip.last_iteration(Builder(self.cur_ib), start, bound), self.counter_slot(lp))
                assert isinstance(store, Instruction)
                self.counter_pops.setdefault(blk, store)  # where this block's (invariant) pops go before

    def invariant_loop(self, av: Value) -> LoopPlan | None:
        """The outermost counted loop around the current block that ``av`` is defined before, if any.

        Such a value is the same in every iteration and is defined before each exit (its definition
        dominates the loop's uses, hence the header, hence the dedicated exits).
        """
        # The block of the primal function whose clone defines ``av`` (shadows included).
        defined_in = self.orig_of.get(av.parent) if isinstance(av, Instruction) and av.parent is not None else None
        if defined_in is None:
            return None
        around = [lp for lp in self.loops.values() if self.cur_blk in lp.loop.blocks
                  and defined_in not in lp.loop.blocks and not lp.returns_inside]
        return min(around, key=lambda lp: lp.loop.depth) if around else None

    def invariant_value(self, lp: LoopPlan, av: Value) -> Value:
        """``av``, defined before loop ``lp``, read from the slot its exits' reverse fill."""
        slot = lp.invariant_slots.get(av)
        if slot is None:
            eb = Builder(InsertPoint(self.rentry, self.rentry.instructions[0] if self.rentry.instructions else None))
            slot = eb.alloca(av.type, name=value_name(av, ".inv"))
            lp.invariant_slots[av] = slot
            lp.invariants.append(av)
        got = Builder(self.cur_ib).load(av.type, slot)
        self.recomputed[av] = got
        return got

    def tape_invariants(self) -> None:
        """Push each loop's invariants once at its exits, after the counters; pop them before the counters."""
        for blk in self.order:
            leaving = [lp for lp in self.loops_exited_at(blk) if lp.invariants]
            if not leaving:
                continue
            last = self.after_counter_pushes[blk]
            xb = Builder(InsertPoint.after_inst(last) if last is not None
                         else InsertPoint.at_start(self.fwd[blk]))  # type: ignore[arg-type]
            for lp in leaving:
                for av in lp.invariants:
                    self.push(xb, av)
            rb = Builder(InsertPoint.before_inst(self.counter_pops[blk]))
            for lp in reversed(leaving):
                for av in reversed(lp.invariants):
                    rb.store(self.pop(rb, av.type), lp.invariant_slots[av])

    def counter_slot(self, lp: LoopPlan) -> Value:
        if lp.slot is None:
            eb = Builder(InsertPoint(self.rentry, self.rentry.instructions[0] if self.rentry.instructions else None))
            lp.slot = eb.alloca(I64, name="iter.rev")
        return lp.slot

    def available(self, av: Value) -> Value:
        """The augmented value ``av`` made available in the current reverse block.

        Recomputed when that is cheap and gives the same value (pure operations on
        available values, induction variables of counted loops, loads of memory the
        function never writes); otherwise pushed on the tape.
        """
        got = self.recompute(av, 0)
        return got if got is not None else self.tape_value(av)

    def tape_value(self, av: Value) -> Value:
        """``av`` pushed at the end of the current forward block and popped at the start of its reverse;
        once per loop execution instead where ``av`` is loop-invariant; from its slot in the frame record
        where it is defined at most once per call (frame_record.py)."""
        if self.record.defined_once(av):
            got = self.record.value(av, Builder(self.cur_ib))
            self.recomputed[av] = got
            return got
        lp = self.invariant_loop(av)
        if lp is not None:
            return self.invariant_value(lp, av)
        ph = self.needs.get(av)
        if ph is None:
            ph = Placeholder(av.type, None)
            self.needs[av] = ph
            self.need_order.append(av)
        return ph

    def recompute(self, av: Value, depth: int, shift: tuple[LoopPlan, Value] | None = None) -> Value | None:
        """``av`` rebuilt in the current reverse block, or None.

        With ``shift = (loop, k)``, ``av`` is rebuilt as it was in iteration ``k``
        of that loop (for values carried from the previous iteration).
        """
        if isinstance(av, Constant):
            return av
        if isinstance(av, Argument) and av.function is self.aug:
            return self.rev.args[av.index]
        memo = self.recomputed if shift is None \
            else self.recomputed_shifted.setdefault((id(shift[0]), id(shift[1])), {})
        got = memo.get(av)
        if got is not None or depth > 12 or not isinstance(av, Instruction):
            return got
        orig = self.orig_of.get(av)
        if shift is not None and isinstance(orig, Instruction) and orig.parent in shift[0].loop.blocks \
                and orig.parent is not shift[0].loop.header:
            return None  # may not have run in the shifted iteration
        if self.record.prefers(av):
            return self.tape_value(av)
        rb = Builder(self.cur_ib)
        if isinstance(orig, PhiInst):
            got = self.recompute_phi(rb, orig, depth, shift)
            if got is None:
                return None
        elif recomputable(av) or (isinstance(orig, LoadInst) and self.rereadable is not None
                                    and self.rereadable.allows(orig)):
            # Operands that cannot be recomputed come from the tape; at most one, so that
            # recomputing never pushes more than taping ``av`` itself would.  (Not in a shifted
            # iteration: the tape holds the current one.)
            ops: list[Value | None] = [self.recompute(o, depth + 1, shift) for o in av.operands]
            missing = [i for i, r in enumerate(ops) if r is None]
            if len(missing) > 1 or (missing and (isinstance(av, LoadInst) or shift is not None)):
                return None
            available = [r if r is not None else self.tape_value(av.operand(i)) for i, r in enumerate(ops)]
            it = iter(available)
            got = rb.insert(av.clone(lambda _v: next(it)))
        elif isinstance(orig, LoadInst) and shift is None and self.scratch is not None:
            got = self.stored_value(rb, orig, depth)
            if got is None:
                return None
        else:
            return None
        memo[av] = got
        return got

    def stored_value(self, rb: Builder, load: LoadInst, depth: int) -> Value | None:
        """What ``load`` reads from a scratch buffer one loop filled, rebuilt for the iteration that stored
        it (scratch_stores.py), or None."""
        assert self.scratch is not None
        found = self.scratch.source(load)
        if found is None:
            return None
        store, filling, index = found
        k = self.recompute(self.fwd[index], depth + 1)
        if k is None:
            return None
        if k.type != I64:
            k = rb.cast("zext", k, I64)  # from 0 up to the filled count
        return self.recompute(self.fwd[store.value], depth + 1, (filling, k)) \
            if store.value in self.fwd else self.recompute(store.value, depth + 1)

    def recompute_phi(self, rb: Builder, phi: PhiInst, depth: int,
                       shift: tuple[LoopPlan, Value] | None) -> Value | None:
        iv = affine_iv(phi, self.loops)
        if iv is not None:
            lp, start, step = iv
            if self.cur_blk not in lp.loop.blocks and not (shift is not None and shift[0] is lp):
                return None
            s0 = self.recompute(self.fwd.get(start, start), depth + 1, shift)
            if s0 is None:
                return None
            k = shift[1] if shift is not None and shift[0] is lp else rb.load(I64, self.counter_slot(lp))
            if phi.type != I64:
                k = rb.cast("trunc", k, phi.type)
            return rb.add(s0, rb.mul(k, const_int(phi.type, step)))
        # A value carried from the previous iteration (a load reused by the next one, say):
        # iteration 0 takes the preheader's value, iteration k the latch's value of k - 1.
        header = self.loops.get(phi.parent) if phi.parent is not None else None
        if header is None or shift is not None or self.cur_blk not in header.loop.blocks:
            return None
        k = rb.load(I64, self.counter_slot(header))
        first = rb.icmp("eq", k, const_int(I64, 0))
        init_v, latch_v = phi.value_for(header.preheader), phi.value_for(header.latch)
        carried = self.carried_load(rb, header, first, k, init_v, latch_v, depth)
        if carried is not None:
            return carried
        prev_k = rb.select(first, const_int(I64, 0), rb.sub(k, const_int(I64, 1)))
        initial = self.recompute(self.fwd.get(init_v, init_v), depth + 1)
        previous = self.recompute(self.fwd.get(latch_v, latch_v), depth + 1, (header, prev_k))
        if initial is None or previous is None:
            return None
        return rb.select(first, initial, previous)

    def primal(self, v: Value) -> Value:
        """The primal value ``v`` (of the original function) in the reverse sweep."""
        return self.available(self.fwd.get(v, v))

    def carried_load(self, rb: Builder, header: LoopPlan, first: Value, k: Value, init_v: Value, latch_v: Value,
                     depth: int) -> Value | None:
        """A header phi carrying a load into the next iteration, re-read as one load from
        ``select(first iteration, initial address, latch address in iteration k - 1)``, or None.

        Both loads must be re-readable.  The latch address is computed for ``k - 1`` without clamping
        (poison at ``k == 0`` is not selected), which needs it to be pure arithmetic in the loop.  For
        the usual ``x[i]`` carried as ``x[i + 1]`` of the previous iteration both addresses coincide, LLVM
        folds the select, and the reverse loop reads ``x[k]`` with no select or clamp in the way of
        vectorization.
        """
        if not (isinstance(init_v, LoadInst) and isinstance(latch_v, LoadInst) and init_v.type == latch_v.type
                and init_v.pointer.type == latch_v.pointer.type
                and self.rereadable is not None and self.rereadable.allows(init_v) and self.rereadable.allows(latch_v)
                and _pure_address(latch_v.pointer, header)):
            return None
        init_p = self.recompute(self.fwd.get(init_v.pointer, init_v.pointer), depth + 1)
        prev_p = self.recompute(self.fwd.get(latch_v.pointer, latch_v.pointer), depth + 1,
                                (header, rb.sub(k, const_int(I64, 1))))
        if init_p is None or prev_p is None:
            return None
        address = rb.select(first, init_p, prev_p)
        aug_load = self.fwd[latch_v]
        assert isinstance(aug_load, LoadInst)
        got = rb.insert(aug_load.clone(lambda _v: address))
        assert isinstance(got, LoadInst)
        if init_v.align != latch_v.align:
            got.align = min(init_v.align or 1, latch_v.align or 1)
        return got


def _pure_address(v: Value, lp: LoopPlan, depth: int = 0) -> bool:
    """Is the address ``v`` pure arithmetic inside loop ``lp`` (no load, no call that could fault when
    evaluated for an iteration that did not run)?"""
    if not isinstance(v, Instruction) or v.parent not in lp.loop.blocks:
        return True
    if depth > 12:
        return False
    if isinstance(v, PhiInst):
        return affine_iv(v, {lp.loop.header: lp}) is not None
    return recomputable(v) and not isinstance(v, CallInst) and all(_pure_address(o, lp, depth + 1) for o in v.operands)

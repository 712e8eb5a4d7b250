"""Reverse mode (combined): an augmented forward sweep and a reverse sweep sharing a tape.

For ``f`` with given argument activities this generates

* ``augmented_<f>(args, shadows, tape)``: the primal plus shadow-pointer
  computations (shadow allocations are zeroed, frees are deferred) and
  pushes of what the reverse sweep needs;
* ``reverse_<f>(args, shadows, dret, tape) -> {adjoints of out args}``: the
  reverse sweep over the reversed CFG, popping in the opposite order;
* ``diffe<f>(args, shadows)`` for the Enzyme C ABI entry: a fresh tape (on the
  block the last call parked, tape.py), both sweeps with ``dret = 1``, the tape
  released.

Blocks with several predecessors push which one the trace came from, unless
a branch the reverse sweep can recompute decided it (branch_origins.py), and
hand their phis' adjoints over on the reverse edges;
values needed in reverse are pushed at the end of the block whose reverse
needs them and popped at the start of its reverse block, so pushes and pops
balance on every path.  Adjoints accumulate in allocas of the reverse
function (promoted to SSA by LLVM), starting from ``-0.0`` (common.adjoint_zero).
"""
from __future__ import annotations

from ..errors import DifferentiationError
from ..ir.target_attributes import inherit_target_attributes, is_gpu_module
from ..ir import (Block, CallInst, ConstantExpr, ConstantFP, ConstantKeyword, Function, FunctionType, Instruction,
                  LoadInst, PhiInst, ReturnInst, StructType, Value, BinaryOperator)
from ..analysis.sign_bits import BITWISE, sign_operation
from ..ir.builder import Builder, InsertPoint, const_int
from ..ir.cfg import blocks_without_return
from ..ir.types import I64, PTR, VOID, FloatType, Type, VectorType
from .activity_plan import ActivityPlan
from .aggregate_shadows import holds_pointers
from .branch_origins import BranchOrigins
from .call_kinds import CallKind
from .caught_exceptions import caught_invokes, check_reversible, restore_invokes, unwind_reverse_target
from .common import (ADContext, carries_float, clone_body, differentiable_order, primal_and_shadow_params,
                     value_name, zero)
from .custom import custom_rules
from .float_bits import copied_word_type, float_bits_type, only_integer_uses, returned_float_bits
from .frame_record import FrameRecord, blocks_on_no_cycle
from .indirect import reaches_shadowed_global
from .integer_addresses import AddressDisplacements
from .loop_plans import plan_loops, reserve_loop_tapes
from .modes import Activities, Activity, activities_of
from .realloc import module_reallocs
from .reread import RereadableLoads, restore_stores
from .scratch_stores import ScratchStores
from .reverse_bits import check_float_bits
from .reverse_calls import augment_call, reverse_call
from .handlers import augment_instruction, reverse_instruction
from .lanes import batched, pack
from .reverse_state import ReverseState, is_fp, returned_adjoints
from .special_calls import zero_derivative_field
from .shadowless import plain_allocation, shadowless_merges, stays_out_of_derivatives
from .sweep_pair import SweepPair
from .device import amdgpu, device_paths
from .tape import DEVICE_RESERVE_LIMIT, TAPE_STRUCT, release_tape, reserve_tape, reuse_tape
from .common import check_address_escape

def reverse_derivative(ctx: ADContext, fn: Function, activities: tuple[str, ...],
                       width: int = 1, *, seed: bool = True, with_primal: bool = False
                       ) -> tuple[Function, tuple[Type, ...]]:
    """``diffe<fn>`` for the C ABI: returns (function, types of the returned adjoints).

    Batch width W (``diffe<W>_<fn>``): each dup argument is followed by W
    shadows, the return is seeded with 1.0 in every direction and each
    returned adjoint is ``[W x T]`` (direction j in element j).  ``seed=False``
    (``enzyme_const_return``) seeds a floating-point result with 0;
    ``with_primal`` (``enzyme_primal_return``) returns ``{result, {adjoints}}``.
    """
    key: tuple[object, ...] = ("diffe", fn, activities) if width == 1 else ("diffe", fn, activities, width)
    if not seed or with_primal:
        key += (seed, with_primal)
    if key in ctx.memo:
        d = ctx.memo[key]
        return d, _adjoint_types(d.return_type, with_primal)
    if carries_float(fn.return_type) and not is_fp(fn.return_type):
        raise DifferentiationError(
            f"@{fn.name} returns {fn.return_type}: the __enzyme_autodiff C ABI seeds only a floating-point "
            "return value; return a scalar, or write the outputs through an enzyme_dup pointer argument")
    pair = sweeps(ctx, fn, activities, top_level=True, width=width)
    m = ctx.module
    params, names = primal_and_shadow_params(fn, activities, width)
    ret = StructType(pair.out_types) if pair.out_types else VOID
    if with_primal:
        ret = StructType((fn.return_type, ret if pair.out_types else StructType(())))
    name = f"diffe{fn.name}" if width == 1 else f"diffe{width}_{fn.name}"
    d = Function(m.unique_name(name), FunctionType(ret, tuple(params)), arg_names=names,
                 prefix="internal")
    m.add(d)
    inherit_target_attributes(fn, d)
    ctx.memo[key] = d
    b = Builder(d.append_block("entry"))
    tape = b.alloca(TAPE_STRUCT, name="tape")
    b.store(ConstantKeyword(TAPE_STRUCT, "zeroinitializer"), tape)
    reuse_tape(m, b, tape)
    primal: Value = b.call(pair.augmented, [*d.args, tape])
    rargs: list[Value] = [*d.args]
    if pair.returns_adjoint:
        assert pair.dret_type is not None
        # the C ABI seeds floats
        dret = _one(fn.return_type) if seed and is_fp(fn.return_type) else zero(pair.dret_type)
        rargs += [dret] * width
    rargs.append(tape)
    res = b.call(pair.reverse, rargs)
    release_tape(m, b, tape)
    adjoints = returned_adjoints(b, res) if pair.out_types else None
    if with_primal:
        if pair.returns_shadow:  # {primal pointer, shadow pointer}: the caller wants the primal
            primal = b.extractvalue(primal, [0])
        both = b.insertvalue(ConstantKeyword(ret, "undef"), primal, [0])
        b.ret(b.insertvalue(both, adjoints, [1]) if adjoints is not None else both)
    else:
        b.ret(adjoints)
    return d, pair.out_types


def _adjoint_types(ret: Type, with_primal: bool) -> tuple[Type, ...]:
    adjoints = ret.elements[1] if with_primal and isinstance(ret, StructType) else ret
    return tuple(adjoints.elements) if isinstance(adjoints, StructType) else ()


def _one(t: Type) -> Value:
    if isinstance(t, VectorType):
        return ConstantExpr(t, "splat", [ConstantFP.of(t.element, 1.0)])
    return ConstantFP.of(t, 1.0)


def sweeps(ctx: ADContext, fn: Function, activities: tuple[str, ...], *, top_level: bool = False,
           width: int = 1) -> SweepPair:
    """The augmented and reverse sweeps of ``fn``.

    ``top_level`` sweeps run back to back (from ``diffe<f>``), so nothing can
    write memory between them and the reverse sweep may re-read memory the
    function never writes instead of taping it.  Batch width W: see
    lanes.py for what changes in the signatures.
    """
    acts = activities_of(activities)
    key = _sweeps_key(fn, acts, top_level, width)
    got = ctx.memo.get(key)
    if got is None:
        got = _ReverseGenerator(ctx, fn, acts, top_level, width).run()
        ctx.memo[key] = got
    return got


def _sweeps_key(fn: Function, activities: tuple[str, ...], top_level: bool, width: int) -> tuple:
    return ("sweeps", fn, activities, top_level) if width == 1 else ("sweeps", fn, activities, top_level, width)


class _ReverseGenerator(ReverseState):
    """Walks one function's blocks to build its two sweeps; per-instruction code is the handlers'."""

    def __init__(self, ctx: ADContext, fn: Function, activities: Activities, top_level: bool = False,
                 width: int = 1) -> None:
        super().__init__(ctx, fn, activities, lambda g, acts: sweeps(ctx, g, acts, width=width), top_level, width)
        self.zero_usable = module_reallocs(ctx.module)

    def _signatures(self) -> None:
        fn, m = self.fn, self.m
        w = self.width
        params, names = primal_and_shadow_params(fn, self.acts, w)
        self.return_bits = returned_float_bits(self.ctx, fn)  # an integer holding float bits: dret is a float
        self.returns_adjoint = carries_float(fn.return_type) or self.return_bits is not None
        self.dret_type = (self.return_bits or fn.return_type) if self.returns_adjoint else None
        for a, act in zip(fn.args, self.acts):
            if act is Activity.ACTIVE and not carries_float(a.type):
                bits = float_bits_type(self.ctx, fn, a)
                if bits is None:
                    raise DifferentiationError(f"@{fn.name}: argument {a.index + 1} ({a.type}) is active but "
                                               "holds no floating-point value")
                self.float_bits[a] = bits
        # A returned pointer (or struct holding one) comes back with its shadow, so callers can follow it.
        self.returns_shadow = holds_pointers(fn.return_type)
        aug_ret = StructType((fn.return_type, batched(fn.return_type, w))) if self.returns_shadow \
            else fn.return_type
        self.out_types = tuple(batched(self.adjoint_type(a), w) for a, act in zip(fn.args, self.acts) if act is Activity.ACTIVE)
        tag = "" if w == 1 else str(w)
        aug = Function(m.unique_name(f"augmented{tag}_{fn.name}"), FunctionType(aug_ret, (*params, PTR)),
                       arg_names=[*names, "tape"], prefix="internal")
        ndret = w if self.returns_adjoint else 0
        rparams = [*params] + ([self.dret_type] * ndret if self.dret_type is not None else []) + [PTR]
        rnames = [*names] + (["dret"] if w == 1 else [f"dret{j}" for j in range(w)])[:ndret] + ["tape"]
        rev = Function(m.unique_name(f"reverse{tag}_{fn.name}"),
                       FunctionType(StructType(self.out_types) if self.out_types else VOID, tuple(rparams)),
                       arg_names=rnames, prefix="internal")
        m.add(aug)
        m.add(rev)
        inherit_target_attributes(fn, aug)
        inherit_target_attributes(fn, rev)
        self.aug, self.rev = aug, rev
        self.aug_tape = aug.args[-1]
        self.rev_tape = rev.args[-1]
        self.drets = list(rev.args[len(params):len(params) + ndret])
        k = 0
        for a, act in zip(fn.args, self.acts):
            self.fwd[a] = aug.args[k]
            k += 1
            if act.has_shadow:
                for j in range(w):
                    self.shadows[j][a] = aug.args[k]
                    k += 1
            if act is Activity.ACTIVE:
                self.active.add(a)
        for lane, seeded in zip(self.shadows, custom_rules(m).global_shadows(fn, w)):
            lane.update(seeded)  # globals with a shadow (enzyme_shadow) are active memory

    def run(self) -> SweepPair:
        self._signatures()
        pair = SweepPair(self.aug, self.rev, self.out_types, self.returns_adjoint, self.returns_shadow,
                         self.dret_type)
        key = _sweeps_key(self.fn, self.acts, self.top_level, self.width)
        self.ctx.memo[key] = pair  # recursion
        self.order = differentiable_order(self.fn)
        self.caught = caught_invokes(self.fn, self.order)  # exceptions caught in fn: caught_exceptions.py
        check_reversible(self.fn, self.caught)
        # Code that cannot return (it throws, say, after formatting a message with std::to_string) runs as it
        # is in the augmented sweep and has no reverse: no derivative comes out of it.
        self.doomed = blocks_without_return(self.order)
        self._augmented()
        self.order = [b for b in self.order if b not in self.doomed]
        self.orig_of = {v: k for k, v in self.fwd.items()}
        # GPU device code has no tape (it grows with realloc): no frame record there, values are recomputed.
        acyclic = set() if is_gpu_module(self.m) else blocks_on_no_cycle(self.order)
        self.rereadable = RereadableLoads(self.fn, acyclic) if self.top_level else None
        self.loops = plan_loops(self.fn, self.order)
        self.scratch = ScratchStores(self.fn, self.loops)
        self.origins = BranchOrigins(self.fn)
        self.after_counter_pushes = {}
        self.counter_pops = {}
        self.count_iterations()
        self.record = FrameRecord(self.m, self.aug, self.rev, self.layout, acyclic, {self.fwd[b] for b in acyclic})
        self._reverse()
        if self.rereadable is not None:
            restore_stores(self.rereadable.restored, self.fwd, self.record.keep, self.rev, self.rentry, self.exit_block)
        self.tape_invariants()
        if device_paths(self.m) and not amdgpu(self.m):  # (AMDGPU tapes cannot grow: nothing to reserve)
            reserve_loop_tapes(self.loops, self.fwd, self.aug_tape, self.push_fn, DEVICE_RESERVE_LIMIT,
                               lambda b, size: reserve_tape(self.m, b, self.aug_tape, size))
        self.record.finish(self.aug_tape)
        restore_invokes(self.aug, self.caught, self.fwd, self.aug_tape)
        return pair

    def _augmented(self) -> None:
        # (Lifetime markers there go too: the stack objects they mark live on the heap in this sweep.)
        clones = [(i, n) for i, n in clone_body(self.order, self.aug, self.fwd, self.caught) if i.parent not in self.doomed
                  or (isinstance(i, CallInst) and (i.callee_name or "").startswith("llvm.lifetime."))]
        # Activity analysis looks backward too: what cannot reach an active output needs no adjoint, and stack
        # objects holding no derivative data (streams, buffers handed to a library) need no shadow.
        self.plan = ActivityPlan(self.ctx, self.fn, self.acts, self.returns_adjoint or self.returns_shadow)
        self.inactive_locals = {i for i, _ in clones if plain_allocation(i, self.call_site, self.m)
                                and self.plan.inactive_allocation(i) and stays_out_of_derivatives(i, self.call_site)}
        # Activity ("may depend on an active input") and shadows, in RPO with phis iterated to a fixed point.
        ptr_phis = []
        # Pointer phis and selects merging only pointers without a shadow (inactive calls' results) get none.
        self.unshadowed = shadowless_merges(
            (i for i, _ in clones), lambda c: self.call_site(c).kind,
            lambda phi: [v for v, blk in phi.incoming if blk in self.fwd], lambda g: g in self.shadow)
        for inst, ni in clones:
            if isinstance(inst, PhiInst) and holds_pointers(inst.type) and inst not in self.unshadowed:
                for _ in self.lanes():
                    sp = Builder(InsertPoint.before_inst(ni)).phi(inst.type, value_name(inst, self.lane_suffix("'")))
                    self.shadow[inst] = sp
                    ptr_phis.append((inst, self.lane, sp))
        # Which instructions may carry an adjoint: floats, and integers holding float bits that some float is
        # made of again (not an isfinite on the bits).  Type analysis is asked once, not per iteration.
        candidates: list[tuple[Instruction, FloatType | None]] = []
        for inst, _ in clones:
            if carries_float(inst.type):
                candidates.append((inst, None))
            else:
                bits = float_bits_type(self.ctx, self.fn, inst) \
                    or copied_word_type(self.ctx, self.fn, inst, 8 * self.layout.pointer_size())
                if bits is not None and not only_integer_uses(self.ctx, self.fn, inst):
                    candidates.append((inst, bits))
        changed = True
        while changed:
            changed = False
            for inst, bits in candidates:
                if inst not in self.active and self.depends_on_active(inst):
                    self.active.add(inst)
                    if bits is not None:
                        self.float_bits[inst] = bits
                    changed = True
        self.plan.prune(self.active)
        self.displacements = [
            AddressDisplacements(lambda v: self.fwd.get(v, v), self.shadows[lane].get, self.maybe_shadowed)
            for lane in range(self.width)]
        for inst, ni in clones:
            self._augment(inst, ni)
        for displacements in self.displacements:
            displacements.finish()
        for inst, lane, sp in ptr_phis:
            self.lane = lane
            for v, blk in inst.incoming:
                if blk in self.fwd:
                    s = self.shadow_or_none(v)
                    if s is None:  # null where that loses nothing (a string's characters), else refused
                        s = self.merged_null_shadow(inst, v)
                    sp.add_incoming(s, self.fwd[blk])  # type: ignore[arg-type]
        self.lane = 0

    def _augment(self, inst: Instruction, ni: Instruction) -> None:
        """The augmented code of ``inst`` (cloned as ``ni``) for every lane, after the guards."""
        check_address_escape(inst, lambda p: p in self.shadow)  # every lane has the same shadows: check once
        check_float_bits(self, inst)
        b = Builder(InsertPoint.after_inst(ni))  # one builder: lane j's shadow code follows lane j-1's
        if isinstance(inst, CallInst):
            for _ in self.lanes():
                augment_call(self, inst, ni, b)
        else:
            augment_instruction(self, inst, ni, b)

    def depends_on_active(self, inst: Instruction) -> bool:
        """May ``inst`` carry a derivative from an active input (forward direction of activity)?"""
        if isinstance(inst, LoadInst):
            return inst.pointer in self.shadow or self.maybe_shadowed(inst.pointer)
        if isinstance(inst, CallInst):
            kind = self.call_site(inst).kind
            if kind in (CallKind.INACTIVE, CallKind.LIFETIME, CallKind.DROPPED, CallKind.BARRIER, CallKind.OPENMP):
                return False
            # It may read active memory (long double complex operands are byval pointers), or a callee may
            # change a global that has a shadow.
            if kind in (CallKind.CUSTOM, CallKind.DEFINED, CallKind.PARALLEL, CallKind.INDIRECT, CallKind.COMPLEX):
                return any(a in self.active or self.maybe_shadowed(a) for a in inst.args) \
                    or reaches_shadowed_global(self.ctx, inst)
            return any(a in self.active for a in inst.args)
        if isinstance(inst, PhiInst):
            return any(v in self.active for v, _ in inst.incoming)
        if zero_derivative_field(inst):
            return False
        if isinstance(inst, BinaryOperator) and inst.opcode in BITWISE:
            sop = sign_operation(inst)
            if sop is not None:  # only the magnitude source carries a derivative
                return sop.source is not None and sop.source in self.active
        return any(v in self.active for v in inst.operands)

    def _reverse(self) -> None:
        rev = self.rev
        entry = rev.append_block("entry")
        self.rentry = entry
        self.inv: dict[Block, Block] = {}
        for b in reversed(self.order):
            self.inv[b] = rev.append_block(f"invert{b.name or ''}" if b.name else None)
        exit_block = rev.append_block("exit")
        self.exit_block = exit_block
        # Which return block did the forward trace end in?
        rets = [b for b in self.order if isinstance(b.terminator, ReturnInst)]
        eb = Builder(entry)
        if len(rets) == 1:
            self.seed_return(eb, rets[0])
            eb.br(self.inv[rets[0]])
        elif not rets:
            eb.unreachable()
        else:
            for i, r in enumerate(rets):
                ab = Builder(InsertPoint.before_terminator(self.fwd[r]))  # type: ignore[arg-type]
                self.push(ab, const_int(I64, i))
            idx = self.pop(eb, I64)
            blocks = []
            for r in rets:
                sb = rev.insert_block_after(entry, None)
                self.seed_return(Builder(sb), r)
                Builder(sb).br(self.inv[r])
                blocks.append(sb)
            eb.switch(idx, blocks[0], [(i, blk) for i, blk in enumerate(blocks)])
        for b in self.order:
            self._reverse_block(b)
        # Return the adjoints of the out arguments.
        xb = Builder(exit_block)
        if self.out_types:
            agg: Value = ConstantKeyword(rev.return_type, "undef")
            k = 0
            for a, act in zip(self.fn.args, self.acts):
                if act is Activity.ACTIVE:
                    agg = xb.insertvalue(agg, pack(xb, [self.load_adjoint(xb, a) for _ in self.lanes()]), [k])
                    k += 1
            xb.ret(agg)
        else:
            xb.ret()

    def seed_return(self, b: Builder, r: Block) -> None:
        ret = r.terminator
        assert isinstance(ret, ReturnInst)
        v = ret.value
        if v is not None and self.drets and v in self.active:
            for j in self.lanes():
                self.add_adjoint(b, v, self.drets[j])

    def _reverse_block(self, blk: Block) -> None:
        # The reverse of ``blk`` is two blocks: ``ib`` pops what the forward block pushed and
        # recomputes cheap values; ``body`` runs the reversed instructions.
        ib = self.inv[blk]
        body_block = self.rev.insert_block_after(ib, None)
        self.cur_blk = blk
        self.cur_ib = ib
        self.start_block()
        self.needs: dict[Value, Value] = {}   # augmented value -> placeholder in reverse
        self.need_order: list[Value] = []
        self.recomputed: dict[Value, Value] = {}
        self.recomputed_shifted: dict[tuple[int, int], dict[Value, Value]] = {}
        body = Builder(body_block)
        for inst in reversed(blk.instructions):
            if isinstance(inst, CallInst):
                for _ in self.lanes():
                    reverse_call(self, body, inst)
            elif not (isinstance(inst, PhiInst) or inst.is_terminator):  # phis and branches: below
                reverse_instruction(self, body, inst)
        # Control: back to the reverse of the predecessor the trace came from.
        preds = [p for p in blk.predecessors if p in self.inv]
        phis_active = [p for p in blk.phis() if p in self.active]
        loop = self.loops.get(blk)
        self.restore_counters(body, blk)
        if loop is not None:
            # A counted loop header: iteration 0 came from the preheader, later ones from the latch.
            slot = self.counter_slot(loop)
            k = body.load(I64, slot)
            first = body.icmp("eq", k, const_int(I64, 0))
            taken = self._take_phi_adjoints(body, phis_active)
            body.store(body.sub(k, const_int(I64, 1)), slot)
            body.cond_br(first, self._phi_edge(body, taken, loop.preheader), self._phi_edge(body, taken, loop.latch))
        elif len(preds) <= 1:
            for phi in phis_active:
                for _ in self.lanes():
                    d = self.take_adjoint(body, phi)
                    if preds:
                        self.add_adjoint(body, phi.value_for(preds[0]), d)
            body.br(self._phi_edge(body, [], preds[0]) if preds else self.exit_block)
        elif (decided := self._decided_origin(blk, preds)) is not None:
            condition, if_true, if_false = decided
            taken = self._take_phi_adjoints(body, phis_active)
            body.cond_br(condition, self._phi_edge(body, taken, if_true), self._phi_edge(body, taken, if_false))
        else:
            ab = Builder(InsertPoint.at_start(self.fwd[blk]))  # type: ignore[arg-type]
            came = ab.phi(I64, "from")
            for i, p in enumerate(preds):
                term = p.terminator
                assert term is not None
                for s in term.successor_blocks():  # one phi entry per CFG edge
                    if s is blk:
                        came.add_incoming(const_int(I64, i), self.fwd[p])  # type: ignore[arg-type]
            idx = self.available(came)
            taken = self._take_phi_adjoints(body, phis_active)
            edges = [self._phi_edge(body, taken, p) for p in preds]
            body.switch(idx, edges[0], list(enumerate(edges)))
        # Pushes at the end of the forward block, pops at the start of the reverse block.
        ab = Builder(InsertPoint.before_terminator(self.fwd[blk]))  # type: ignore[arg-type]
        pb = Builder(InsertPoint(ib, ib.instructions[0] if ib.instructions else None))
        taped = []
        for v in self.need_order:
            if self.record.holds(blk, v):  # at most once per call: a fixed slot of the frame record
                self.needs[v].replace_all_uses_with(self.record.keep(ab, pb, v, v.type))
            else:
                taped.append(v)
        # One push of them all (one capacity check) and one pop.
        self.push_group(ab, taped)
        for v, popped in zip(taped, self.pop_group(pb, [v.type for v in taped])):
            self.needs[v].replace_all_uses_with(popped)
        Builder(ib).br(body_block)

    def _decided_origin(self, blk: Block, preds: list[Block]) -> tuple[Value, Block, Block] | None:
        """The recomputed condition of the branch that decided which predecessor ``blk`` was entered from,
        with the predecessors for true and false (branch_origins.py); None: the augmented sweep records it."""
        branch = self.origins.deciding_branch(blk, preds)
        if branch is None:
            return None
        condition = self.recompute(self.fwd.get(branch.condition, branch.condition), 0)
        return None if condition is None else (condition, branch.if_true, branch.if_false)

    def _take_phi_adjoints(self, b: Builder, phis: list[PhiInst]) -> list[tuple[PhiInst, int, Value]]:
        """Read and reset the adjoints of a block's active phis (every lane), before its reverse branches."""
        taken = []
        for phi in phis:
            for lane in self.lanes():
                taken.append((phi, lane, self.take_adjoint(b, phi)))
        return taken

    def _phi_edge(self, b: Builder, taken: list[tuple[PhiInst, int, Value]], pred: Block) -> Block:
        """Where the reverse goes back to ``pred``: straight to its reverse block, or through a block that
        hands each phi's adjoint to the value the phi took from ``pred``.

        An edge block, not ``select(came from pred, d, 0)`` added on every path: a loop header's phi
        would otherwise add a select of zero to the preheader value's adjoint in every reverse
        iteration, a loop-carried floating-point sum LLVM may not vectorize or fold.
        """
        target = self.inv[unwind_reverse_target(pred, self.cur_blk, set(self.caught)) or pred]
        moves = [(phi.value_for(pred), lane, d) for phi, lane, d in taken]
        moves = [(v, lane, d) for v, lane, d in moves if v in self.active]
        if not moves:
            return target
        edge = self.rev.insert_block_after(b.block, None)
        eb = Builder(edge)
        for v, lane, d in moves:
            with self.in_lane(lane):
                self.add_adjoint(eb, v, d)
        eb.br(target)
        return edge

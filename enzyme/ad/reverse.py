"""Reverse mode (combined): an augmented forward sweep and a reverse sweep sharing a tape.

For ``f`` with given argument activities this generates

* ``augmented_<f>(args, shadows, tape)``: the primal plus shadow-pointer
  computations (shadow allocations are zeroed, frees are deferred) and
  pushes of what the reverse sweep needs;
* ``reverse_<f>(args, shadows, dret, tape) -> {adjoints of out args}``: the
  reverse sweep over the reversed CFG, popping in the opposite order;
* ``diffe<f>(args, shadows)`` for the Enzyme C ABI entry: a fresh tape, both
  sweeps with ``dret = 1``, the tape freed.

Blocks with several predecessors push which one the trace came from;
values needed in reverse are pushed at the end of the block whose reverse
needs them and popped at the start of its reverse block, so pushes and pops
balance on every path.  Adjoints accumulate in allocas of the reverse
function (promoted to SSA by LLVM).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..analysis.layout import DataLayout
from ..errors import DifferentiationError
from ..ir import (AllocaInst, Argument, ArrayType, BinaryOperator, Block, CallInst, CastInst, Constant, ConstantInt,
                  ExtractValueInst, FreezeInst, InsertValueInst,
                  ConstantKeyword,
                  Function, FunctionType, GEPInst, Instruction, LoadInst, PhiInst, ReturnInst, SelectInst,
                  StoreInst, StructType, UnaryOperator, Value)
from ..analysis.sign_bits import BITWISE, sign_operation
from ..ir.builder import Builder, InsertPoint, const_int
from ..ir.cfg import Loop, LoopInfo
from ..ir.types import I8, I64, PTR, VOID, FloatType, IntType, PointerType, Type, VectorType
from ..rules import INSTRUCTIONS, lookup, may_be_nonfinite
from ..rules.names import proxy_parts
from ..rules.emit import Emitter
from .common import (ADContext, RUNTIME_HINTS, address_origins, callee_unknown_error, carries_float,
                     check_address_escape, clone_body, constant_pointer_copy_error, describe, differentiable_order,
                     is_inactive_function, is_inline_asm, memory_function, no_rule_error, primal_and_shadow_params,
                     underlying_global, unshadowed_store_error, value_name, zero,
                     zero_fill, zero_where_seeds_zero)
from .custom import custom_rules
from .activity_plan import ActivityPlan
from .float_bits import (INTEGER_SINKS, flip_adjoint, float_bits_error, float_bits_type, is_float_data, is_integer_data,
                         makes_float_of_untracked_bits, may_hold_active_bits, moves_whole_floats,
                         only_integer_uses, passes_untracked_bits, returned_float_bits, sign_flip_mask,
                         untracked_bits_error)
from .grad_logging import log_gradient
from .custom_calls import augment_custom_call, custom_gradient, is_custom_inactive, reverse_custom_call
from .aggregate_shadows import holds_pointers, null_shadow_error, pointer_paths
from .allocators import is_allocator_call
from .complex_calls import is_complex_call, reverse_adjoints, unpack
from .indirect import reverse_dispatchers
from .integer_addresses import AddressDisplacements
from .copy_types import (CopyLayout, analyzed_functions, copy_layout, emit_leaf_adjoints,
                         emit_pointer_shadow_copies, function_contexts,
                         may_copy_pointers, points_to_no_floats)
from .memcopy import copied_element_type, copy_adjoint_function
from .realloc import augment_realloc, module_reallocs, released_in_function, reverse_realloc, zero_usable
from .special_calls import is_struct_math_intrinsic, reverse_struct_math_intrinsic
from .vectors import is_float_reduction, is_vector_lane_instruction, reverse_lane_instruction, reverse_reduction
from .reverse_lanes import LaneState, batched, pack
from .reverse_lanes import unpack as unpack_lanes
from .tape import TAPE_STRUCT, defer_free, release_tape, slot_size, tape_functions


def _is_fp(t: Type) -> bool:
    return isinstance(t, FloatType) or (isinstance(t, VectorType) and isinstance(t.element, FloatType))


@dataclass
class SweepPair:
    augmented: Function
    reverse: Function
    out_types: tuple[Type, ...]
    returns_adjoint: bool  # reverse takes dret
    returns_shadow: bool = False  # augmented returns {primal pointer, shadow pointer}
    dret_type: Type | None = None  # the type of dret (a float for an integer that returns float bits)


def reverse_derivative(ctx: ADContext, fn: Function, activities: tuple[str, ...],
                       width: int = 1) -> tuple[Function, tuple[Type, ...]]:
    """``diffe<fn>`` for the C ABI: returns (function, types of the returned adjoints).

    Batch width W (``diffe<W>_<fn>``): each dup argument is followed by W
    shadows, the return is seeded with 1.0 in every direction and each
    returned adjoint is ``[W x T]`` (direction j in element j).
    """
    key = ("diffe", fn, activities) if width == 1 else ("diffe", fn, activities, width)
    if key in ctx.memo:
        d = ctx.memo[key]
        return d, tuple(d.return_type.elements) if isinstance(d.return_type, StructType) else ()
    if carries_float(fn.return_type) and not _is_fp(fn.return_type):
        raise DifferentiationError(
            f"@{fn.name} returns {fn.return_type}: the __enzyme_autodiff C ABI seeds only a floating-point "
            "return value; return a scalar, or write the outputs through an enzyme_dup pointer argument")
    pair = sweeps(ctx, fn, activities, top_level=True, width=width)
    m = ctx.module
    params, names = primal_and_shadow_params(fn, activities, width)
    ret = StructType(pair.out_types) if pair.out_types else VOID
    name = f"diffe{fn.name}" if width == 1 else f"diffe{width}_{fn.name}"
    d = Function(m.unique_name(name), FunctionType(ret, tuple(params)), arg_names=names,
                 prefix="internal")
    m.add(d)
    ctx.memo[key] = d
    b = Builder(d.append_block("entry"))
    tape = b.alloca(TAPE_STRUCT, name="tape")
    b.store(ConstantKeyword(TAPE_STRUCT, "zeroinitializer"), tape)
    b.call(pair.augmented, [*d.args, tape])
    rargs: list[Value] = [*d.args]
    if pair.returns_adjoint:
        assert pair.dret_type is not None
        seed = _one(fn.return_type) if _is_fp(fn.return_type) else zero(pair.dret_type)  # the C ABI seeds floats
        rargs += [seed] * width
    rargs.append(tape)
    res = b.call(pair.reverse, rargs)
    release_tape(m, b, tape)
    b.ret(res if pair.out_types else None)
    return d, pair.out_types


def _one(t: Type) -> Value:
    from ..ir import ConstantExpr, ConstantFP
    if isinstance(t, VectorType):
        return ConstantExpr(t, "splat", [ConstantFP.of(t.element, 1.0)])
    return ConstantFP.of(t, 1.0)


def sweeps(ctx: ADContext, fn: Function, activities: tuple[str, ...], *, top_level: bool = False,
           width: int = 1) -> SweepPair:
    """The augmented and reverse sweeps of ``fn``.

    ``top_level`` sweeps run back to back (from ``diffe<f>``), so nothing can
    write memory between them and the reverse sweep may re-read memory the
    function never writes instead of taping it.  Batch width W: see
    reverse_lanes.py for what changes in the signatures.
    """
    key = _sweeps_key(fn, activities, top_level, width)
    got = ctx.memo.get(key)
    if got is None:
        got = _ReverseGenerator(ctx, fn, activities, top_level, width).run()
        ctx.memo[key] = got
    return got


def _sweeps_key(fn: Function, activities: tuple[str, ...], top_level: bool, width: int) -> tuple:
    return ("sweeps", fn, activities, top_level) if width == 1 else ("sweeps", fn, activities, top_level, width)


class _ReverseGenerator(LaneState):
    def __init__(self, ctx: ADContext, fn: Function, activities: tuple[str, ...], top_level: bool = False,
                 width: int = 1) -> None:
        if fn.is_declaration:
            raise DifferentiationError(f"@{fn.name} has no body to differentiate")
        self._init_lanes(width)  # shadows and adjoint slots, per lane (reverse_lanes.py)
        self.top_level = top_level
        self.ctx = ctx
        self.m = ctx.module
        self.fn = fn
        self.acts = activities
        self.push, self.pop = tape_functions(self.m)
        self.fwd: dict[Value, Value] = {}      # primal -> augmented value
        self.active: set[Value] = set()        # primal float values that carry adjoints
        self.float_bits: dict[Value, FloatType] = {}  # active integers holding float bits -> their adjoint type
        self.receives_active: dict[Value, bool] = {}  # allocas: may active data be stored into them?
        self.alloca_bytes: dict[Value, Value] = {}  # alloca -> its size in bytes (augmented)
        self.layout = DataLayout.of_module(ctx.module)
        self.realloc_copied: dict[Value, Value] = {}  # realloc -> shadow bytes it copied (augmented)
        self.custom_tapes: dict[Value, Value] = {}  # call with a custom gradient -> its rule's tape (augmented)
        # Shadows of heap blocks that a realloc may copy are zeroed over their usable size (realloc.py).
        self.zero_usable = module_reallocs(ctx.module)

    # ------------------------------------------------------------------ setup
    def _signatures(self) -> None:
        fn, m = self.fn, self.m
        w = self.width
        params, names = primal_and_shadow_params(fn, self.acts, w)
        self.return_bits = returned_float_bits(self.ctx, fn)  # an integer holding float bits: dret is a float
        self.returns_adjoint = carries_float(fn.return_type) or self.return_bits is not None
        self.dret_type = (self.return_bits or fn.return_type) if self.returns_adjoint else None
        for a, act in zip(fn.args, self.acts):
            if act == "out" and not carries_float(a.type):
                bits = float_bits_type(self.ctx, fn, a)
                if bits is None:
                    raise DifferentiationError(f"@{fn.name}: argument {a.index + 1} ({a.type}) is active but "
                                               "holds no floating-point value")
                self.float_bits[a] = bits
        # A returned pointer (or struct holding one) comes back with its shadow, so callers can follow it.
        self.returns_shadow = holds_pointers(fn.return_type)
        aug_ret = StructType((fn.return_type, batched(fn.return_type, w))) if self.returns_shadow \
            else fn.return_type
        self.out_types = tuple(batched(self.adjoint_type(a), w) for a, act in zip(fn.args, self.acts) if act == "out")
        tag = "" if w == 1 else str(w)
        aug = Function(m.unique_name(f"augmented{tag}_{fn.name}"), FunctionType(aug_ret, (*params, PTR)),
                       arg_names=[*names, "tape"], prefix="internal")
        ndret = w if self.returns_adjoint else 0
        rparams = [*params] + [self.dret_type] * ndret + [PTR]
        rnames = [*names] + (["dret"] if w == 1 else [f"dret{j}" for j in range(w)])[:ndret] + ["tape"]
        rev = Function(m.unique_name(f"reverse{tag}_{fn.name}"),
                       FunctionType(StructType(self.out_types) if self.out_types else VOID, tuple(rparams)),
                       arg_names=rnames, prefix="internal")
        m.add(aug)
        m.add(rev)
        self.aug, self.rev = aug, rev
        self.aug_tape = aug.args[-1]
        self.rev_tape = rev.args[-1]
        self.drets = list(rev.args[len(params):len(params) + ndret])
        k = 0
        for a, act in zip(fn.args, self.acts):
            self.fwd[a] = aug.args[k]
            k += 1
            if act in ("dup", "dupnoneed"):
                for j in range(w):
                    self.shadows[j][a] = aug.args[k]
                    k += 1
            if act == "out":
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
        self._augmented()
        self.orig_of = {v: k for k, v in self.fwd.items()}
        self.rereadable = self.top_level and _never_writes_memory(self.fn)
        self.loops = plan_loops(self.fn, self.order)
        self._count_iterations()
        self._reverse()
        return pair

    # -------------------------------------------------------------- augmented
    def _augmented(self) -> None:
        clones = clone_body(self.order, self.aug, self.fwd)
        # Activity ("may depend on an active input") and shadows, in RPO with phis iterated to a fixed point.
        ptr_phis = []
        for inst, ni in clones:
            if isinstance(inst, PhiInst) and holds_pointers(inst.type):
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
                bits = float_bits_type(self.ctx, self.fn, inst)
                if bits is not None and not only_integer_uses(self.ctx, self.fn, inst):
                    candidates.append((inst, bits))
        changed = True
        while changed:
            changed = False
            for inst, bits in candidates:
                if inst not in self.active and self._depends_on_active(inst):
                    self.active.add(inst)
                    if bits is not None:
                        self.float_bits[inst] = bits
                    changed = True
        # Activity analysis looks backward too: what cannot reach an active output needs no adjoint.
        self.plan = ActivityPlan(self.ctx, self.fn, self.acts, self.returns_adjoint or self.returns_shadow)
        self.plan.prune(self.active)
        self.displacements = [
            AddressDisplacements(lambda v: self.fwd.get(v, v), self.shadows[lane].get, self._maybe_shadowed)
            for lane in range(self.width)]
        for inst, ni in clones:
            # One builder for all lanes: lane j's shadow code follows lane j-1's.
            b = Builder(InsertPoint.after_inst(ni))
            for _ in self.lanes():
                self._augment(inst, ni, b)
        for displacements in self.displacements:
            displacements.finish()
        for inst, lane, sp in ptr_phis:
            self.lane = lane
            for v, blk in inst.incoming:
                if blk in self.fwd:
                    s = self._shadow_or_none(v)
                    if s is None:
                        raise DifferentiationError(f"{describe(inst)}: a pointer that may point to active memory "
                                                   "merges with one that has no shadow; not supported yet")
                    sp.add_incoming(s, self.fwd[blk])  # type: ignore[arg-type]
        self.lane = 0

    def _depends_on_active(self, inst: Instruction) -> bool:
        if isinstance(inst, LoadInst):
            return inst.pointer in self.shadow or self._maybe_shadowed(inst.pointer)
        if isinstance(inst, CallInst):
            name = inst.callee_name or ""
            if name and is_inactive_function(name) or is_custom_inactive(self, inst):
                return False
            if custom_gradient(self, inst) is not None:  # the rule may read active memory
                return any(a in self.active or self._maybe_shadowed(a) for a in inst.args)
            f = inst.called_function
            if (f is not None and not f.is_declaration) or (not name and not is_inline_asm(inst)):
                return any(a in self.active or self._maybe_shadowed(a) for a in inst.args)
            return any(a in self.active for a in inst.args)
        if isinstance(inst, PhiInst):
            return any(v in self.active for v, _ in inst.incoming)
        if isinstance(inst, BinaryOperator) and inst.opcode in BITWISE:
            sop = sign_operation(inst)
            if sop is not None:  # only the magnitude source carries a derivative
                return sop.source is not None and sop.source in self.active
        return any(v in self.active for v in inst.operands)

    def _maybe_shadowed(self, p: Value) -> bool:
        """Conservative pre-pass check: could ``p`` point to memory with a shadow?"""
        if p in self.shadow:
            return True
        if isinstance(p, CastInst) and p.opcode == "inttoptr":
            return bool(address_origins(p.operand(0), self._maybe_shadowed))
        if isinstance(p, (GEPInst, CastInst, ExtractValueInst)):
            return self._maybe_shadowed(p.operand(0))
        if isinstance(p, InsertValueInst):
            return self._maybe_shadowed(p.operand(0)) or self._maybe_shadowed(p.operand(1))
        if isinstance(p, (AllocaInst, LoadInst, PhiInst, SelectInst, CallInst)):
            return holds_pointers(p.type)
        return False

    def _shadow_or_null(self, inst: Instruction, v: Value) -> Value:
        """The shadow of ``v`` (a pointer or a struct holding pointers), else null shadows where that loses
        nothing; refused where it would lose derivatives."""
        s = self.shadow.get(v)
        if s is not None:
            return s
        error = null_shadow_error(inst, v, lambda q: points_to_no_floats(function_contexts(self.ctx, self.fn), q))
        if error is not None:
            raise error
        return zero(v.type)

    def _offset_of(self, t: Type, path: tuple[int, ...]) -> int:
        """Byte offset of the element at ``path`` inside an aggregate of type ``t``."""
        off = 0
        for i in path:
            o, t = self.layout.element_offset(t, i)
            off += o
        return off
    def _shadow_or_none(self, p: Value) -> Value | None:
        if isinstance(p, ConstantKeyword) and p.keyword in ("null", "undef", "poison"):
            return p
        return self.shadow.get(p)

    def _heap_alloc(self, b: Builder, nbytes: Value, align: int, name: str | None) -> Value:
        if align <= 16:
            malloc = self.m.declare_function("malloc", FunctionType(PTR, (I64,)))
            return b.call(malloc, [nbytes], name=name)
        aligned = self.m.declare_function("aligned_alloc", FunctionType(PTR, (I64, I64)))
        rounded = b.binop("and", b.add(nbytes, const_int(I64, align - 1)), const_int(I64, -align))
        return b.call(aligned, [const_int(I64, align), rounded], name=name)

    def _augment(self, inst: Instruction, ni: Instruction, b: Builder) -> None:
        """The augmented code of ``inst`` (cloned as ``ni``) for the current lane; ``b`` inserts after ``ni``."""
        if self.lane == 0:  # every lane has the same shadows: check once
            check_address_escape(inst, lambda p: p in self.shadow)
            self._check_float_bits(inst)
        if isinstance(inst, GEPInst) or (isinstance(inst, CastInst) and isinstance(inst.type, PointerType)
                                          and inst.opcode in ("bitcast", "addrspacecast")):
            s = self.shadow.get(inst.operand(0))
            if s is not None:
                g = ni.clone()
                g.set_operand(0, s)
                self.shadow[inst] = b.insert(g, value_name(inst, self.lane_suffix("'")))
        elif isinstance(inst, CastInst) and inst.opcode == "inttoptr":
            s = self.displacements[self.lane].shadow(inst, b, value_name(inst, self.lane_suffix("'")))
            if s is not None:
                self.shadow[inst] = s
        elif isinstance(inst, AllocaInst):
            # Stack memory would die when the augmented sweep returns, but the reverse sweep
            # still needs it: both the primal and the shadow live on the heap until the
            # reverse sweep passes the allocation.
            if self.lane == 0:
                nbytes: Value = const_int(I64, self.layout.alloc_size(inst.allocated_type))
                bb = Builder(InsertPoint.before_inst(ni))
                if inst.count is not None:
                    cnt = ni.operand(0)
                    if cnt.type != I64:
                        cnt = bb.cast("zext", cnt, I64)
                    nbytes = bb.mul(cnt, nbytes)
                heap = self._heap_alloc(bb, nbytes, inst.align or 16, inst.name)
                ni.replace_all_uses_with(heap)
                self.fwd[inst] = heap
                ni.erase()
                self.alloca_bytes[inst] = nbytes
            nbytes = self.alloca_bytes[inst]
            shadow = self._heap_alloc(b, nbytes, inst.align or 16, value_name(inst, self.lane_suffix("'")))
            zero_fill(self.m, b, shadow, nbytes)
            self.shadow[inst] = shadow
        elif isinstance(inst, LoadInst) and holds_pointers(inst.type):
            s = self.shadow.get(inst.pointer)
            if s is not None:
                self.shadow[inst] = b.load(inst.type, s, value_name(inst, self.lane_suffix("'")), inst.align)
        elif isinstance(inst, ExtractValueInst) and holds_pointers(inst.type):
            s = self.shadow.get(inst.operand(0))
            if s is not None:
                self.shadow[inst] = b.extractvalue(s, inst.indices, value_name(inst, self.lane_suffix("'")))
        elif isinstance(inst, InsertValueInst) and holds_pointers(inst.type):
            agg, val = inst.operands
            if agg in self.shadow or val in self.shadow:
                sv = self._shadow_or_null(inst, val) if holds_pointers(val.type) else zero(val.type)
                self.shadow[inst] = b.insertvalue(self._shadow_or_null(inst, agg), sv, inst.indices,
                                                  value_name(inst, self.lane_suffix("'")))
        elif isinstance(inst, SelectInst) and holds_pointers(inst.type):
            sa, sb = self._shadow_or_none(inst.operand(1)), self._shadow_or_none(inst.operand(2))
            if sa is not None and sb is not None:
                self.shadow[inst] = b.select(ni.operand(0), sa, sb, value_name(inst, self.lane_suffix("'")))
            elif sa is not None or sb is not None:
                raise DifferentiationError(f"{describe(inst)}: selects between a shadowed and an unshadowed "
                                           "pointer; not supported yet")
        elif isinstance(inst, StoreInst):
            v, p = inst.value, inst.pointer
            sp = self.shadow.get(p)
            if isinstance(v.type, PointerType) and sp is not None:
                b.store(self._shadow_or_null(inst, v), sp, inst.align)
            elif holds_pointers(v.type) and sp is not None:
                # A struct holding pointers: their shadows go to their places in the shadow memory (the
                # float fields' shadow bytes hold adjoints, which the reverse sweep takes care of).
                sv = self._shadow_or_null(inst, v)
                for path in pointer_paths(v.type):
                    at = b.gep(I8, sp, [const_int(I64, self._offset_of(v.type, path))])
                    b.store(b.extractvalue(sv, list(path)), at, 1)
            elif sp is None and (v in self.active or (holds_pointers(v.type) and v in self.shadow)) \
                    and not custom_rules(self.m).is_inactive_global(underlying_global(p)):
                # A pointer to memory with a shadow, stored where no shadow keeps its shadow: whoever loads it
                # back would see constant memory and lose the derivatives through it.  (Not into a global
                # declared inactive: there the derivative is dropped on purpose.)
                raise unshadowed_store_error(inst, p)
            elif sp is not None and isinstance(v.type, IntType) and isinstance(v, LoadInst) \
                    and v.pointer in self.shadow and v not in self.float_bits \
                    and not all(info.is_integer(v) for info in function_contexts(self.ctx, self.fn)):
                raise DifferentiationError(f"{describe(inst)}: copies memory through an integer ({v.type}); "
                                           "if it holds floating-point data the derivative would be lost. "
                                           "Not supported yet in reverse mode")
        elif isinstance(inst, CallInst):
            self._augment_call(inst, ni, b)
        elif isinstance(inst, CastInst) and inst.opcode == "bitcast" and inst.operand(0) in self.active \
                and not carries_float(inst.type) and inst not in self.float_bits \
                and not only_integer_uses(self.ctx, self.fn, inst):
            # e.g. bitcast double -> i64: the value's derivative would travel as integer bits.
            raise DifferentiationError(
                f"{describe(inst)}: reinterprets an active {inst.operand(0).type} value as {inst.type}; its "
                "derivative cannot follow integer bits in reverse mode yet")
        elif isinstance(inst, ReturnInst) and self.returns_shadow and self.lane == 0:  # all lanes at once
            v = inst.value
            assert v is not None
            svs = [self._shadow_or_null(inst, v) for _ in self.lanes()]
            rb = Builder(InsertPoint.before_inst(ni))
            pair_t = self.aug.return_type
            agg = rb.insertvalue(ConstantKeyword(pair_t, "undef"), ni.operand(0), [0])
            ni.set_operand(0, rb.insertvalue(agg, pack(rb, svs), [1]))

    def _augment_call(self, inst: CallInst, ni: Instruction, b: Builder) -> None:
        assert isinstance(ni, CallInst)
        name = inst.callee_name
        if name is None:
            if any(a in self.active or a in self.shadow for a in inst.args) or inst in self.active:
                if is_inline_asm(inst):
                    raise callee_unknown_error(inst)
                acts = self._call_activities(inst)
                if acts is not None and self.lane == 0:
                    self._augment_through(inst, ni, b, self._indirect_pair(inst, acts), acts, [ni.callee])
            return
        if name.startswith("llvm.lifetime."):
            if self.lane == 0:
                ni.erase()  # the stack object it marks now lives on the heap (see AllocaInst)
            return
        if is_inactive_function(name) or is_custom_inactive(self, inst):
            return
        if custom_gradient(self, inst) is not None:
            if self.width > 1 and (inst in self.active or any(a in self.active or a in self.shadow
                                                                for a in inst.args)):
                self.refuse_batch(inst, f"the registered gradient of @{name}")
            augment_custom_call(self, inst, ni, b)
            return
        mf = memory_function(name)
        kind = mf.kind.value if mf is not None else None
        if kind in ("alloc", "calloc"):
            assert mf is not None
            c = ni.clone()
            s = b.insert(c, value_name(inst, self.lane_suffix("'")))
            self.shadow[inst] = s
            # malloc_usable_size knows only malloc's blocks, not those of an allocation_like allocator.
            if self.zero_usable and custom_rules(self.m).allocation(inst) is None:
                zero_usable(self.m, b, s)
            elif kind == "alloc":
                assert mf.size is not None
                zero_fill(self.m, b, s, ni.args[mf.size])
            return
        if kind == "realloc":
            self.refuse_batch(inst, "realloc")
            augment_realloc(self, inst, ni, b)
            return
        if kind == "free":
            # The reverse sweep still reads the block and its shadow, back to where it was allocated
            # (maybe in a caller): both are freed once the whole reverse sweep is done (tape.py).  A block of
            # an allocation_like allocator goes back to its own deallocator when the reverse sweep passes its
            # allocation instead (the deferred frees call free()); one freed elsewhere is left to leak.
            if self.lane == 0:
                assert mf is not None and mf.ptr is not None
                if proxy_parts(name) is None:
                    self.free_after_reverse(b, inst.args[mf.ptr], ni.args[mf.ptr])
                ni.erase()
            return
        if kind == "set":
            return  # the shadow is zeroed in the reverse sweep
        if kind in ("copy", "move") and mf is not None and mf.dst is not None and mf.src is not None \
                and mf.size is not None:
            dst, src = inst.args[mf.dst], inst.args[mf.src]
            if dst not in self.shadow and src not in self.shadow:
                return
            if dst not in self.shadow:
                if custom_rules(self.m).is_inactive_global(underlying_global(dst)):
                    return  # into a global declared inactive: the derivative is dropped on purpose
                raise DifferentiationError(f"{describe(inst)}: copies memory that may hold active values into "
                                           "memory that has no shadow; pass the destination as enzyme_dup")
            if src not in self.shadow and may_copy_pointers(function_contexts(self.ctx, self.fn), dst, src,
                                                            copied_element_type(self.fn, [dst, src])):
                raise constant_pointer_copy_error(inst)
            layout = self._copy_layout(dst, src, inst.args[mf.size]) if src in self.shadow else None
            if src in self.shadow and layout is None:
                raise DifferentiationError(
                    f"{describe(inst)}: {name} of memory that may hold active values, but type analysis cannot tell "
                    "which copied bytes are floating-point data (some are never accessed with a type, or with "
                    "several), so their adjoints cannot be moved safely; copy the fields one by one with their "
                    "types")
            # Float adjoints move back in the reverse sweep; copied pointers take their shadows now.
            if layout is not None and layout.no_floats:
                c = ni.clone()
                c.set_operand(mf.dst, self.shadow[dst])
                c.set_operand(mf.src, self.shadow[src])
                b.insert(c)
            elif layout is not None and layout.pointers:
                emit_pointer_shadow_copies(b, self.shadow[dst], self.shadow[src], layout.pointers)
            return
        if kind is not None:
            if any(a in self.shadow for a in inst.args):
                raise DifferentiationError(f"{describe(inst)}: {name} of memory that may hold active values is "
                                           "not supported in reverse mode yet")
            return
        if lookup(name) is not None or is_struct_math_intrinsic(name) or is_float_reduction(name) \
                or is_complex_call(name):
            return
        f = inst.called_function
        if f is not None and not f.is_declaration:
            acts = self._call_activities(inst)
            if acts is None or self.lane > 0:  # the callee's sweeps take all lanes at once
                return
            self._augment_through(inst, ni, b, sweeps(self.ctx, f, acts, width=self.width), acts, [])
            return
        if inst in self.active or any(a in self.active for a in inst.args):
            raise no_rule_error(inst, name)
        # An unseen function given memory that may hold active values could read or overwrite it
        # (qsort permutes it, a library routine scales it): ignoring the call would lose derivatives.
        shadowed = [i for i, a in enumerate(inst.args) if a in self.shadow]
        if shadowed and (name.startswith("llvm.va_") or name in RUNTIME_HINTS):
            raise no_rule_error(inst, name)
        if shadowed:
            raise DifferentiationError(
                f"{describe(inst)}: @{name} has no body to differentiate and no derivative rule, and argument "
                f"{shadowed[0] + 1} points to memory that may hold active values; compile @{name} with the program "
                "(so its bitcode is linked in), add a rule (enzyme.rules), or mark it inactive if it never reads or "
                "writes floating-point data there")

    def _augment_through(self, inst: CallInst, ni: CallInst, b: Builder, pair: SweepPair, acts: tuple[str, ...],
                         lead: list[Value]) -> None:
        """Replace the clone ``ni`` of a call by a call of the callee's augmented sweep (``lead``: dispatch args)."""
        args: list[Value] = []
        for a, na, act in zip(inst.args, ni.args, acts):
            args.append(na)
            if act == "dup":
                args += [lane[a] for lane in self.shadows]
        call = b.call(pair.augmented, [*lead, *args, self.aug_tape])
        primal: Value = call
        if pair.returns_shadow:
            primal = b.extractvalue(call, [0])
            for j, lane_shadow in enumerate(unpack_lanes(b, call, [1], self.width)):
                lane_shadow.name = value_name(inst, "'" if self.width == 1 else f"'{j}")
                self.shadows[j][inst] = lane_shadow
        if not inst.type.is_void:
            ni.replace_all_uses_with(primal)
            primal.name = ni.name
        self.fwd[inst] = primal
        ni.erase()

    def _indirect_pair(self, inst: CallInst, acts: tuple[str, ...]) -> SweepPair:
        return reverse_dispatchers(self.ctx, inst, acts, self.width,
                                   lambda g: sweeps(self.ctx, g, acts, width=self.width))

    def _call_activities(self, inst: CallInst) -> tuple[str, ...] | None:
        acts = []
        for a in inst.args:
            if holds_pointers(a.type) and a in self.shadow:
                if a in self.active:
                    raise DifferentiationError(f"{describe(inst)}: passes a {a.type} mixing pointers and active "
                                               "floating-point values by value; not supported in reverse mode yet")
                acts.append("dup")
            elif (_is_fp(a.type) or a in self.float_bits) and a in self.active:
                acts.append("out")
            else:
                acts.append("const")
        if all(x == "const" for x in acts) and inst not in self.active and not is_allocator_call(self.ctx, inst):
            return None
        return tuple(acts)

    # ---------------------------------------------------------------- reverse
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
            self._seed_return(eb, rets[0])
            eb.br(self.inv[rets[0]])
        elif not rets:
            eb.unreachable()
        else:
            for i, r in enumerate(rets):
                ab = Builder(InsertPoint.before_terminator(self.fwd[r]))  # type: ignore[arg-type]
                self._push(ab, const_int(I64, i))
            idx = self._pop(eb, I64)
            blocks = []
            for r in rets:
                sb = rev.insert_block_after(entry, None)
                self._seed_return(Builder(sb), r)
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
                if act == "out":
                    agg = xb.insertvalue(agg, pack(xb, [self._load_adjoint(xb, a) for _ in self.lanes()]), [k])
                    k += 1
            xb.ret(agg)
        else:
            xb.ret()

    def _seed_return(self, b: Builder, r: Block) -> None:
        ret = r.terminator
        assert isinstance(ret, ReturnInst)
        v = ret.value
        if v is not None and self.drets and v in self.active:
            for j in self.lanes():
                self._add_adjoint(b, v, self.drets[j])

    def adjoint_type(self, v: Value) -> Type:
        """The type of ``v``'s adjoint: its own, or the float whose bits an integer holds."""
        return self.float_bits.get(v, v.type)

    def _adjoint_slot(self, v: Value) -> Value:
        s = self.adj_slot.get(v)
        if s is None:
            t = self.adjoint_type(v)
            b = Builder(InsertPoint(self.rentry, self.rentry.instructions[0] if self.rentry.instructions else None))
            s = b.alloca(t, name=value_name(v, self.lane_suffix(".adj")))
            b.store(zero(t), s)
            self.adj_slot[v] = s
        return s

    def _add_adjoint(self, b: Builder, v: Value, d: Value) -> None:
        if v not in self.active:
            return
        s = self._adjoint_slot(v)
        b.store(_fadd_deep(b, b.load(self.adjoint_type(v), s), d), s)

    def _load_adjoint(self, b: Builder, v: Value) -> Value:
        return b.load(self.adjoint_type(v), self._adjoint_slot(v))

    def _take_adjoint(self, b: Builder, v: Value) -> Value:
        """Read the adjoint of ``v`` and reset it (each loop iteration starts from zero)."""
        t = self.adjoint_type(v)
        s = self._adjoint_slot(v)
        d = b.load(t, s)
        b.store(zero(t), s)
        return d

    # -- tape ------------------------------------------------------------------
    def _push(self, b: Builder, v: Value) -> None:
        slot = b.call(self.push, [self.aug_tape, const_int(I64, slot_size(v.type, self.layout))])
        b.store(v, slot, 8)  # slots are 8-byte aligned: vectors must not assume their ABI alignment

    def _pop(self, b: Builder, t: Type) -> Value:
        slot = b.call(self.pop, [self.rev_tape, const_int(I64, slot_size(t, self.layout))])
        return b.load(t, slot, align=8)

    def _reverse_block(self, blk: Block) -> None:
        # The reverse of ``blk`` is two blocks: ``ib`` pops what the forward block pushed and
        # recomputes cheap values; ``body`` runs the reversed instructions.
        ib = self.inv[blk]
        body_block = self.rev.insert_block_after(ib, None)
        self.cur_blk = blk
        self.cur_ib = ib
        self.needs: dict[Value, Value] = {}   # augmented value -> placeholder in reverse
        self.need_order: list[Value] = []
        self.recomputed: dict[Value, Value] = {}
        self.recomputed_shifted: dict[int, dict[Value, Value]] = {}
        body = Builder(body_block)
        for inst in reversed(blk.instructions):
            for _ in self.lanes():
                self._reverse_inst(body, inst)
        # Control: back to the reverse of the predecessor the trace came from.
        preds = [p for p in blk.predecessors if p in self.inv]
        phis_active = [p for p in blk.phis() if p in self.active]
        loop = self.loops.get(blk)
        self._restore_counters(body, blk)
        if loop is not None:
            # A counted loop header: iteration 0 came from the preheader, later ones from the latch.
            slot = self._counter_slot(loop)
            k = body.load(I64, slot)
            first = body.icmp("eq", k, const_int(I64, 0))
            for phi in phis_active:
                for _ in self.lanes():
                    d = self._take_adjoint(body, phi)
                    z = zero(d.type)
                    self._add_adjoint(body, phi.value_for(loop.preheader), body.select(first, d, z))
                    self._add_adjoint(body, phi.value_for(loop.latch), body.select(first, z, d))
            body.store(body.sub(k, const_int(I64, 1)), slot)
            body.cond_br(first, self.inv[loop.preheader], self.inv[loop.latch])
        elif len(preds) <= 1:
            for phi in phis_active:
                for _ in self.lanes():
                    d = self._take_adjoint(body, phi)
                    if preds:
                        self._add_adjoint(body, phi.value_for(preds[0]), d)
            body.br(self.inv[preds[0]] if preds else self.exit_block)
        else:
            ab = Builder(InsertPoint.at_start(self.fwd[blk]))  # type: ignore[arg-type]
            came = ab.phi(I64, "from")
            for i, p in enumerate(preds):
                term = p.terminator
                assert term is not None
                for s in term.successor_blocks():  # one phi entry per CFG edge
                    if s is blk:
                        came.add_incoming(const_int(I64, i), self.fwd[p])  # type: ignore[arg-type]
            idx = self._need_aug_value(came)
            for phi in phis_active:
                for _ in self.lanes():
                    d = self._take_adjoint(body, phi)
                    for i, p in enumerate(preds):
                        v = phi.value_for(p)
                        if v in self.active:
                            is_p = body.icmp("eq", idx, const_int(I64, i))
                            self._add_adjoint(body, v, body.select(is_p, d, zero(d.type)))
            body.switch(idx, self.inv[preds[0]], [(i, self.inv[p]) for i, p in enumerate(preds)])
        # Pushes at the end of the forward block, pops at the start of the reverse block.
        ab = Builder(InsertPoint.before_terminator(self.fwd[blk]))  # type: ignore[arg-type]
        pb = Builder(InsertPoint(ib, ib.instructions[0] if ib.instructions else None))
        for v in self.need_order:
            self._push(ab, v)
        for v in reversed(self.need_order):
            popped = self._pop(pb, v.type)
            self.needs[v].replace_all_uses_with(popped)
        Builder(ib).br(body_block)

    # -- counted loops -------------------------------------------------------------
    def _count_iterations(self) -> None:
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
        # Exit blocks push the counters of every loop they leave, outermost first.
        for blk in self.order:
            leaving = self.loops_exited_at(blk)
            if leaving:
                xb = Builder(InsertPoint.at_start(self.fwd[blk]))  # type: ignore[arg-type]
                for lp in leaving:
                    self._push(xb, lp.counter)

    def loops_exited_at(self, blk: Block) -> list["LoopPlan"]:
        out = [lp for lp in self.loops.values() if blk in lp.exits]
        return sorted(out, key=lambda lp: lp.loop.depth)

    def _restore_counters(self, b: Builder, blk: Block) -> None:
        """At the end of an exit block's reverse: pop the counters (innermost first) into their slots."""
        for lp in reversed(self.loops_exited_at(blk)):
            b.store(self._pop(b, I64), self._counter_slot(lp))

    def _counter_slot(self, lp: "LoopPlan") -> Value:
        if lp.slot is None:
            eb = Builder(InsertPoint(self.rentry, self.rentry.instructions[0] if self.rentry.instructions else None))
            lp.slot = eb.alloca(I64, name="iter.rev")
        return lp.slot

    # -- values in the reverse sweep -----------------------------------------------------
    def _need_aug_value(self, av: Value) -> Value:
        """The augmented value ``av`` made available in the current reverse block.

        Recomputed when that is cheap and gives the same value (pure operations on
        available values, induction variables of counted loops, loads of memory the
        function never writes); otherwise pushed on the tape.
        """
        got = self._recompute(av, 0)
        return got if got is not None else self._tape(av)

    def _tape(self, av: Value) -> Value:
        """``av`` pushed at the end of the current forward block and popped at the start of its reverse."""
        ph = self.needs.get(av)
        if ph is None:
            from ..ir.parser import Placeholder
            ph = Placeholder(av.type, None)
            self.needs[av] = ph
            self.need_order.append(av)
        return ph

    def _recompute(self, av: Value, depth: int, shift: tuple["LoopPlan", Value] | None = None) -> Value | None:
        """``av`` rebuilt in the current reverse block, or None.

        With ``shift = (loop, k)``, ``av`` is rebuilt as it was in iteration ``k``
        of that loop (for values carried from the previous iteration).
        """
        if isinstance(av, Constant):
            return av
        if isinstance(av, Argument) and av.function is self.aug:
            return self.rev.args[av.index]
        memo = self.recomputed if shift is None else self.recomputed_shifted.setdefault(id(shift[0]), {})
        got = memo.get(av)
        if got is not None or depth > 12 or not isinstance(av, Instruction):
            return got
        orig = self.orig_of.get(av)
        if shift is not None and isinstance(orig, Instruction) and orig.parent in shift[0].loop.blocks \
                and orig.parent is not shift[0].loop.header:
            return None  # may not have run in the shifted iteration
        rb = Builder(self.cur_ib)
        if isinstance(orig, PhiInst):
            got = self._recompute_phi(rb, orig, depth, shift)
            if got is None:
                return None
        elif _recomputable(av) or (isinstance(av, LoadInst) and self.rereadable and not av.volatile
                                    and not av.atomic):
            # Operands that cannot be recomputed come from the tape; at most one, so that
            # recomputing never pushes more than taping ``av`` itself would.  (Not in a shifted
            # iteration: the tape holds the current one.)
            ops: list[Value | None] = [self._recompute(o, depth + 1, shift) for o in av.operands]
            missing = [i for i, r in enumerate(ops) if r is None]
            if len(missing) > 1 or (missing and (isinstance(av, LoadInst) or shift is not None)):
                return None
            for i in missing:
                ops[i] = self._tape(av.operand(i))
            it = iter(ops)
            got = rb.insert(av.clone(lambda _v: next(it)))
        else:
            return None
        memo[av] = got
        return got

    def _recompute_phi(self, rb: Builder, phi: PhiInst, depth: int,
                       shift: tuple["LoopPlan", Value] | None) -> Value | None:
        iv = _affine_iv(phi, self.loops)
        if iv is not None:
            lp, start, step = iv
            if self.cur_blk not in lp.loop.blocks:
                return None
            s0 = self._recompute(self.fwd.get(start, start), depth + 1, shift)
            if s0 is None:
                return None
            k = shift[1] if shift is not None and shift[0] is lp else rb.load(I64, self._counter_slot(lp))
            if phi.type != I64:
                k = rb.cast("trunc", k, phi.type)
            return rb.add(s0, rb.mul(k, const_int(phi.type, step)))
        # A value carried from the previous iteration (a load reused by the next one, say):
        # iteration 0 takes the preheader's value, iteration k the latch's value of k - 1.
        lp = self.loops.get(phi.parent) if phi.parent is not None else None
        if lp is None or shift is not None or self.cur_blk not in lp.loop.blocks:
            return None
        k = rb.load(I64, self._counter_slot(lp))
        first = rb.icmp("eq", k, const_int(I64, 0))
        prev_k = rb.select(first, const_int(I64, 0), rb.sub(k, const_int(I64, 1)))
        initial = self._recompute(self.fwd.get(phi.value_for(lp.preheader), phi.value_for(lp.preheader)), depth + 1)
        latch_v = phi.value_for(lp.latch)
        previous = self._recompute(self.fwd.get(latch_v, latch_v), depth + 1, (lp, prev_k))
        if initial is None or previous is None:
            return None
        return rb.select(first, initial, previous)

    def _primal(self, v: Value) -> Value:
        """The primal value ``v`` (of the original function) in the reverse sweep."""
        return self._need_aug_value(self.fwd.get(v, v))

    def _reverse_inst(self, b: Builder, inst: Instruction) -> None:
        op = inst.opcode
        if isinstance(inst, PhiInst) or inst.is_terminator and not isinstance(inst, CallInst):
            return
        if isinstance(inst, (BinaryOperator, UnaryOperator)) and op in INSTRUCTIONS:
            if inst in self.active:
                self._reverse_rule(b, inst, INSTRUCTIONS[op], inst.operands)
        elif isinstance(inst, CastInst):
            if inst in self.active and op == "bitcast" and (inst in self.float_bits or inst.operand(0) in self.float_bits):
                d = self._take_adjoint(b, inst)
                x = inst.operand(0)
                self._add_adjoint(b, x, d if d.type == self.adjoint_type(x) else b.cast("bitcast", d, self.adjoint_type(x)))
            elif inst in self.active and op in ("fpext", "fptrunc"):
                d = self._take_adjoint(b, inst)
                back = "fptrunc" if op == "fpext" else "fpext"
                self._add_adjoint(b, inst.operand(0), b.cast(back, d, inst.operand(0).type))
            elif inst in self.active and inst.operand(0) in self.active:
                raise DifferentiationError(f"{describe(inst)}: reverse mode does not support this cast yet")
        elif isinstance(inst, LoadInst):
            if inst in self.active and inst.pointer in self.shadow:
                if holds_pointers(inst.type):
                    raise DifferentiationError(f"{describe(inst)}: loads a {inst.type} mixing pointers and "
                                               "floating-point values; not supported in reverse mode yet")
                d = self._take_adjoint(b, inst)
                sp = self._need_aug_value(self.shadow[inst.pointer])
                b.store(_fadd_deep(b, b.load(d.type, sp, align=inst.align), d), sp, inst.align)
        elif isinstance(inst, StoreInst):
            v, p = inst.value, inst.pointer
            if p in self.shadow and not isinstance(v.type, PointerType) and not self.plan.skips_store(inst):
                sp = self._need_aug_value(self.shadow[p])
                if carries_float(v.type) or v in self.float_bits:
                    if holds_pointers(v.type):
                        raise DifferentiationError(f"{describe(inst)}: stores a {v.type} mixing pointers and "
                                                   "floating-point values; not supported in reverse mode yet")
                    t = self.adjoint_type(v)
                    d = b.load(t, sp, align=inst.align)
                    b.store(zero(t), sp, inst.align)
                    self._add_adjoint(b, v, d)
                else:
                    b.store(zero(v.type), sp, inst.align)
        elif isinstance(inst, SelectInst):
            if inst in self.active:
                d = self._take_adjoint(b, inst)
                c = self._primal(inst.operand(0))
                z = zero(d.type)
                self._add_adjoint(b, inst.operand(1), b.select(c, d, z))
                self._add_adjoint(b, inst.operand(2), b.select(c, z, d))
        elif isinstance(inst, FreezeInst):
            if inst in self.active:  # the identity on the values a derivative exists for
                self._add_adjoint(b, inst.operand(0), self._take_adjoint(b, inst))
        elif isinstance(inst, ExtractValueInst):
            if inst in self.active:
                d = self._take_adjoint(b, inst)
                agg = inst.operand(0)
                self._add_adjoint(b, agg, b.insertvalue(zero(agg.type), d, inst.indices))
        elif isinstance(inst, InsertValueInst):
            if inst in self.active:
                d = self._take_adjoint(b, inst)
                agg, val = inst.operands
                if val in self.active:
                    self._add_adjoint(b, val, b.extractvalue(d, inst.indices))
                if agg in self.active:
                    self._add_adjoint(b, agg, b.insertvalue(d, zero(val.type), inst.indices))
        elif isinstance(inst, CallInst):
            self._reverse_call(b, inst)
        elif isinstance(inst, AllocaInst):
            if self.lane == 0:
                self._free_both(b, inst)
        elif isinstance(inst, BinaryOperator) and inst in self.float_bits:
            self._reverse_sign_bit_operation(b, inst)
        elif is_vector_lane_instruction(inst):
            reverse_lane_instruction(self, b, inst)
        elif isinstance(inst, GEPInst) or not (inst in self.active or carries_float(inst.type)):
            return
        elif inst in self.active:
            raise DifferentiationError(f"{describe(inst)}: reverse mode does not support this instruction yet")

    def _reverse_sign_bit_operation(self, b: Builder, inst: BinaryOperator) -> None:
        """fneg/fabs/copysign through the bits: the adjoint goes to the magnitude source, sign-flipped as it was."""
        d = self._take_adjoint(b, inst)
        sop = sign_operation(inst)
        assert sop is not None and sop.source is not None  # checked by _check_float_bits
        mask = self.sign_masks.get(inst)  # the same for every lane
        if mask is None:
            mask = self.sign_masks[inst] = sign_flip_mask(b, self._primal(inst), self._primal(sop.source))
        self._add_adjoint(b, sop.source, flip_adjoint(b, d, mask))

    def _check_float_bits(self, inst: Instruction) -> None:
        """Refuse integer operations on active float bits that are not sign-bit operations."""
        bits_in = [v for v in inst.operands if v in self.float_bits]
        if inst.opcode not in INTEGER_SINKS:
            for v in inst.operands:
                if v not in self.float_bits and isinstance(v.type, IntType) and is_float_data(self.ctx, self.fn, v) \
                        and float_bits_type(self.ctx, self.fn, v) is None and self._may_hold_active_bits(v):
                    raise DifferentiationError(
                        f"{describe(inst)}: part of an active floating-point value travels in an integer ({v.type}; "
                        "a small struct such as {float, int} passed or returned as one integer?); not supported "
                        "in reverse mode yet")
        if isinstance(inst, (BinaryOperator, CastInst)) and inst not in self.float_bits and inst.opcode != "bitcast" \
                and is_float_data(self.ctx, self.fn, inst) and not (inst.opcode in BITWISE and sign_operation(inst)) \
                and any(self._may_hold_active_bits(v) for v in inst.operands) \
                and not only_integer_uses(self.ctx, self.fn, inst):
            raise float_bits_error(inst)  # e.g. nextafter by adding 1 to the bits of an active double
        if isinstance(inst, BinaryOperator) and inst.opcode in BITWISE and (bits_in or inst in self.float_bits):
            if sign_operation(inst) is None and not only_integer_uses(self.ctx, self.fn, inst):
                raise float_bits_error(inst)
        elif makes_float_of_untracked_bits(inst, lambda v: v in self.float_bits, self._maybe_shadowed) or \
                passes_untracked_bits(inst, lambda v: v in self.float_bits, self._maybe_shadowed):
            raise untracked_bits_error(inst)
        elif isinstance(inst, (LoadInst, StoreInst, PhiInst, SelectInst)) \
                or (isinstance(inst, CastInst) and inst.opcode == "bitcast"):
            return  # copies of the bits
        elif isinstance(inst, ReturnInst):
            if bits_in and self.return_bits is None:
                raise float_bits_error(inst, "a function returning")
        elif isinstance(inst, CallInst):
            name = inst.callee_name
            callee = inst.called_function
            if bits_in and not (name and is_inactive_function(name)) and not is_custom_inactive(self, inst) \
                    and (callee is None or callee.is_declaration or custom_gradient(self, inst) is not None):
                raise float_bits_error(inst, "a call passing")  # defined callees take them as active arguments
        elif bits_in and moves_whole_floats(inst, self.float_bits[bits_in[0]].bits):
            raise DifferentiationError(
                f"{describe(inst)}: moves an active floating-point value inside a wider integer (a small struct "
                "such as {float, int} passed or returned as one integer?); forward mode supports this, reverse "
                "mode not yet")
        elif inst in self.float_bits or (bits_in and inst.opcode not in INTEGER_SINKS
                                         and not only_integer_uses(self.ctx, self.fn, inst)):
            raise float_bits_error(inst, "a conversion of" if isinstance(inst, CastInst) else "integer arithmetic on")

    def _may_hold_active_bits(self, v: Value) -> bool:
        return may_hold_active_bits(
            v, lambda x: x in self.float_bits,
            lambda load: self._maybe_shadowed(load.pointer) and not is_integer_data(self.ctx, self.fn, load)
            and self._may_receive_active(load.pointer))

    def _may_receive_active(self, p: Value) -> bool:
        """Could the memory ``p`` points into hold active data?  Only a local that nothing active is stored
        into, and whose address goes to no call, answers no."""
        while isinstance(p, (GEPInst, CastInst)) and isinstance(p.operand(0).type, PointerType):
            p = p.operand(0)
        if not isinstance(p, AllocaInst):
            return True
        got = self.receives_active.get(p)
        if got is None:
            self.receives_active[p] = False  # a cycle through its own stores adds nothing
            got = self.receives_active[p] = _alloca_receives(p, lambda v: v in self.active or (
                isinstance(v.type, IntType) and self._may_hold_active_bits(v)))
        return got

    def _reverse_copy(self, b: Builder, inst: CallInst, overlapping: bool, dst: Value, src: Value,
                      size: Value) -> None:
        layout = self._copy_layout(dst, src, size) if src in self.shadow else None
        if layout is not None and layout.element is None and not layout.leaves:
            return  # no floating-point data was copied (a struct of integers and pointers)
        sd = self._need_aug_value(self.shadow[dst])
        nbytes = self._primal(size)
        if nbytes.type != I64:
            nbytes = b.cast("zext", nbytes, I64)
        if src not in self.shadow:  # constant data was copied: the overwritten adjoints are dropped
            zero_fill(self.m, b, sd, nbytes)
            return
        assert layout is not None  # checked in the augmented sweep
        ss = self._need_aug_value(self.shadow[src])
        if layout.element is None:
            emit_leaf_adjoints(b, sd, ss, layout.leaves)
            return
        helper = copy_adjoint_function(self.m, layout.element, overlapping)
        b.call(helper, [sd, ss, nbytes])

    def _copy_layout(self, dst: Value, src: Value, size: Value) -> CopyLayout | None:
        """What a copy moves, from type analysis and how this function accesses the memory."""
        accessed = copied_element_type(self.fn, [dst, src])
        nbytes = size.value if isinstance(size, ConstantInt) else None
        infos = function_contexts(self.ctx, self.fn)
        return copy_layout(infos, dst, src, nbytes, self.layout, analyzed_functions(self.ctx), accessed)

    def free_after_reverse(self, b: Builder, block: Value, primal: Value) -> None:
        """Free ``primal`` (the augmented ``block``) and its shadows (all lanes) after the reverse sweep."""
        defer_free(self.m, b, self.aug_tape, primal)
        for lane in self.shadows:
            if block in lane:
                defer_free(self.m, b, self.aug_tape, lane[block])

    def _release_custom_allocation(self, b: Builder, inst: CallInst) -> None:
        """An allocation_like block and its shadows (all lanes) go back to the user's deallocator."""
        spec = custom_rules(self.m).allocation(inst)
        assert spec is not None
        allocator_args = inst.args

        def allocator_arg(k: int) -> Value:
            return self._primal(allocator_args[k])

        for lane in self.shadows:
            b.call(spec.deallocator, spec.release_args(self._need_aug_value(lane[inst]), allocator_arg))
        b.call(spec.deallocator, spec.release_args(self._primal(inst), allocator_arg))

    def _free_both(self, b: Builder, inst: Instruction) -> None:
        """Free a stack object moved to the heap, and its shadows (all lanes), once the reverse sweep has passed it."""
        free = self.m.declare_function("free", FunctionType(VOID, (PTR,)))
        for lane in self.shadows:
            b.call(free, [self._need_aug_value(lane[inst])])
        b.call(free, [self._primal(inst)])

    def _reverse_rule(self, b: Builder, inst: Instruction, rule, args: Sequence[Value]) -> None:
        d = self._take_adjoint(b, inst)
        log_gradient(self, b, inst, d, args)
        em = self.emitters.get(inst)  # made by the first lane: the partials are shared by the others
        if em is None:
            need = rule.used_args
            rargs = [self._primal(a) if i in need else a for i, a in enumerate(args)]
            result = self._primal(inst) if rule.uses_result else None
            em = self.emitters[inst] = Emitter(self.m, b, rargs, result, inst.type)
        nonfinite = self.ctx.nonfinite.may_be_nonfinite
        for i, p in enumerate(rule.partials):
            if p is None or i >= len(args) or args[i] not in self.active:
                continue
            # A value the program computes and then drops (a select's other operand, a branch LLVM made
            # speculative) has a zero adjoint; where its partial may be infinite (1/y at y == 0), 0·inf
            # must not put a NaN into the gradient (enzyme/analysis/nonfinite.py).
            singular = rule.singular or may_be_nonfinite(p, lambda k: nonfinite(args[k]), nonfinite(inst))
            self._add_adjoint(b, args[i], em.times(p, d, singular=singular))

    def _reverse_call(self, b: Builder, inst: CallInst) -> None:
        name = inst.callee_name
        if name is None:
            acts = self._call_activities(inst) if not is_inline_asm(inst) and self.lane == 0 else None
            if acts is not None:
                self._reverse_through(b, inst, self._indirect_pair(inst, acts), acts,
                                      [self._primal(inst.callee)])
            return
        if is_inactive_function(name) or is_custom_inactive(self, inst):
            return
        if custom_gradient(self, inst) is not None:
            reverse_custom_call(self, b, inst)
            return
        mf = memory_function(name)
        if mf is not None:
            kind = mf.kind.value
            if kind in ("alloc", "calloc") and proxy_parts(name) is not None and released_in_function(inst):
                if self.lane == 0:
                    self._release_custom_allocation(b, inst)
            elif kind == "realloc":
                reverse_realloc(self, b, inst)
            elif kind == "set" and mf.dst is not None and mf.size is not None and inst.args[mf.dst] in self.shadow:
                # The overwritten bytes' adjoints are consumed: zero them.
                zero_fill(self.m, b, self._need_aug_value(self.shadow[inst.args[mf.dst]]),
                          self._primal(inst.args[mf.size]))
            elif kind in ("copy", "move") and mf.dst is not None and mf.src is not None and mf.size is not None \
                    and inst.args[mf.dst] in self.shadow:
                self._reverse_copy(b, inst, kind == "move", inst.args[mf.dst], inst.args[mf.src],
                                   inst.args[mf.size])
            return
        rule = lookup(name)
        if rule is not None:
            if inst in self.active:
                self._reverse_rule(b, inst, rule, inst.args)
            return
        if is_struct_math_intrinsic(name):
            reverse_struct_math_intrinsic(self, b, inst)
            return
        if is_float_reduction(name):
            reverse_reduction(self, b, inst)
            return
        if is_complex_call(name):
            if inst in self.active:
                seed = unpack(b, self._take_adjoint(b, inst))
                adjoints = reverse_adjoints(b, name, [self._primal(a) for a in inst.args], self._primal(inst), seed)
                for a, d in zip(inst.args, adjoints):
                    self._add_adjoint(b, a, zero_where_seeds_zero(b, list(seed), d))  # as in _reverse_rule
            return
        f = inst.called_function
        if f is None or f.is_declaration or self.lane > 0:  # the callee's reverse sweep takes all lanes
            return
        acts = self._call_activities(inst)
        if acts is None:
            return
        self._reverse_through(b, inst, sweeps(self.ctx, f, acts, width=self.width), acts, [])

    def _reverse_through(self, b: Builder, inst: CallInst, pair: SweepPair, acts: tuple[str, ...],
                         lead: list[Value]) -> None:
        """Call the callee's reverse sweep and add the returned adjoints (``lead``: dispatch args)."""
        args: list[Value] = []
        for a, act in zip(inst.args, acts):
            args.append(self._primal(a))
            if act == "dup":
                args += [self._need_aug_value(lane[a]) for lane in self.shadows]
        if pair.returns_adjoint:
            assert pair.dret_type is not None
            args += [self._take_adjoint(b, inst) if inst in self.active else zero(pair.dret_type)
                     for _ in self.lanes()]
        res = b.call(pair.reverse, [*lead, *args, self.rev_tape])
        k = 0
        for a, act in zip(inst.args, acts):
            if act == "out":
                for j, d in enumerate(unpack_lanes(b, res, [k], self.width)):
                    with self.in_lane(j):
                        self._add_adjoint(b, a, d)
                k += 1


_RECOMPUTABLE = frozenset({
    "getelementptr", "add", "sub", "mul", "shl", "lshr", "ashr", "and", "or", "xor", "icmp", "fcmp", "select",
    "trunc", "zext", "sext", "fptrunc", "fpext", "sitofp", "uitofp", "fptosi", "fptoui", "bitcast", "ptrtoint",
    "inttoptr", "fadd", "fsub", "fmul", "fneg", "extractvalue", "extractelement", "insertelement",
    "shufflevector", "freeze"})


_RECOMPUTABLE_INTRINSICS = ("llvm.fmuladd.", "llvm.fma.", "llvm.fabs.", "llvm.copysign.", "llvm.minnum.",
                            "llvm.maxnum.", "llvm.minimum.", "llvm.maximum.", "llvm.smax.", "llvm.smin.",
                            "llvm.umax.", "llvm.umin.", "llvm.abs.", "llvm.frexp.")


def _recomputable(inst: Instruction) -> bool:
    """Pure, cheap instructions that give the same value whenever their operands do."""
    if isinstance(inst, CallInst):
        return (inst.callee_name or "").startswith(_RECOMPUTABLE_INTRINSICS)
    return inst.opcode in _RECOMPUTABLE


def _alloca_receives(alloca: AllocaInst, is_active: Callable[[Value], bool]) -> bool:
    """Is anything ``is_active`` stored into ``alloca`` (through GEPs and casts), or does its address reach a call?"""
    work: list[Value] = [alloca]
    seen: set[Value] = set()
    while work:
        p = work.pop()
        if p in seen:
            continue
        seen.add(p)
        for u in p.users:
            if isinstance(u, StoreInst):
                if u.pointer is p and is_active(u.value) or u.value is p:
                    return True  # an active value, or the address itself escapes
            elif isinstance(u, (GEPInst, CastInst, PhiInst, SelectInst)):
                work.append(u)
            elif isinstance(u, CallInst) and not (u.callee_name or "").startswith("llvm.lifetime."):
                return True
    return False


def _never_writes_memory(fn: Function) -> bool:
    """No stores, atomics or calls that could write memory (math functions and intrinsics aside)."""
    for inst in fn.instructions():
        if isinstance(inst, StoreInst) or inst.opcode in ("atomicrmw", "cmpxchg", "fence", "va_arg"):
            return False
        if isinstance(inst, CallInst):
            name = inst.callee_name or ""
            if not (lookup(name) is not None or name.startswith(("llvm.lifetime.", "llvm.assume", "llvm.dbg."))):
                return False
        elif inst.opcode not in _RECOMPUTABLE and not isinstance(inst, (LoadInst, PhiInst, GEPInst, AllocaInst)) \
                and not inst.is_terminator:
            return False
    return True


@dataclass(eq=False)
class LoopPlan:
    """A loop reversed with an iteration counter instead of taped branch decisions."""

    loop: Loop
    preheader: Block
    latch: Block
    exits: set[Block]
    counter: Value | None = None   # augmented: iteration number
    slot: Value | None = None      # reverse: current iteration number


def plan_loops(fn: Function, order: list[Block]) -> dict[Block, LoopPlan]:
    """Loops in simplified form (preheader, one latch, dedicated exits), keyed by header."""
    reachable = set(order)
    out: dict[Block, LoopPlan] = {}
    for lp in LoopInfo(fn).all_loops:
        pre = lp.preheader
        if pre is None or len(lp.latches) != 1:
            continue
        header = lp.header
        if set(header.predecessors) != {pre, lp.latches[0]}:
            continue
        exits = set(lp.exit_blocks)
        if any(p not in lp.blocks for x in exits for p in x.predecessors if p in reachable):
            continue  # an exit block also reached from outside: not dedicated
        out[header] = LoopPlan(lp, pre, lp.latches[0], exits)
    return out


def _affine_iv(phi: PhiInst, loops: dict[Block, LoopPlan]) -> tuple[LoopPlan, Value, int] | None:
    """``phi = start + step * iteration`` for a header phi of a counted loop with a constant integer step."""
    lp = loops.get(phi.parent) if phi.parent is not None else None
    if lp is None or not isinstance(phi.type, IntType):
        return None
    start = phi.value_for(lp.preheader)
    nxt = phi.value_for(lp.latch)
    if isinstance(nxt, BinaryOperator) and nxt.opcode in ("add", "sub"):
        a, b = nxt.operands
        if a is phi and isinstance(b, ConstantInt):
            return lp, start, b.value if nxt.opcode == "add" else -b.value
        if b is phi and isinstance(a, ConstantInt) and nxt.opcode == "add":
            return lp, start, a.value
    return None


def _fadd_deep(b: Builder, a: Value, d: Value) -> Value:
    """``a + d`` for floats, float vectors, and structs/arrays of them (integer and pointer fields kept)."""
    t = a.type
    if isinstance(t, (StructType, ArrayType)):
        elements = t.elements if isinstance(t, StructType) else (t.element,) * t.count
        for i, et in enumerate(elements):
            if carries_float(et):
                a = b.insertvalue(a, _fadd_deep(b, b.extractvalue(a, [i]), b.extractvalue(d, [i])), [i])
        return a
    return b.fadd(a, d)

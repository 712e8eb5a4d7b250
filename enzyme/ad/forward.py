"""Forward mode: tangent code interleaved with a clone of the primal.

``fwddiffe_<f>`` takes each primal argument followed, for dup arguments,
by its tangent (floats) or shadow pointer, and returns ``{primal, tangent}``
for a floating-point result (the primal alone for other results).  Tangents
are symbolic zeros (``None``) until something active flows in, so inactive
code gets no derivative instructions.  Pointers carry shadows: memory that
mirrors the primal memory and holds tangents.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..errors import DifferentiationError
from ..ir import (AllocaInst, BinaryOperator, CallInst, CastInst, Constant, ConstantKeyword, ExtractElementInst,
                  ExtractValueInst, FreezeInst, Function, FunctionType, GEPInst, InsertElementInst, InsertValueInst,
                  Instruction, IntType, LoadInst, PhiInst, ReturnInst, SelectInst, ShuffleVectorInst, StoreInst, StructType,
                  UnaryOperator, Value)
from ..analysis.layout import DataLayout
from ..analysis.sign_bits import BITWISE, sign_operation
from ..ir.builder import Builder, InsertPoint, const_int
from ..ir.types import I64, ArrayType, PointerType, Type, VectorType, scalar_of
from ..rules import INSTRUCTIONS, lookup
from ..rules.emit import Emitter
from .common import (ADContext, callee_unknown_error, carries_float, check_address_escape, clone_body,
                     constant_pointer_copy_error, describe, differentiable_order, is_inactive_function, is_inline_asm,
                     memory_function, no_rule_error, primal_and_shadow_params, underlying_global,
                     unshadowed_store_error, value_name, zero, zero_fill)
from .activity_plan import ActivityPlan
from .aggregate_shadows import holds_pointers, null_shadow_error
from .allocators import is_allocator_call
from .complex_calls import forward_tangent, is_complex_call, pack
from .copy_types import function_contexts, may_copy_pointers, points_to_no_floats
from .memcopy import copied_element_type
from .custom import custom_rules, is_float
from .float_bits import (float_bits_error, float_bits_type, float_granule, is_float_data, is_integer_data,
                         makes_float_of_untracked_bits, may_hold_active_bits, moves_whole_floats, only_integer_uses,
                         passes_untracked_bits, returns_float_data, sign_flip_mask, untracked_bits_error)
from .indirect import forward_dispatcher
from .integer_addresses import AddressDisplacements
from .special_calls import forward_struct_math_intrinsic, is_struct_math_intrinsic

if TYPE_CHECKING:
    from ..rules.memory import MemoryFunction

_SELECTING_REDUCTIONS = tuple(f"llvm.vector.reduce.{op}." for op in ("fmax", "fmin", "fmaximum", "fminimum"))
_PASSIVE_OPCODES = frozenset({
    "icmp", "fcmp", "br", "switch", "unreachable", "fence", "fptosi", "fptoui", "add", "sub", "mul", "udiv",
    "sdiv", "urem", "srem", "shl", "lshr", "ashr", "and", "or", "xor", "trunc", "zext", "sext", "ptrtoint",
    "inttoptr"})


def forward_derivative(ctx: ADContext, fn: Function, activities: tuple[str, ...], width: int = 1) -> Function:
    """``fwddiffe_<fn>`` for the given argument activities (memoized); ``fwddiffe<W>_<fn>`` for batch width W.

    Width W carries W tangents per value: each dup argument is followed by W
    shadows, and a returned tangent is ``[W x T]``.
    """
    key = ("forward", fn, activities) if width == 1 else ("forward", fn, activities, width)
    done = ctx.memo.get(key)
    if done is None:
        rule = custom_rules(ctx.module).forward(fn)
        if rule is not None:
            done = custom_forward_wrapper(ctx, fn, rule, activities, width)
        else:
            done = _ForwardGenerator(ctx, fn, activities, width).run()
        ctx.memo[key] = done
    return done


def tangent_type(t: Type, width: int) -> Type:
    """The type carrying ``width`` tangents of a ``t`` value."""
    return t if width == 1 else ArrayType(width, t)


def _derivative_function(ctx: ADContext, fn: Function, activities: tuple[str, ...], width: int) -> Function:
    params, names = primal_and_shadow_params(fn, activities, width)
    rt = fn.return_type
    with_tangent = returns_tangent(fn) or returns_float_data(ctx, fn)
    ret = StructType((rt, tangent_type(rt, width))) if with_tangent else rt
    base = "fwddiffe_" if width == 1 else f"fwddiffe{width}_"
    new = Function(ctx.module.unique_name(f"{base}{fn.name}"), FunctionType(ret, tuple(params)),
                   arg_names=names, prefix="internal")
    ctx.module.add(new)
    return new


def _pack(b: Builder, lanes: list[Value], width: int) -> Value:
    """W lane values as the ``[W x T]`` a batch derivative returns (the value itself for width 1)."""
    if width == 1:
        return lanes[0]
    agg: Value = ConstantKeyword(ArrayType(width, lanes[0].type), "undef")
    for j, v in enumerate(lanes):
        agg = b.insertvalue(agg, v, [j])
    return agg


def custom_forward_wrapper(ctx: ADContext, fn: Function, rule: Function, activities: tuple[str, ...],
                           width: int = 1) -> Function:
    """``fwddiffe_<fn>`` built on the user's registered ``rule`` (foo_fwd): tangent from the rule, primal from fn.

    The rule runs first (once per batch direction), on fn's unmodified inputs
    (fn may overwrite them); it wants a tangent after every float and pointer
    argument: inactive floats get 0, inactive pointers cannot be given a
    shadow and are refused.
    """
    new = _derivative_function(ctx, fn, activities, width)
    b = Builder(new.append_block("entry"))
    primal_args: list[Value] = []
    rule_args: list[list[Value]] = [[] for _ in range(width)]
    k = 0
    for i, (a, act) in enumerate(zip(fn.args, activities)):
        v = new.args[k]
        k += 1
        primal_args.append(v)
        shadows: list[Value] | None = None
        if act in ("dup", "dupnoneed"):
            shadows = list(new.args[k:k + width])
            k += width
        if shadows is None and isinstance(a.type, PointerType):
            raise DifferentiationError(
                f"@{fn.name}: argument {i + 1} points to memory with no shadow, but the registered forward "
                f"derivative @{rule.name} needs one; pass that memory as enzyme_dup (Duplicated)")
        for j in range(width):
            rule_args[j].append(v)
            if is_float(a.type) or isinstance(a.type, PointerType):
                rule_args[j].append(shadows[j] if shadows is not None else zero(a.type))
    tangents = [b.call(rule, rule_args[j]) for j in range(width)]
    primal = b.call(fn, primal_args)
    rt = fn.return_type
    if returns_tangent(fn):
        agg = b.insertvalue(ConstantKeyword(new.return_type, "undef"), primal, [0])
        b.ret(b.insertvalue(agg, _pack(b, tangents, width), [1]))  # type: ignore[arg-type]
    else:
        b.ret(None if rt.is_void else primal)
    return new


def _may_get_shadow(p: Value) -> bool:
    """Could the walk still give ``p`` a shadow?  (A pointer an instruction makes may, later in a loop.)"""
    return isinstance(p, Instruction) and isinstance(p.type, PointerType)


def returns_tangent(fn: Function) -> bool:
    return _has_tangent(fn.return_type)


def _has_tangent(t: Type) -> bool:
    return carries_float(t) or holds_pointers(t)


class _ForwardGenerator:
    """Generates one forward derivative.

    Batch width W: every value has W tangents, one per *lane*, kept in
    ``tans[j]``; the instruction handlers are written for one lane (``tan``
    is the current lane's map) and run once per lane, except calls to
    derivative functions and returns, which take all lanes at once.  W
    scalar tangents rather than ``[W x T]`` aggregates keep every rule as it
    is for width 1, and LLVM's SLP vectorizer can still pack the lanes.
    """

    def __init__(self, ctx: ADContext, fn: Function, activities: tuple[str, ...], width: int = 1) -> None:
        self.ctx = ctx
        self.fn = fn
        self.activities = activities
        self.width = width
        self.vmap: dict[Value, Value] = {}
        self.tans: list[dict[Value, Value]] = [{} for _ in range(width)]
        self.lane = 0
        # Integers holding the bits of active floats -> the width of those floats (0: unknown); their
        # tangents are integers too, the tangents' bits in the same places.
        self.float_bits: dict[Value, int] = {}
        self.emitters: dict[Instruction, Emitter] = {}  # partials emitted once, shared by the lanes
        self.sign_masks: dict[Instruction, Value] = {}  # sign-bit operations: emitted once, shared by the lanes

    @property
    def tan(self) -> dict[Value, Value]:
        """The current lane's tangents (shadows for pointers)."""
        return self.tans[self.lane]

    # -- signature -------------------------------------------------------------
    def _make_function(self) -> Function:
        fn = self.fn
        new = _derivative_function(self.ctx, fn, self.activities, self.width)
        k = 0
        for a, act in zip(fn.args, self.activities):
            self.vmap[a] = new.args[k]
            k += 1
            if act in ("dup", "dupnoneed"):
                for j in range(self.width):
                    self.tans[j][a] = new.args[k]
                    k += 1
                if isinstance(a.type, IntType) and self._holds_float_bits(a):
                    self._mark_bits(a)  # a double_of(uint64_t) helper
        for lane, seeded in zip(self.tans, custom_rules(self.ctx.module).global_shadows(fn, self.width)):
            lane.update(seeded)  # globals with a shadow (enzyme_shadow) are active memory
        return new

    # -- driver ------------------------------------------------------------------
    def run(self) -> Function:
        new = self._make_function()
        key = ("forward", self.fn, self.activities) if self.width == 1 else \
            ("forward", self.fn, self.activities, self.width)
        self.ctx.memo[key] = new
        self.new = new
        order = differentiable_order(self.fn)
        clones = clone_body(order, new, self.vmap)
        # Phis first (their incoming tangents may be defined later), then everything in RPO.
        phis = [(i, n) for i, n in clones if isinstance(i, PhiInst)]
        # Activity analysis looks backward too: a float that cannot reach an active output needs no tangent.
        self.plan = ActivityPlan(self.ctx, self.fn, self.activities, new.return_type != self.fn.return_type)
        for inst, ni in phis:
            if (_has_tangent(inst.type) or self._holds_float_bits(inst)) and not self.plan.needs_no_tangent(inst):
                if isinstance(inst.type, IntType):
                    self._mark_bits(inst)
                for lane in self.tans:
                    lane[inst] = Builder(InsertPoint.before_inst(ni)).phi(inst.type, value_name(inst, "'"))
        self.displacements = [
            AddressDisplacements(lambda v: self.vmap.get(v, v), shadows.get,
                                 lambda p, shadows=shadows: p in shadows or _may_get_shadow(p))  # type: ignore[misc]
            for shadows in self.tans]
        for inst, ni in clones:
            if isinstance(inst, PhiInst) or self.plan.needs_no_tangent(inst):
                continue
            # One builder for all lanes: lane j's code follows lane j-1's, so shared partials come first.
            b = Builder(InsertPoint.after_inst(ni))
            for lane in range(self.width):
                self.lane = lane
                self._tangent_of(inst, ni, b)
                if ni.parent is None:  # a call replaced by its derivative's, for all lanes at once
                    break
            self.lane = 0
        for inst, ni in phis:
            for lane in range(self.width):
                self.lane = lane
                tp = self.tan.get(inst)
                if isinstance(tp, PhiInst):
                    for v, blk in inst.incoming:
                        if blk in self.vmap:
                            tp.add_incoming(self._t(v, inst), self.vmap[blk])  # type: ignore[arg-type]
        self.lane = 0
        for displacements in self.displacements:
            displacements.finish()
        return new

    # -- tangents ------------------------------------------------------------------
    def _t(self, v: Value, at: Instruction) -> Value:
        """Tangent (or shadow) of ``v`` as a value: zero/null when it carries none."""
        t = self.tangent(v)
        if t is not None:
            return t
        if isinstance(v.type, PointerType) and not isinstance(v, Constant):
            return ConstantKeyword(v.type, "null")
        return zero(v.type)

    def tangent(self, v: Value) -> Value | None:
        if isinstance(v, ConstantKeyword) and v.keyword == "null":
            return v
        return self.tan.get(v)

    def _tangent_of(self, inst: Instruction, ni: Instruction, b: Builder) -> None:
        ops = inst.operands
        op = inst.opcode
        if self.lane == 0:  # every lane has the same shadows: check once
            check_address_escape(inst, lambda p: self.tangent(p) is not None)
        if isinstance(inst, PhiInst):
            return
        if op in _PASSIVE_OPCODES and not isinstance(inst, CastInst):
            on_bits = any(v in self.float_bits for v in ops) or (
                op not in ("icmp", "fcmp") and is_float_data(self.ctx, self.fn, inst)
                and any(self._may_hold_active_bits(v) for v in ops))
            if not on_bits or op in ("icmp", "br", "switch"):
                return
            if op in BITWISE and sign_operation(inst) is not None \
                    and float_bits_type(self.ctx, self.fn, inst) is not None:
                self._sign_bit_operation(inst, ni, b)
            elif not self._move_floats(inst, ni, b) and not only_integer_uses(self.ctx, self.fn, inst):
                raise float_bits_error(inst)
            return
        if isinstance(inst, (BinaryOperator, UnaryOperator)) and op in INSTRUCTIONS:
            self._apply_rule(inst, ni, INSTRUCTIONS[op], ops, b)
        elif isinstance(inst, CastInst) and op == "inttoptr":
            s = self.displacements[self.lane].shadow(inst, b, value_name(inst, "'"))
            if s is not None:
                self.tan[inst] = s
        elif isinstance(inst, CastInst):
            t = self.tangent(ops[0])
            if makes_float_of_untracked_bits(inst, lambda v: self.tangent(v) is not None,
                                             lambda p: self.tangent(p) is not None):
                raise untracked_bits_error(inst)
            # sitofp/uitofp read the bits as an integer: a step function, derivative zero.
            if op not in ("bitcast", "sitofp", "uitofp") and (ops[0] in self.float_bits or (
                    is_float_data(self.ctx, self.fn, inst) and self._may_hold_active_bits(ops[0]))):
                if not self._move_floats(inst, ni, b) and not only_integer_uses(self.ctx, self.fn, inst):
                    raise float_bits_error(inst, "a conversion of")
                return
            if t is not None and op in ("fpext", "fptrunc", "bitcast", "addrspacecast"):
                self.tan[inst] = b.cast(op, t, inst.type, value_name(inst, "'"))
                if op == "bitcast" and (carries_float(ops[0].type) or ops[0] in self.float_bits) \
                        and not carries_float(inst.type):
                    # copying these bits is fine, computing with them is not
                    self._mark_bits(inst, self.float_bits.get(ops[0]) or scalar_of(ops[0].type).bits)
            elif t is not None and carries_float(ops[0].type) and op in ("fptosi", "fptoui"):
                pass  # an integer result carries no derivative
        elif isinstance(inst, LoadInst):
            s = self.tangent(inst.pointer)
            if s is not None:
                self.tan[inst] = b.load(inst.type, s, value_name(inst, "'"), inst.align)
        elif isinstance(inst, StoreInst):
            self._store(inst, b)
        elif isinstance(inst, GEPInst):
            s = self.tangent(inst.pointer)
            if s is not None:
                g = ni.clone()
                g.set_operand(0, s)
                self.tan[inst] = b.insert(g, value_name(inst, "'"))
        elif isinstance(inst, AllocaInst):
            shadow = b.insert(ni.clone(), value_name(inst, "'"))
            self.tan[inst] = shadow
            # Zeroed, as upstream does: bytes nothing differentiated writes (an inactive call's output, say)
            # have no tangent.  LLVM drops the memset where stores overwrite everything anyway.
            nbytes: Value = const_int(I64, DataLayout.of_module(self.ctx.module).alloc_size(inst.allocated_type))
            if inst.count is not None:
                count = ni.operand(0)
                nbytes = b.mul(count if count.type == I64 else b.cast("zext", count, I64), nbytes)
            zero_fill(self.ctx.module, b, shadow, nbytes)
        elif isinstance(inst, SelectInst):
            if _has_tangent(inst.type) or ops[1] in self.float_bits or ops[2] in self.float_bits:
                ta, tb = self.tangent(ops[1]), self.tangent(ops[2])
                if ta is not None or tb is not None:
                    self.tan[inst] = b.select(ni.operand(0), self._t(ops[1], inst), self._t(ops[2], inst),
                                              value_name(inst, "'"))
        elif isinstance(inst, (ExtractValueInst, ExtractElementInst, FreezeInst)):
            t = self.tangent(ops[0])
            if t is not None:
                c = ni.clone()
                c.set_operand(0, t)
                self.tan[inst] = b.insert(c, value_name(inst, "'"))
        elif isinstance(inst, (InsertValueInst, InsertElementInst, ShuffleVectorInst)):
            if self.tangent(ops[0]) is not None or self.tangent(ops[1]) is not None:
                for v in ops[:2]:
                    self._check_null_shadow(inst, v)
                c = ni.clone()
                c.set_operand(0, self._t(ops[0], inst))
                c.set_operand(1, self._t(ops[1], inst))
                self.tan[inst] = b.insert(c, value_name(inst, "'"))
        elif isinstance(inst, ReturnInst):
            self._return(inst, ni)
        elif isinstance(inst, CallInst):
            self._call(inst, ni, b)
        elif any(self.tangent(v) is not None for v in ops) or carries_float(inst.type):
            raise DifferentiationError(f"{describe(inst)}: forward mode does not support this instruction yet")
        if isinstance(inst.type, IntType) and inst not in self.float_bits and self.tangent(inst) is not None \
                and (any(v in self.float_bits for v in ops) or self._holds_float_bits(inst)):
            self._mark_bits(inst, next((self.float_bits[v] for v in ops if self.float_bits.get(v)), 0))

    def _mark_bits(self, v: Value, granule: int = 0) -> None:
        """``v`` (an integer) holds active float bits, of floats ``granule`` bits wide (0: from type analysis)."""
        self.float_bits[v] = granule or float_granule(self.ctx, self.fn, v) or 0

    def _may_hold_active_bits(self, v: Value) -> bool:
        return may_hold_active_bits(
            v, lambda x: x in self.float_bits,
            lambda load: self.tangent(load) is not None and not is_integer_data(self.ctx, self.fn, load))

    def _holds_float_bits(self, v: Value) -> bool:
        """Float data in an integer: a double's bits, or part of one (a ``{float, int}`` struct as i64)."""
        return is_float_data(self.ctx, self.fn, v)

    def _move_floats(self, inst: Instruction, ni: Instruction, b: Builder) -> bool:
        """Tangents of an integer operation that moves whole floats (see moves_whole_floats); False if it does not."""
        if is_integer_data(self.ctx, self.fn, inst):
            return True  # the integer part of a mixed value: no derivative
        granule = next((self.float_bits[v] for v in inst.operands if self.float_bits.get(v)), 0)
        if not granule or not moves_whole_floats(inst, granule):
            return False
        c = ni.clone()
        if isinstance(c, BinaryOperator):
            c.flags = []  # nuw/nsw/disjoint were proven for the values, not for their tangents
        for i, v in enumerate(inst.operands):
            t = self.tangent(v)
            if t is not None:
                c.set_operand(i, t)
            elif not isinstance(v, Constant) or inst.opcode == "or":
                c.set_operand(i, zero(v.type))  # shift amounts and masks stay
        self.tan[inst] = b.insert(c, value_name(inst, "'"))
        self._mark_bits(inst, granule)
        return True

    def _sign_bit_operation(self, inst: Instruction, ni: Instruction, b: Builder) -> None:
        """fneg/fabs/copysign through the bits: the magnitude source's tangent, its sign flipped as the value's."""
        assert isinstance(inst, BinaryOperator)
        sop = sign_operation(inst)
        if sop is None:
            raise float_bits_error(inst)
        t = self.tangent(sop.source) if sop.source is not None else None
        if t is None:
            return  # only a sign bit (+-0.0), or a constant magnitude: no derivative
        mask = self.sign_masks.get(inst)
        if mask is None:
            mask = self.sign_masks[inst] = sign_flip_mask(b, ni, ni.operand(sop.index))
        self.tan[inst] = b.binop("xor", t, mask, value_name(inst, "'"))
        self._mark_bits(inst, inst.type.bits)  # type: ignore[attr-defined]

    def _apply_rule(self, inst: Instruction, ni: Instruction, rule, args: Sequence[Value], b: Builder) -> None:
        tans = [self.tangent(a) for a in args]
        if all(t is None for t in tans[:rule.arity]):
            return
        em = self.emitters.get(inst)
        if em is None:
            em = self.emitters[inst] = Emitter(
                self.ctx.module, b, ni.operands[:rule.arity] if not isinstance(ni, CallInst) else ni.args, ni,
                inst.type)
        total: Value | None = None
        for i, p in enumerate(rule.partials):
            t = tans[i] if i < len(tans) else None
            if p is None or t is None:
                continue
            term = em.times(p, t, singular=rule.singular)
            total = term if total is None else b.fadd(total, term)
        if total is not None:
            total.name = value_name(inst, "'")
            self.tan[inst] = total

    def _store(self, inst: StoreInst, b: Builder) -> None:
        v, p = inst.value, inst.pointer
        s = self.tangent(p)
        if s is not None:
            self._check_null_shadow(inst, v)
            b.store(self._t(v, inst), s, inst.align)
        elif self.tangent(v) is not None and _has_tangent(v.type) \
                and not custom_rules(self.ctx.module).is_inactive_global(underlying_global(p)):
            # A pointer's tangent (shadow) would be lost as well.  A global declared inactive drops it on purpose.
            raise unshadowed_store_error(inst, p)

    def _return(self, inst: ReturnInst, ni: Instruction) -> None:
        if self.new.return_type == self.fn.return_type or self.lane != self.width - 1:
            return  # the last lane returns the tangents of all lanes
        b = Builder(InsertPoint.before_inst(ni))
        v = inst.value
        assert v is not None
        self._check_null_shadow(inst, v)
        rt = self.new.return_type
        agg = b.insertvalue(ConstantKeyword(rt, "undef"), ni.operand(0), [0])
        agg = b.insertvalue(agg, _pack(b, self._all_lanes(v, inst), self.width), [1])
        ni.set_operand(0, agg)

    def _check_null_shadow(self, inst: Instruction, v: Value) -> None:
        """Refuse giving pointers in ``v`` a null tangent (shadow) where derivatives would follow it."""
        if holds_pointers(v.type) and self.tangent(v) is None:
            error = null_shadow_error(inst, v, lambda q: points_to_no_floats(function_contexts(self.ctx, self.fn), q))
            if error is not None:
                raise error

    def _all_lanes(self, v: Value, at: Instruction) -> list[Value]:
        keep = self.lane
        out = []
        for lane in range(self.width):
            self.lane = lane
            out.append(self._t(v, at))
        self.lane = keep
        return out

    # -- calls -----------------------------------------------------------------------
    def _call(self, inst: CallInst, ni: Instruction, b: Builder) -> None:
        assert isinstance(ni, CallInst)
        if passes_untracked_bits(inst, lambda v: self.tangent(v) is not None, lambda p: self.tangent(p) is not None):
            raise untracked_bits_error(inst)
        callee = inst.called_function
        name = callee.name if callee is not None else None
        args = inst.args
        active = any(self.tangent(a) is not None for a in args)
        active_somewhere = any(lane.get(a) is not None for lane in self.tans for a in args)
        passes_bits = any(a in self.float_bits for a in args) and (callee is None or callee.is_declaration)
        if name is None:
            if passes_bits:
                raise float_bits_error(inst, "a call passing")
            if active_somewhere or carries_float(inst.type):
                if is_inline_asm(inst):
                    raise callee_unknown_error(inst)
                self._indirect_call(inst, ni, b)
            return
        rules = custom_rules(self.ctx.module)
        if rules.is_inactive(callee):
            return
        if callee is not None and rules.forward(callee) is not None:
            if active_somewhere:  # else the tangent is zero: no need to run the rule
                self._defined_call(inst, ni, callee, b)
            return
        if is_inactive_function(name):
            return
        if passes_bits:
            raise float_bits_error(inst, "a call passing")
        if name.startswith(("llvm.vector.reduce.fadd.", "llvm.vector.reduce.fmul.")):
            if active:
                self._vector_reduce(inst, ni, b, name.startswith("llvm.vector.reduce.fadd."))
            return
        if name.startswith(_SELECTING_REDUCTIONS):
            if active:
                self._vector_select_reduce(inst, ni, b)
            return
        if is_complex_call(name):
            if active:
                re, im = forward_tangent(b, name, ni.args, [self._t(a, inst) for a in args], ni)
                self.tan[inst] = pack(b, ni, re, im)
            return
        if is_struct_math_intrinsic(name):
            if active:
                self.tan[inst] = forward_struct_math_intrinsic(b, name, ni.args[0], self._t(args[0], inst), ni)
            return
        mf = memory_function(name)
        if mf is not None:
            self._memory_call(inst, ni, mf, b)
            return
        rule = lookup(name)
        if rule is not None:
            self._apply_rule(inst, ni, rule, args, b)
            return
        if callee is not None and not callee.is_declaration:
            self._defined_call(inst, ni, callee, b)
            return
        if active or carries_float(inst.type):
            raise no_rule_error(inst, name)

    def _vector_select_reduce(self, inst: CallInst, ni: CallInst, b: Builder) -> None:
        """``reduce.fmax/fmin/fmaximum/fminimum(v)`` picks a lane: its tangent is that lane's (the first lane
        equal to the result, as in reverse mode, enzyme.ad.vectors)."""
        vec = inst.args[0]
        vt = vec.type
        assert isinstance(vt, VectorType)
        if vt.scalable:
            raise DifferentiationError(f"{describe(inst)}: forward mode does not support reductions over scalable "
                                       "vectors yet")
        dvec = self._t(vec, inst)
        t: Value = zero(vt.element)
        for i in reversed(range(vt.count)):
            hit = b.fcmp("oeq", b.extractelement(ni.args[0], i), ni)
            t = b.select(hit, b.extractelement(dvec, i), t)
        t.name = value_name(inst, "'")
        self.tan[inst] = t

    def _vector_reduce(self, inst: CallInst, ni: CallInst, b: Builder, is_sum: bool) -> None:
        """``reduce.fadd(s, v)`` is linear: its tangent is ``reduce.fadd(ds, dv)``.  ``reduce.fmul(s, v)`` =
        ``s * v0 * v1 * ...`` in order: the product rule along the chain (no division, so zeros are fine)."""
        start, vec = inst.args
        if is_sum:
            c = ni.clone()
            c.set_operand(0, self._t(start, inst))
            c.set_operand(1, self._t(vec, inst))
            self.tan[inst] = b.insert(c, value_name(inst, "'"))
            return
        vt = vec.type
        assert isinstance(vt, VectorType)
        if vt.scalable:
            raise DifferentiationError(f"{describe(inst)}: forward mode does not support products over scalable "
                                       "vectors yet")
        p, dp = ni.args[0], self._t(start, inst)
        dvec = self._t(vec, inst)
        for i in range(vt.count):
            x, dx = b.extractelement(ni.args[1], i), b.extractelement(dvec, i)
            dp = b.fadd(b.fmul(dp, x), b.fmul(p, dx))
            p = b.fmul(p, x)
        dp.name = value_name(inst, "'")
        self.tan[inst] = dp

    def _memory_call(self, inst: CallInst, ni: CallInst, mf: MemoryFunction, b: Builder) -> None:
        args, nargs = inst.args, ni.args
        kind = mf.kind.value
        if kind in ("copy", "move", "set"):
            assert mf.dst is not None
            sd = self.tangent(args[mf.dst])
            if sd is None:
                if mf.src is not None and self.tangent(args[mf.src]) is not None \
                        and not custom_rules(self.ctx.module).is_inactive_global(underlying_global(args[mf.dst])):
                    raise DifferentiationError(f"{describe(inst)}: copies active memory into memory that has no "
                                               "shadow; pass the destination as enzyme_dup")
                return
            c = ni.clone()
            c.set_operand(mf.dst, sd)
            if mf.src is not None:
                ss = self.tangent(args[mf.src])
                if ss is None and may_copy_pointers(function_contexts(self.ctx, self.fn), args[mf.dst], args[mf.src],
                                                    copied_element_type(self.fn, [args[mf.dst], args[mf.src]])):
                    raise constant_pointer_copy_error(inst)
                if ss is None:  # copying constant data: the destination's tangent becomes zero
                    assert mf.size is not None
                    zero_fill(self.ctx.module, b, sd, nargs[mf.size])
                    return
                c.set_operand(mf.src, ss)
            elif mf.value is not None:
                c.set_operand(mf.value, zero(args[mf.value].type))
            self._record_returned_shadow(inst, b.insert(c), mf)
        elif kind in ("alloc", "calloc", "realloc"):
            c = ni.clone()
            if kind == "realloc":
                assert mf.ptr is not None
                c.set_operand(mf.ptr, self._t(args[mf.ptr], inst))
            s = b.insert(c, value_name(inst, "'"))
            self.tan[inst] = s
            if kind == "alloc":  # zero the shadow so untouched bytes have zero tangent
                assert mf.size is not None
                zero_fill(self.ctx.module, b, s, nargs[mf.size])
        elif kind == "free":
            assert mf.ptr is not None
            s = self.tangent(args[mf.ptr])
            if s is not None:
                c = ni.clone()
                c.set_operand(mf.ptr, s)
                b.insert(c)

    def _record_returned_shadow(self, inst: CallInst, shadow_call: Instruction, mf: MemoryFunction) -> None:
        """libc memcpy/memset return their destination: the shadow call returns the shadow's."""
        if mf.returns.value in ("dst", "dst_end") and isinstance(inst.type, PointerType):
            self.tan[inst] = shadow_call

    def _defined_call(self, inst: CallInst, ni: CallInst, callee: Function, b: Builder) -> None:
        """Call the callee's derivative (batched: one call for all lanes, at lane 0)."""
        self._call_derivative(inst, ni, b, lambda acts: forward_derivative(self.ctx, callee, acts, self.width), [])

    def _indirect_call(self, inst: CallInst, ni: CallInst, b: Builder) -> None:
        """Call through a function pointer: a dispatcher picks the derivative of the function called."""
        def derivative(acts: tuple[str, ...]) -> Function:
            return forward_dispatcher(self.ctx, inst, acts, self.width,
                                      lambda g: forward_derivative(self.ctx, g, acts, self.width))
        self._call_derivative(inst, ni, b, derivative, [ni.callee])

    def _call_derivative(self, inst: CallInst, ni: CallInst, b: Builder,
                         derivative: Callable[[tuple[str, ...]], Function], lead: list[Value]) -> None:
        if self.lane != 0:
            return
        acts = []
        call_args: list[Value] = []
        for a, na in zip(inst.args, ni.args):
            lanes = [self.tans[j].get(a) for j in range(self.width)]
            if any(t is not None for t in lanes) and (_has_tangent(a.type) or a in self.float_bits):
                acts.append("dup")
                call_args += [na, *self._all_lanes(a, inst)]
            else:
                acts.append("const")
                call_args.append(na)
        if all(x == "const" for x in acts) and not carries_float(inst.type) and not is_allocator_call(self.ctx, inst):
            return
        d = derivative(tuple(acts))
        call = b.call(d, [*lead, *call_args])
        if d.return_type != inst.type:  # {primal, tangent}
            if isinstance(inst.type, IntType):
                self._mark_bits(inst)  # a bits_of(double) helper
            primal = b.extractvalue(call, [0])
            if self.width == 1:
                self.tan[inst] = b.extractvalue(call, [1], value_name(inst, "'"))
            else:
                for j in range(self.width):
                    self.tans[j][inst] = b.extractvalue(call, [1, j], value_name(inst, f"'{j}"))
            ni.replace_all_uses_with(primal)
            primal.name = ni.name
            self.vmap[inst] = primal
        elif not inst.type.is_void:
            ni.replace_all_uses_with(call)
            call.name = ni.name
            self.vmap[inst] = call
        ni.erase()


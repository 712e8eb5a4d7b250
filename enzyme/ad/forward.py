"""Forward mode: tangent code interleaved with a clone of the primal.

``fwddiffe_<f>`` takes each primal argument followed, for dup arguments,
by its tangent (floats) or shadow pointer, and returns ``{primal, tangent}``
for a floating-point result (the primal alone for other results).  Tangents
are symbolic zeros (absent) until something active flows in, so inactive
code gets no derivative instructions.  Pointers carry shadows: memory that
mirrors the primal memory and holds tangents.

This module walks the blocks; the state is forward_state.py's, the tangent
code of each instruction class is found through handlers.py and that of
each call kind in forward_calls.py.
"""
from __future__ import annotations

from ..errors import DifferentiationError
from ..ir.target_attributes import inherit_target_attributes
from ..ir import (CallInst, CastInst, ConstantKeyword, Function, FunctionType, GEPInst, Instruction, IntType,
                  LoadInst, PhiInst, StructType, Value)
from ..ir.builder import Builder, InsertPoint
from ..ir.cfg import blocks_without_return
from ..ir.types import ArrayType, PointerType, Type
from .activity_plan import ActivityPlan
from .caught_exceptions import caught_invokes, restore_invokes
from .common import (ADContext, check_address_escape, clone_body, differentiable_order, primal_and_shadow_params,
                     value_name, zero)
from .custom import custom_rules, is_float
from .checkpoint import checkpoint_sweep_of
from .checkpoint_forward import checkpoint_sweep_forward
from .fixed_point import fixed_point_forward, fixed_point_of
from .float_bits import returns_float_data
from .forward_calls import forward_call
from .handlers import forward_instruction, mark_float_bits
from .memory_insts import has_tangent
from .forward_state import DerivativeOf, ForwardState
from .integer_addresses import AddressDisplacements
from .shadowless import shadowless_merges
from .lanes import pack
from .modes import Activities, activities_of


def forward_derivative(ctx: ADContext, fn: Function, activities: tuple[str, ...], width: int = 1) -> Function:
    """``fwddiffe_<fn>`` for the given argument activities (memoized); ``fwddiffe<W>_<fn>`` for batch width W.

    Width W carries W tangents per value: each dup argument is followed by W
    shadows, and a returned tangent is ``[W x T]``.
    """
    acts = activities_of(activities)
    key = ("forward", fn, acts) if width == 1 else ("forward", fn, acts, width)
    done = ctx.memo.get(key)
    if done is None:
        rule = custom_rules(ctx.module).forward(fn)
        fixed = fixed_point_of(ctx.module, fn)
        ckpt = checkpoint_sweep_of(ctx.module, fn)
        if ckpt is not None:  # a checkpointed loop's sweep: the same schedule on tangents too
            str_acts = tuple(str(a) for a in acts)
            done = checkpoint_sweep_forward(ckpt[0], ckpt[1], fn, str_acts, width,
                                            _derivative_function(ctx, fn, str_acts, width),
                                            lambda f, a: forward_derivative(ctx, f, a, width))
        elif fixed is not None:
            done = fixed_point_forward(ctx, fn, fixed, tuple(str(a) for a in acts), width,
                                       _derivative_function(ctx, fn, tuple(str(a) for a in acts), width),
                                       lambda step_acts: forward_derivative(ctx, fixed.step, step_acts))
        elif rule is not None:
            done = custom_forward_wrapper(ctx, fn, rule, acts, width)
        else:
            done = _ForwardGenerator(ctx, fn, acts, width).run()
        ctx.memo[key] = done
    return done


def tangent_type(t: Type, width: int) -> Type:
    """The type carrying ``width`` tangents of a ``t`` value."""
    return t if width == 1 else ArrayType(width, t)


def _derivative_function(ctx: ADContext, fn: Function, activities: tuple[str, ...], width: int,
                         extra: tuple[tuple[Type, str], ...] = (), base: str | None = None) -> Function:
    params, names = primal_and_shadow_params(fn, activities, width)
    params += [t for t, _ in extra]
    names += [n for _, n in extra]
    rt = fn.return_type
    with_tangent = returns_tangent(fn) or returns_float_data(ctx, fn)
    ret = StructType((rt, tangent_type(rt, width))) if with_tangent else rt
    base = base or ("fwddiffe_" if width == 1 else f"fwddiffe{width}_")
    new = Function(ctx.module.unique_name(f"{base}{fn.name}"), FunctionType(ret, tuple(params)),
                   arg_names=names, prefix="internal")
    ctx.module.add(new)
    inherit_target_attributes(fn, new)
    return new


def custom_forward_wrapper(ctx: ADContext, fn: Function, rule: Function, activities: Activities,
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
        if act.has_shadow:
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
        b.ret(b.insertvalue(agg, pack(b, list(tangents)), [1]))
    else:
        b.ret(None if rt.is_void else primal)
    return new


def _may_get_shadow(p: Value) -> bool:
    """Could the walk still give ``p`` a shadow?  (A pointer an instruction makes may, later in a loop.)"""
    return isinstance(p, Instruction) and isinstance(p.type, PointerType)


def returns_tangent(fn: Function) -> bool:
    return has_tangent(fn.return_type)


def forward_derivative_unshared(ctx: ADContext, fn: Function, activities: tuple[str, ...], width: int,
                                extra: tuple[tuple[Type, str], ...], base: str,
                                derivative_of: DerivativeOf) -> tuple[Function, dict[Value, Value]]:
    """A forward derivative of ``fn`` of its own, ``<base><fn>`` (not memoized, so the caller may rewrite it),
    with the ``extra`` parameters last, and the map from ``fn``'s values to their clones in it
    (forward_split.py).  Callees' derivatives come from ``derivative_of`` and take the extra parameters last
    too."""
    gen = _ForwardGenerator(ctx, fn, activities_of(activities), width, extra, base)
    gen.derivative_of = derivative_of
    return gen.run(), gen.vmap


class _ForwardGenerator(ForwardState):
    """Walks one function's blocks to build its forward derivative; per-instruction code is the handlers'.

    Batch width W: every value has W tangents, one per lane (lanes.py).  W
    scalar tangents rather than ``[W x T]`` aggregates keep every rule as it
    is for width 1, and LLVM's SLP vectorizer can still pack the lanes.
    """

    def __init__(self, ctx: ADContext, fn: Function, activities: Activities, width: int = 1,
                 extra: tuple[tuple[Type, str], ...] | None = None, base: str | None = None) -> None:
        super().__init__(ctx, fn, activities, lambda g, acts: forward_derivative(ctx, g, acts, width), width)
        self.extra = extra  # None: the shared derivative (memoized); else one of its own with these parameters
        self.base = base

    def _make_function(self) -> Function:
        fn = self.fn
        new = _derivative_function(self.ctx, fn, self.activities, self.width, self.extra or (), self.base)
        if self.extra:
            self.passed_on = list(new.args[len(new.args) - len(self.extra):])
        k = 0
        for a, act in zip(fn.args, self.activities):
            self.vmap[a] = new.args[k]
            k += 1
            if act.has_shadow:
                for j in range(self.width):
                    self.shadows[j][a] = new.args[k]
                    k += 1
                if isinstance(a.type, IntType) and self.holds_float_bits(a):
                    self.mark_bits(a)  # a double_of(uint64_t) helper
        for lane, seeded in zip(self.shadows, custom_rules(self.ctx.module).global_shadows(fn, self.width)):
            lane.update(seeded)  # globals with a shadow (enzyme_shadow) are active memory
        return new

    def run(self) -> Function:
        new = self._make_function()
        key = ("forward", self.fn, self.activities) if self.width == 1 else \
            ("forward", self.fn, self.activities, self.width)
        if self.extra is None:
            self.ctx.memo[key] = new
        self.new = new
        order = differentiable_order(self.fn)
        caught = caught_invokes(self.fn, order)  # exceptions caught in fn: caught_exceptions.py
        clones = clone_body(order, new, self.vmap, caught)
        # Code that cannot return (it throws, say, after formatting a message with std::to_string) runs as it
        # is: no derivative comes out of it.
        doomed = blocks_without_return(order)
        clones = [(i, n) for i, n in clones if i.parent not in doomed]
        # Phis first (their incoming tangents may be defined later), then everything in RPO.
        phis = [(i, n) for i, n in clones if isinstance(i, PhiInst)]
        # Activity analysis looks backward too: a float that cannot reach an active output needs no tangent.
        self.plan = ActivityPlan(self.ctx, self.fn, self.activities, new.return_type != self.fn.return_type)
        # Pointer phis and selects merging only pointers without a shadow (inactive calls' results) get none.
        self.unshadowed = shadowless_merges((i for i, _ in clones), lambda c: self.call_site(c).kind,
                                            lambda phi: [v for v, blk in phi.incoming if blk in self.vmap],
                                            lambda g: g in self.tan)
        for orig, phi in phis:
            if orig in self.unshadowed:
                continue
            if (has_tangent(orig.type) or self.holds_float_bits(orig)) and not self.plan.needs_no_tangent(orig):
                if isinstance(orig.type, IntType):
                    self.mark_bits(orig)
                for lane in self.shadows:
                    lane[orig] = Builder(InsertPoint.before_inst(phi)).phi(orig.type, value_name(orig, "'"))
        self.displacements = [
            AddressDisplacements(lambda v: self.vmap.get(v, v), shadows.get,
                                 lambda p, shadows=shadows: p in shadows or _may_get_shadow(p))  # type: ignore[misc]
            for shadows in self.shadows]
        for inst, ni in clones:
            if not (isinstance(inst, PhiInst) or self.plan.needs_no_tangent(inst)):
                self._tangent_code(inst, ni)
        for orig, _ in phis:
            assert isinstance(orig, PhiInst)
            for _ in self.lanes():
                tp = self.tan.get(orig)
                if isinstance(tp, PhiInst):
                    for v, blk in orig.incoming:
                        if blk in self.vmap:
                            tp.add_incoming(self.t(v), self.vmap[blk])  # type: ignore[arg-type]
        for displacements in self.displacements:
            displacements.finish()
        restore_invokes(new, caught, self.vmap)
        _drop_unused_tangent_loads(self.shadows)
        return new

    def _tangent_code(self, inst: Instruction, ni: Instruction) -> None:
        """The tangent code of ``inst`` (cloned as ``ni``) for every lane, after the guard."""
        check_address_escape(inst, lambda p: self.tangent(p) is not None)  # every lane has the same shadows
        # One builder for all lanes: lane j's code follows lane j-1's, so shared partials come first.
        b = Builder(InsertPoint.after_inst(ni))
        if not isinstance(inst, CallInst):
            forward_instruction(self, inst, ni, b)
            return
        for _ in self.lanes():
            forward_call(self, inst, ni, b)
            if ni.parent is None:  # replaced by the callee's derivative, for all lanes at once
                break
            mark_float_bits(self, inst)


def _drop_unused_tangent_loads(shadows: list[dict[Value, Value]]) -> None:
    """Erase the tangent loads nothing uses (a character's tangent where the primal only compares it).

    Such a load still runs at -O0, where nothing cleans up, and the shadow pointer it reads through may be
    null: a cursor into text that has no shadow (``strtod``'s end pointer, stored in a struct with active
    fields) dereferenced for a tangent no one needs.  Unused tangent addresses go with them.
    """
    candidates = [v for lane in shadows for v in lane.values() if isinstance(v, (LoadInst, GEPInst, CastInst))]
    changed = True
    while changed:
        changed = False
        for v in candidates:
            if v.parent is None or v.has_uses or (isinstance(v, LoadInst) and (v.volatile or v.atomic)):
                continue
            v.erase()
            changed = True

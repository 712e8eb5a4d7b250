"""Derivatives of converged fixed-point loops (``__enzyme_fixed_point``, enzyme.driver.fixed_points).

The driver replaces ``__enzyme_fixed_point(step, enzyme_fp_state, z, bytes, ..., args...)`` by a call to a
loop function ``L(z..., args...)`` running ``i = 0; while (step(i++, args...));`` and registers it here.  Its
derivatives are not those of its iterations one by one but the implicit function theorem's, at the state
the loop converged to, z* = phi(z*, x):

* forward: the loop runs; then one step's tangent is iterated at z*, s <- phi_z s + phi_x xdot, from s = 0
  (the tangent of the initial guess has no effect), the primal state reset to z* before each pass, until
  the squared 2-norm of the change of the state's tangent is small;
* reverse: the augmented sweep runs the loop, each iteration through the step's augmented sweep, and keeps
  the tape of the last one (what its reverse sweep reads, so code after the loop may overwrite the state
  and the parameters); the reverse sweep runs that iteration's reverse sweep on that tape again and again:
  each pass takes the state's adjoint w to phi_z^T w and adds phi_x^T w to the parameters' adjoints, so the
  passes sum the Neumann series of (I - phi_z^T)^-1, until the squared 2-norm of the state's adjoint is
  small.  The state's adjoint is zero afterwards and its primal value the one the reverse sweep found.
  (The stack objects the step moves to the heap for its reverse sweep are freed by that sweep; the repeated
  passes run a copy that frees nothing, so those blocks leak, once per fixed point.)

"Small": below ``reduction`` (enzyme_fp_reduction, default 1e-12) times its value after the first pass, or
exactly zero, or growing again after five passes, or after ``max_iters`` passes (enzyme_fp_max_iters,
default 1000, 0 for no limit).  With ``enzyme_fp_control, control`` the program decides instead:
``int control(double *cumul, double *reduction)`` is called with *cumul = -1 before the first pass and with
the squared norm after each, and returns whether to run another.  States are arrays of doubles.
"""
from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass

from ..errors import DifferentiationError
from ..ir import CallInst, ConstantKeyword, Function, FunctionType, Module, Value
from ..ir.builder import Builder, const_fp, const_int
from ..ir.types import DOUBLE, I1, I8, I64, PTR, VOID, IntType, PointerType, Type
from .common import ADContext, clone_body
from .modes import Activities, Activity
from .sweep_pair import SweepPair
from .tape import TAPE_STRUCT, release_tape


@dataclass
class FixedPoint:
    """One ``__enzyme_fixed_point`` call site: the loop function's first ``len(sizes)`` parameters are the
    states (``sizes``: their bytes), the others the step's arguments after the iteration count."""

    step: Function
    sizes: list[int]
    reduction: float
    max_iters: int
    control: Function | None
    site: str  # for messages


_REGISTRY: weakref.WeakKeyDictionary[Module, dict[Function, FixedPoint]] = weakref.WeakKeyDictionary()


def register_fixed_point(module: Module, loop: Function, spec: FixedPoint) -> None:
    _REGISTRY.setdefault(module, {})[loop] = spec


def fixed_point_of(module: Module, fn: Function | None) -> FixedPoint | None:
    """The fixed point whose loop function ``fn`` is, else None."""
    return _REGISTRY.get(module, {}).get(fn) if fn is not None else None


@dataclass
class _Split:
    """A derivative's parameters by the loop function's: primal values and shadows (None: constant)."""

    primals: list[Value]
    states: list[Value]
    state_shadows: list[Value | None]
    step_args: list[Value]         # primal arguments of the step after i, with shadows interleaved
    step_acts: tuple[str, ...]     # the step's activities, i included


def _split(fn: Function, spec: FixedPoint, d: Function, acts: tuple[str, ...]) -> _Split:
    values: list[Value] = []
    shadows: list[Value | None] = []
    k = 0
    for act in acts:
        values.append(d.args[k])
        k += 1
        if Activity(act).has_shadow:
            shadows.append(d.args[k])
            k += 1
        else:
            shadows.append(None)
    n = len(spec.sizes)
    step_args: list[Value] = []
    for v, s in zip(values[n:], shadows[n:]):
        step_args.append(v)
        if s is not None:
            step_args.append(s)
    return _Split(values, values[:n], shadows[:n], step_args, ("const", *(str(a) for a in acts[n:])))


def _check(fn: Function, spec: FixedPoint, acts: tuple[str, ...], width: int) -> None:
    if width != 1:
        raise DifferentiationError(f"{spec.site}: a fixed point in a derivative of {width} directions is not "
                                   "supported yet; use width 1")
    for a, act in zip(fn.args[len(spec.sizes):], acts[len(spec.sizes):]):
        if not isinstance(a.type, (PointerType, IntType)):
            raise DifferentiationError(f"{spec.site}: the step of a fixed point takes a {a.type} by value; "
                                       "pass it through a pointer")
        if act == "out":
            raise DifferentiationError(f"{spec.site}: a by-value argument of the step is active")


def fixed_point_forward(ctx: ADContext, fn: Function, spec: FixedPoint, acts: tuple[str, ...], width: int,
                        derivative: Function, step_derivative: Callable[[tuple[str, ...]], Function]) -> Function:
    """Fill ``derivative`` (forward mode of the loop function ``fn``, signature made by the caller);
    ``step_derivative(activities)`` is the step's forward derivative."""
    _check(fn, spec, acts, width)
    m = ctx.module
    b = Builder(derivative.append_block("entry"))
    sp = _split(fn, spec, derivative, acts)
    b.call(fn, sp.primals)
    tracked = [(z, s, n) for z, s, n in zip(sp.states, sp.state_shadows, spec.sizes) if s is not None]
    if not tracked:
        raise DifferentiationError(f"{spec.site}: the state of the fixed point has no tangent (it is constant "
                                   "memory) while other arguments are active; pass it enzyme_dup")
    snaps = [_copy_of(m, b, z, n) for z, _, n in tracked]
    olds = [_malloc(m, b, n) for _, _, n in tracked]
    for _, s, n in tracked:
        _memset0(m, b, s, n)  # the tangent of the initial guess has no effect
    step_fwd = step_derivative(sp.step_acts)

    def one_pass(b: Builder, i: Value) -> Value:
        for (z, s, n), snap, old in zip(tracked, snaps, olds):
            _memcpy(m, b, old, s, n)
            _memcpy(m, b, z, snap, n)
        b.call(step_fwd, [_as(b, i, spec.step.args[0].type), *sp.step_args])
        total: Value = const_fp(DOUBLE, 0.0)
        for (_, s, n), old in zip(tracked, olds):
            total = b.fadd(total, b.call(_sq_norm(m), [s, old, const_int(I64, n // 8)]))
        return total

    b = _iterate(m, b, spec, one_pass)
    for (z, _, n), snap in zip(tracked, snaps):
        _memcpy(m, b, z, snap, n)  # the state as the loop left it
    for p in snaps + olds:
        _free(m, b, p)
    b.ret(None)
    return derivative


def fixed_point_gradient(ctx: ADContext, fn: Function, spec: FixedPoint, acts: tuple[str, ...],
                         sweeps_of: Callable[[Function, Activities], SweepPair]) -> tuple[Function, Function]:
    """The (augmented, reverse) pair of the loop function for these activities, in the calling convention of
    registered gradients (each pointer argument followed by its shadow, null where it has none; the
    augmented sweep returns the tape, the reverse sweep takes it last).  ``sweeps_of`` gives the step's
    sweeps."""
    key = ("fixed point", fn, acts)
    got = ctx.memo.get(key)
    if got is not None:
        return got
    _check(fn, spec, acts, 1)
    m = ctx.module
    params: list[Type] = []
    for a in fn.args:
        params.append(a.type)
        if isinstance(a.type, PointerType):
            params.append(a.type)
    aug = Function(m.unique_name(f"augmented_{fn.name}"), FunctionType(PTR, tuple(params)), prefix="internal")
    rev = Function(m.unique_name(f"reverse_{fn.name}"), FunctionType(VOID, (*params, PTR)), prefix="internal")
    m.add(aug)
    m.add(rev)
    ctx.memo[key] = (aug, rev)
    n = len(spec.sizes)

    def unpack(d: Function) -> tuple[list[Value], list[Value | None], list[Value]]:
        """primal arguments, shadows (null where constant), and the step's arguments for its gradient"""
        primals: list[Value] = []
        shadows: list[Value | None] = []
        step_args: list[Value] = []
        k = 0
        for idx, a in enumerate(fn.args):
            primals.append(d.args[k])
            k += 1
            sh = None
            if isinstance(a.type, PointerType):
                sh = d.args[k]
                k += 1
            shadows.append(sh)
            if idx >= n:
                step_args.append(d.args[k - 1 - (sh is not None)])
                if Activity(acts[idx]).has_shadow:
                    assert sh is not None
                    step_args.append(sh)
        return primals, shadows, step_args

    pair = sweeps_of(spec.step, tuple(Activity(a) for a in ("const", *acts[n:])))
    if pair.out_types or pair.returns_adjoint or pair.returns_shadow:
        raise DifferentiationError(f"{spec.site}: the step's gradient returns adjoints; pass its arguments "
                                   "through pointers")
    if not any(Activity(acts[k]).has_shadow for k in range(n)):
        raise DifferentiationError(f"{spec.site}: the state of the fixed point has no shadow (it is constant "
                                   "memory) while other arguments are active; pass it enzyme_dup")
    step_type = spec.step.args[0].type

    # Augmented: the loop, each iteration through the step's augmented sweep on a fresh tape; the last
    # iteration's tape (what its reverse sweep reads, whatever the code after the loop overwrites) is kept,
    # with its iteration count after it.
    b = Builder(aug.append_block("entry"))
    _, _, step_args = unpack(aug)
    tape = _malloc(m, b, _TAPE_BYTES + 8)
    loop_b, again_b, done_b = aug.append_block("loop"), aug.append_block("again"), aug.append_block("done")
    b.br(loop_b)
    lb = Builder(loop_b)
    i = lb.phi(I64, "i")
    lb.store(ConstantKeyword(TAPE_STRUCT, "zeroinitializer"), tape)
    more = lb.call(pair.augmented, [_as(lb, i, step_type), *step_args, tape])
    lb.store(i, lb.gep(I8, tape, [const_int(I64, _TAPE_BYTES)]))
    nxt = lb.add(i, const_int(I64, 1))
    lb.cond_br(lb.icmp("ne", more, const_int(more.type, 0)), again_b, done_b)
    ab = Builder(again_b)
    release_tape(m, ab, tape)  # an iteration before the last: its tape is not needed
    ab.br(loop_b)
    i.add_incoming(const_int(I64, 0), b.block)
    i.add_incoming(nxt, again_b)
    Builder(done_b).ret(tape)

    # Reverse: the last iteration's reverse sweep, on that tape again and again, until the state's adjoint is
    # small (each pass takes the state's adjoint w to phi_z^T w and adds phi_x^T w to the others').
    b = Builder(rev.append_block("entry"))
    primals, shadows, step_args = unpack(rev)
    tape = rev.args[-1]
    tracked = [(z, s, size) for k, (z, s, size) in enumerate(zip(primals[:n], shadows[:n], spec.sizes))
               if Activity(acts[k]).has_shadow]
    found = [_copy_of(m, b, z, size) for z, _, size in tracked]
    saved = b.alloca(TAPE_STRUCT, name="tape.start")
    _memcpy(m, b, saved, tape, _TAPE_BYTES)
    last_i = b.load(I64, b.gep(I8, tape, [const_int(I64, _TAPE_BYTES)]))
    replayable = _without_frees(m, pair.reverse, {})

    def one_pass(b: Builder, i: Value) -> Value:
        _memcpy(m, b, tape, saved, _TAPE_BYTES)  # the reverse sweep pops; the values stay where they are
        b.call(replayable, [_as(b, last_i, step_type), *step_args, tape])
        total: Value = const_fp(DOUBLE, 0.0)
        for _, s, size in tracked:
            assert s is not None
            total = b.fadd(total, b.call(_sq_norm(m), [s, ConstantNull(), const_int(I64, size // 8)]))
        return total

    b = _iterate(m, b, spec, one_pass)
    _memcpy(m, b, tape, saved, _TAPE_BYTES)
    release_tape(m, b, tape)  # the frees the step deferred, once
    for (z, s, size), was in zip(tracked, found):
        assert s is not None
        _memset0(m, b, s, size)    # the converged state does not depend on the initial guess
        _memcpy(m, b, z, was, size)
        _free(m, b, was)
    _free(m, b, tape)
    b.ret(None)
    return aug, rev


_TAPE_BYTES = 48  # TAPE_STRUCT


def _without_frees(m: Module, fn: Function, done: dict[Function, Function]) -> Function:
    """``fn`` (a reverse sweep), or a copy that frees nothing, calling such copies of its callees: the sweep runs
    on the same tape again and again, and would free the stack objects it moved to the heap (and their shadows)
    each time.  Those blocks are left to leak once instead."""
    if fn in done:
        return done[fn]
    done[fn] = fn  # recursion: a sweep calling itself keeps calling itself
    calls = [i for i in fn.instructions() if isinstance(i, CallInst)]
    callees = {g for c in calls if (g := c.called_function) is not None and not g.is_declaration}
    replaced = {g: _without_frees(m, g, done) for g in callees}
    frees = [c for c in calls if c.callee_name == "free"]
    if not frees and all(g is r for g, r in replaced.items()):
        return fn
    copy = Function(m.unique_name(f"{fn.name}.replay"), fn.function_type,
                    arg_names=[a.name for a in fn.args], prefix="internal")
    m.add(copy)
    done[fn] = copy
    vmap: dict[Value, Value] = dict(zip(fn.args, copy.args))
    for orig, new in clone_body(list(fn.blocks), copy, vmap):
        if not isinstance(new, CallInst) or not isinstance(orig, CallInst):
            continue
        if new.callee_name == "free":
            new.erase()
            continue
        callee = orig.called_function
        target = replaced.get(callee) if callee is not None else None
        if target is not None and target is not callee:
            for use in new.operand_uses:
                if use.value is callee:
                    new.set_operand(use.index, target)
    return copy


def ConstantNull() -> Value:  # noqa: N802 - reads like the constant it is
    return ConstantKeyword(PTR, "null")


def _iterate(m: Module, b: Builder, spec: FixedPoint, one_pass: Callable[[Builder, Value], Value]) -> Builder:
    """Run ``one_pass(b, i) -> squared norm`` until the stopping rule (module docstring) says stop; returns a
    builder after the loop."""
    fn = b.function
    loop, done = fn.append_block("fp.pass"), fn.append_block("fp.done")
    cumul = red = None
    if spec.control is not None:
        cumul, red = b.alloca(DOUBLE), b.alloca(DOUBLE)
        b.store(const_fp(DOUBLE, -1.0), cumul)
        b.store(const_fp(DOUBLE, spec.reduction), red)
        first = b.call(spec.control, [cumul, red])
        b.cond_br(b.icmp("ne", first, const_int(first.type, 0)), loop, done)
    else:
        b.br(loop)
    entry = b.block
    b = Builder(loop)
    i = b.phi(I64, "fp.i")
    ref = b.phi(DOUBLE, "fp.first")
    prev = b.phi(DOUBLE, "fp.prev")
    norm = one_pass(b, i)
    nxt = b.add(i, const_int(I64, 1))
    ref2 = b.select(b.icmp("eq", i, const_int(I64, 0)), norm, ref)
    if spec.control is not None:
        assert cumul is not None and red is not None
        b.store(norm, cumul)
        again = b.call(spec.control, [cumul, red])
        go = b.icmp("ne", again, const_int(again.type, 0))
    else:
        go = b.fcmp("ogt", norm, b.fmul(const_fp(DOUBLE, spec.reduction), ref2))
        go = b.binop("and", go, b.fcmp("ogt", norm, const_fp(DOUBLE, 0.0)))
        growing = b.binop("and", b.icmp("ugt", nxt, const_int(I64, 5)), b.fcmp("ogt", norm, prev))
        go = b.binop("and", go, b.binop("xor", growing, const_int(I1, 1)))
        if spec.max_iters > 0:
            go = b.binop("and", go, b.icmp("ult", nxt, const_int(I64, spec.max_iters)))
    latch = b.block
    b.cond_br(go, loop, done)
    i.add_incoming(const_int(I64, 0), entry)
    i.add_incoming(nxt, latch)
    ref.add_incoming(const_fp(DOUBLE, 0.0), entry)
    ref.add_incoming(ref2, latch)
    prev.add_incoming(const_fp(DOUBLE, 0.0), entry)
    prev.add_incoming(norm, latch)
    return Builder(done)


def _as(b: Builder, i: Value, t: object) -> Value:
    assert isinstance(t, IntType)
    return i if t == I64 else b.cast("trunc", i, t)


def _sq_norm(m: Module) -> Function:
    """``double __pyenzyme_fp_sqdiff(double *a, double *b, i64 n)``: sum of (a[k] - b[k])^2, b null for 0."""
    name = "__pyenzyme_fp_sqdiff"
    got = m.get_function(name)
    if got is not None:
        return got
    f = Function(name, FunctionType(DOUBLE, (PTR, PTR, I64)), prefix="internal")
    m.add(f)
    a, o, n = f.args
    entry, loop, done = f.append_block("entry"), f.append_block("loop"), f.append_block("done")
    b = Builder(entry)
    b.cond_br(b.icmp("sgt", n, const_int(I64, 0)), loop, done)
    b = Builder(loop)
    k = b.phi(I64)
    acc = b.phi(DOUBLE)
    x = b.load(DOUBLE, b.gep(DOUBLE, a, [k]))
    null_other = b.icmp("eq", o, ConstantNull())
    other_at = b.select(null_other, a, o)
    y = b.select(null_other, const_fp(DOUBLE, 0.0), b.load(DOUBLE, b.gep(DOUBLE, other_at, [k])))
    dlt = b.fsub(x, y)
    acc2 = b.fadd(acc, b.fmul(dlt, dlt))
    k2 = b.add(k, const_int(I64, 1))
    b.cond_br(b.icmp("slt", k2, n), loop, done)
    k.add_incoming(const_int(I64, 0), entry)
    k.add_incoming(k2, loop)
    acc.add_incoming(const_fp(DOUBLE, 0.0), entry)
    acc.add_incoming(acc2, loop)
    b = Builder(done)
    res = b.phi(DOUBLE)
    res.add_incoming(const_fp(DOUBLE, 0.0), entry)
    res.add_incoming(acc2, loop)
    b.ret(res)
    return f


def _malloc(m: Module, b: Builder, n: int) -> Value:
    return b.call(m.declare_function("malloc", FunctionType(PTR, (I64,))), [const_int(I64, n)])


def _free(m: Module, b: Builder, p: Value) -> None:
    b.call(m.declare_function("free", FunctionType(VOID, (PTR,))), [p])


def _memcpy(m: Module, b: Builder, dst: Value, src: Value, n: int) -> None:
    fn = m.declare_function("llvm.memcpy.p0.p0.i64", FunctionType(VOID, (PTR, PTR, I64, I1)))
    b.call(fn, [dst, src, const_int(I64, n), const_int(I1, 0)])


def _memset0(m: Module, b: Builder, dst: Value, n: int) -> None:
    fn = m.declare_function("llvm.memset.p0.i64", FunctionType(VOID, (PTR, I8, I64, I1)))
    b.call(fn, [dst, const_int(I8, 0), const_int(I64, n), const_int(I1, 0)])


def _copy_of(m: Module, b: Builder, src: Value, n: int) -> Value:
    p = _malloc(m, b, n)
    _memcpy(m, b, p, src, n)
    return p

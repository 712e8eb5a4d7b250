"""Reverse mode of checkpointed loops (``__enzyme_checkpoint_for``/``_while``, enzyme.driver.checkpoints).

The driver replaces each call by a call of a loop function ``L([start, n,] scheme, data, (region, bytes)...,
args...)`` and registers it here.  Forward mode differentiates L's body like any loop.  Reverse mode does not
tape the steps: L's augmented sweep hands the loop to pyenzyme's checkpointing driver
(``runtime_bodies/checkpoint.c``), which asks the program's scheme for actions, keeps snapshots of the state
in the scheme's slots and runs the steps forward without taping; L's reverse sweep lets it finish the
schedule, each u-turn running one step's augmented and reverse sweeps on a tape of their own that is freed
right after.  So the tape of one step lives at a time, and the snapshots are what the scheme keeps.

A snapshot holds the regions the call names with ``enzyme_checkpoint_region`` and every mutable global the
step (or what it calls) reads or writes (enzyme.ad.checkpoint_regions finds them, and refuses a step that
writes through an argument no region covers).  The step's arguments and their shadows are kept in an
environment the two thunks read: ``primal(env, i)`` runs step i and returns whether to go on,
``turn(env, i)`` differentiates it.
"""
from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass

from ..analysis.layout import DataLayout
from ..errors import DifferentiationError
from ..ir import ConstantInt, ConstantKeyword, Function, FunctionType, GlobalVariable, Module, Value
from ..ir.builder import Builder, const_int
from ..ir.types import I32, I64, PTR, VOID, IntType, PointerType, StructType, Type
from .common import ADContext
from .modes import Activities, Activity
from .sweep_pair import SweepPair
from .tape import TAPE_STRUCT, release_tape


@dataclass
class CheckpointLoop:
    """One checkpointed loop: its step, whether it is a while loop, and how many regions the call names."""

    step: Function
    is_while: bool
    nregions: int
    site: str  # for messages
    globals: tuple[GlobalVariable, ...] = ()  # mutable globals the step reaches (set by the driver)

    @property
    def head(self) -> int:
        """The number of L's parameters before the step's arguments."""
        return (0 if self.is_while else 2) + 2 + 2 * self.nregions


_REGISTRY: weakref.WeakKeyDictionary[Module, dict[Function, CheckpointLoop]] = weakref.WeakKeyDictionary()


def register_checkpoint(module: Module, loop: Function, spec: CheckpointLoop) -> None:
    _REGISTRY.setdefault(module, {})[loop] = spec


def checkpoint_of(module: Module, fn: Function | None) -> CheckpointLoop | None:
    """The checkpointed loop whose loop function ``fn`` is, else None."""
    return _REGISTRY.get(module, {}).get(fn) if fn is not None else None


@dataclass
class SweepLayout:
    """Where the generated sweeps of one checkpointed loop keep things (forward mode over them reads it):
    parameter indices are those of the augmented sweep, which the reverse sweep shares (then the handle)."""

    spec: CheckpointLoop
    width: int
    env_t: StructType
    env_params: list[int]                  # the parameter holding each field of the environment
    env_primal: list[bool]                 # whether that field is a step argument (else a shadow)
    region_params: list[tuple[int, int]]   # each named region's pointer and bytes
    scheme_param: int
    data_param: int
    bounds_params: tuple[int, int] | None  # start and n (None: a while loop)
    primal_thunk: Function
    turn_core: Function                    # void (i, fields..., tape): one step's sweeps, its tape released


_SWEEPS: weakref.WeakKeyDictionary[Module, dict[Function, tuple[SweepLayout, bool]]] = weakref.WeakKeyDictionary()


def checkpoint_sweep_of(module: Module, fn: Function | None) -> tuple[SweepLayout, bool] | None:
    """For a checkpointed loop's generated augmented or reverse sweep ``fn``: its layout and whether it is the
    augmented one; else None."""
    return _SWEEPS.get(module, {}).get(fn) if fn is not None else None


def checkpoint_gradient(ctx: ADContext, fn: Function, spec: CheckpointLoop, acts: tuple[str, ...], width: int,
                        sweeps_of: Callable[[Function, Activities], SweepPair]) -> tuple[Function, Function]:
    """The (augmented, reverse) pair of the loop function ``fn`` for these activities (one per argument:
    "dup" for a pointer with a shadow, else "const"), in the calling convention of registered gradients:
    each pointer argument followed by its shadow (null where it has none), by ``width`` shadows in batch mode;
    the augmented sweep returns the driver's handle, the reverse sweep takes it last."""
    key = ("checkpoint", fn, acts, width)
    got = ctx.memo.get(key)
    if got is not None:
        return got
    head = spec.head
    for a, act in zip(fn.args[head:], acts[head:]):
        if not isinstance(a.type, (PointerType, IntType)):
            raise DifferentiationError(f"{spec.site}: the step takes a {a.type} by value; reverse mode of a "
                                       "checkpointed loop needs the step's arguments to be pointers or integers")
    m = ctx.module
    step = spec.step
    step_acts = ("const", *acts[head:])
    pair = sweeps_of(step, tuple(Activity(a) for a in step_acts))
    if pair.out_types or pair.returns_adjoint or pair.returns_shadow:
        raise DifferentiationError(f"{spec.site}: the step's gradient returns adjoints; pass its arguments "
                                   "through pointers")
    params: list[Type] = []
    for a in fn.args:
        params.append(a.type)
        if isinstance(a.type, PointerType):
            params += [a.type] * width
    aug = Function(m.unique_name(f"augmented_{fn.name}"), FunctionType(PTR, tuple(params)), prefix="internal")
    rev = Function(m.unique_name(f"reverse_{fn.name}"), FunctionType(VOID, (*params, PTR)), prefix="internal")
    m.add(aug)
    m.add(rev)
    ctx.memo[key] = (aug, rev)

    # The environment: each step argument after i, followed by its shadows where the step's gradient takes them.
    fields: list[Type] = []
    for a, act in zip(fn.args[head:], acts[head:]):
        fields.append(a.type)
        if Activity(act).has_shadow:
            fields += [a.type] * width
    env_t = StructType(tuple(fields)) if fields else StructType((I64,))
    primal_thunk = _primal_thunk(m, fn, spec, env_t, acts, width)
    turn_core = _turn_core(m, fn, spec, env_t, pair)
    turn_thunk = _turn_thunk(m, fn, spec, env_t, turn_core)
    param_of: list[int] = []  # L's argument -> the sweep parameter holding it
    env_params: list[int] = []
    env_primal: list[bool] = []
    k = 0
    for idx, a in enumerate(fn.args):
        param_of.append(k)
        if idx >= head:
            env_params.append(k)
            env_primal.append(True)
            if Activity(acts[idx]).has_shadow:
                env_params += range(k + 1, k + 1 + width)
                env_primal += [False] * width
        k += 1 + (width if isinstance(a.type, PointerType) else 0)
    regions_at = range(head - 2 * spec.nregions, head, 2)
    layout = SweepLayout(spec, width, env_t, env_params, env_primal,
                         [(param_of[r], param_of[r + 1]) for r in regions_at],
                         param_of[0 if spec.is_while else 2], param_of[1 if spec.is_while else 3],
                         None if spec.is_while else (param_of[0], param_of[1]), primal_thunk, turn_core)
    _SWEEPS.setdefault(m, {}).update({aug: (layout, True), rev: (layout, False)})

    # Augmented sweep: the driver runs the loop as the scheme says, up to its first turn.
    b = Builder(aug.append_block("entry"))
    env = build_env(b, env_t, [aug.args[k] for k in env_params])
    regions: list[tuple[Value, Value]] = [(aug.args[p], aug.args[n]) for p, n in layout.region_params]
    handle = run_forward(b, layout, list(aug.args), regions, env, primal_thunk)
    b.ret(handle)

    # Reverse sweep: the rest of the schedule, each u-turn one step's derivative.
    b = Builder(rev.append_block("entry"))
    env = build_env(b, env_t, [rev.args[k] for k in env_params])
    run_reverse(b, rev.args[-1], env, primal_thunk, turn_thunk)
    b.ret(None)
    return aug, rev


def build_env(b: Builder, env_t: StructType, values: list[Value]) -> Value:
    env = b.alloca(env_t, name="ckpt.env")
    for k, v in enumerate(values):
        b.store(v, b.gep(env_t, env, [ConstantInt(I32, 0), ConstantInt(I32, k)]))
    return env


def run_forward(b: Builder, layout: SweepLayout, params: list[Value], regions: list[tuple[Value, Value]],
                env: Value, primal_thunk: Function) -> Value:
    """Call the driver's forward sweep (``params``: the values of the augmented sweep's parameters) on the named
    ``regions`` and the globals; returns its handle."""
    m = b.function.module
    assert isinstance(m, Module)
    layout_dl = DataLayout.of_module(m)
    regions = regions + [(g, const_int(I64, layout_dl.alloc_size(g.value_type))) for g in layout.spec.globals]
    pairs_t = StructType((PTR, I64))
    arr = b.alloca(pairs_t, const_int(I64, max(1, len(regions))), name="ckpt.regions")
    for k, (p, size) in enumerate(regions):
        b.store(p, b.gep(pairs_t, arr, [const_int(I64, k)]))
        b.store(size, b.gep(pairs_t, arr, [const_int(I64, k), ConstantInt(I32, 1)]))
    bounds: list[Value] = [const_int(I64, 0), const_int(I64, -1)] if layout.bounds_params is None else \
        [params[layout.bounds_params[0]], params[layout.bounds_params[1]]]
    forward = m.declare_function("__pyenzyme_ckpt_forward",
                                 FunctionType(PTR, (PTR, PTR, I64, I64, PTR, I64, PTR, PTR)))
    return b.call(forward, [params[layout.scheme_param], params[layout.data_param], *bounds, arr, const_int(I64, len(regions)), env,
                            primal_thunk])


def run_reverse(b: Builder, handle: Value, env: Value, primal_thunk: Function, turn_thunk: Function) -> None:
    m = b.function.module
    assert isinstance(m, Module)
    reverse = m.declare_function("__pyenzyme_ckpt_reverse", FunctionType(VOID, (PTR, PTR, PTR, PTR)))
    b.call(reverse, [handle, env, primal_thunk, turn_thunk])


def _load_env(b: Builder, env_t: StructType, env: Value) -> list[Value]:
    return [b.load(t, b.gep(env_t, env, [ConstantInt(I32, 0), ConstantInt(I32, k)]))
            for k, t in enumerate(env_t.elements)]


def _as_step_index(b: Builder, step: Function, i: Value) -> Value:
    t = step.args[0].type
    return i if t == I64 else b.cast("trunc", i, t)


def _primal_thunk(m: Module, fn: Function, spec: CheckpointLoop, env_t: StructType, acts: tuple[str, ...],
                  width: int) -> Function:
    """``i64 primal(env, i)``: run step i on the primal arguments; whether to go on (while loops)."""
    f = Function(m.unique_name(f"{fn.name}.primal_step"), FunctionType(I64, (PTR, I64)), prefix="internal")
    m.add(f)
    b = Builder(f.append_block("entry"))
    values = _load_env(b, env_t, f.args[0]) if env_t.elements and len(fn.args) > spec.head else []
    args: list[Value] = []
    k = 0
    for act in acts[spec.head:]:
        args.append(values[k])
        k += 1 + width if Activity(act).has_shadow else 1
    res = b.call(spec.step, [_as_step_index(b, spec.step, f.args[1]), *args])
    if spec.is_while:
        assert isinstance(res.type, IntType)
        more = b.icmp("ne", res, const_int(res.type, 0))
        b.ret(b.cast("zext", more, I64))
    else:
        b.ret(const_int(I64, 1))
    return f


def _turn_core(m: Module, fn: Function, spec: CheckpointLoop, env_t: StructType, pair: SweepPair) -> Function:
    """``void turn_core(i, fields..., tape)``: step i's augmented sweep, then its reverse sweep, on ``tape``,
    which is released after."""
    f = Function(m.unique_name(f"{fn.name}.turn_core"), FunctionType(VOID, (I64, *env_t.elements, PTR)),
                 prefix="internal")
    m.add(f)
    b = Builder(f.append_block("entry"))
    i = _as_step_index(b, spec.step, f.args[0])
    values = list(f.args[1:-1]) if len(fn.args) > spec.head else []
    tape = f.args[-1]
    b.call(pair.augmented, [i, *values, tape])
    b.call(pair.reverse, [i, *values, tape])
    release_tape(m, b, tape)
    b.ret(None)
    return f


def _turn_thunk(m: Module, fn: Function, spec: CheckpointLoop, env_t: StructType, core: Function) -> Function:
    """``void turn(env, i)``: turn_core on the environment and a fresh tape."""
    f = Function(m.unique_name(f"{fn.name}.turn_step"), FunctionType(VOID, (PTR, I64)), prefix="internal")
    m.add(f)
    b = Builder(f.append_block("entry"))
    values = _load_env(b, env_t, f.args[0])
    tape = new_tape(m, b)
    b.call(core, [f.args[1], *values, tape])
    b.call(m.declare_function("free", FunctionType(VOID, (PTR,))), [tape])
    b.ret(None)
    return f


def new_tape(m: Module, b: Builder) -> Value:
    """A zeroed tape struct on the heap."""
    tape = b.call(m.declare_function("malloc", FunctionType(PTR, (I64,))), [const_int(I64, 48)])  # TAPE_STRUCT
    b.store(ConstantKeyword(TAPE_STRUCT, "zeroinitializer"), tape)
    return tape

"""Forward mode over the reverse mode of a checkpointed loop (a Hessian-vector product through
``__enzyme_checkpoint_for``; enzyme.ad.checkpoint makes the sweeps differentiated here).

The forward derivative of the loop's augmented or reverse sweep runs the same schedule through the same
driver, on tangents too: the snapshots hold each named region and its tangents (a restore brings back both),
a step run forward is the step's forward derivative, and a u-turn the forward derivative of the step's
augmented and reverse sweeps (``turn_core``) with a tangent of their tape.  The adjoints and their tangents
flow from turn to turn and are not snapshotted, as in reverse mode.  The environment the thunks read holds
the environment of the sweeps and one of tangents per direction.
"""
from __future__ import annotations

from collections.abc import Callable

from ..errors import DifferentiationError
from ..ir import ArrayType, ConstantInt, ConstantKeyword, Function, FunctionType, Module, StructType, Value
from ..ir.builder import Builder, const_int
from ..ir.types import I32, I64, PTR, VOID, IntType
from .checkpoint import SweepLayout, build_env, new_tape, run_forward, run_reverse
from .common import carries_float
from .modes import Activity

#: forward_derivative(fn, activities) at the width being made
ForwardOf = Callable[[Function, tuple[str, ...]], Function]


def checkpoint_sweep_forward(layout: SweepLayout, is_aug: bool, fn: Function, acts: tuple[str, ...], width: int,
                             derivative: Function, forward_of: ForwardOf) -> Function:
    """Fill ``derivative``, the forward derivative (``width`` directions, activities ``acts``) of the generated
    sweep ``fn`` of a checkpointed loop."""
    spec = layout.spec
    if layout.width != 1:
        raise DifferentiationError(f"{spec.site}: forward mode over a batch reverse-mode derivative of a "
                                   "checkpointed loop is not supported yet")
    floats = [g.name for g in spec.globals if carries_float(g.value_type)]
    if floats:
        raise DifferentiationError(
            f"{spec.site}: forward mode over the reverse mode of a checkpointed loop whose step changes the "
            f"floating-point global @{floats[0]} is not supported yet (its one shadow would serve the tangent "
            "and the adjoint); pass that state through an argument named with enzyme_checkpoint_region")
    m = fn.module
    assert isinstance(m, Module)
    values: list[Value] = []
    tangents: list[list[Value] | None] = []
    k = 0
    for act in acts:
        values.append(derivative.args[k])
        k += 1
        if Activity(act).has_shadow:
            tangents.append(list(derivative.args[k:k + width]))
            k += width
        else:
            tangents.append(None)
    env_t = layout.env_t
    field_tangents = [tangents[p] for p in layout.env_params]
    b = Builder(derivative.append_block("entry"))
    env = build_env(b, env_t, [values[p] for p in layout.env_params])
    tenvs = [build_env(b, env_t, [t[j] if t is not None else values[p]
                                  for p, t in zip(layout.env_params, field_tangents)]) for j in range(width)]
    env2_t = StructType((PTR,) * (1 + width))
    env2 = build_env(b, env2_t, [env, *tenvs])
    primal2 = _primal_thunk(m, layout, field_tangents, width, forward_of)
    if is_aug:
        regions: list[tuple[Value, Value]] = []
        for p, n in layout.region_params:
            regions.append((values[p], values[n]))
            regions += [(t, values[n]) for t in tangents[p] or []]
        handle = run_forward(b, layout, values, regions, env2, primal2)
        rt = derivative.return_type
        if isinstance(rt, StructType):  # {handle, its tangents}: the handle stands for them
            agg: Value = ConstantKeyword(rt, "undef")
            agg = b.insertvalue(agg, handle, [0])
            tail = rt.elements[1]
            if isinstance(tail, ArrayType):
                for j in range(tail.count):
                    agg = b.insertvalue(agg, handle, [1, j])
            else:
                agg = b.insertvalue(agg, handle, [1])
            b.ret(agg)
        else:
            b.ret(handle)
    else:
        turn2 = _turn_thunk(m, layout, field_tangents, width, forward_of)
        run_reverse(b, values[-1], env2, primal2, turn2)
        b.ret(None)
    return derivative


def _load_all(b: Builder, layout: SweepLayout, env2: Value, width: int) -> tuple[list[Value], list[list[Value]]]:
    """The environment's fields and, per direction, their tangents (the primal where a field has none)."""
    env2_t = StructType((PTR,) * (1 + width))
    envs = [b.load(PTR, b.gep(env2_t, env2, [ConstantInt(I32, 0), ConstantInt(I32, j)])) for j in range(1 + width)]
    t = layout.env_t
    loaded = [[b.load(ft, b.gep(t, e, [ConstantInt(I32, 0), ConstantInt(I32, k)]))
               for k, ft in enumerate(t.elements)] for e in envs]
    return loaded[0], loaded[1:]


def _interleave(fields: list[Value], tangents: list[list[Value]], has: list[bool], keep: list[bool]) -> list[Value]:
    out: list[Value] = []
    for k, v in enumerate(fields):
        if not keep[k]:
            continue
        out.append(v)
        if has[k]:
            out += [t[k] for t in tangents]
    return out


def _primal_thunk(m: Module, layout: SweepLayout, field_tangents: list[list[Value] | None], width: int,
                  forward_of: ForwardOf) -> Function:
    """``i64 primal2(env2, i)``: the step's forward derivative on the primal fields and their tangents."""
    spec = layout.spec
    f = Function(m.unique_name(f"{layout.primal_thunk.name}.fwd"), FunctionType(I64, (PTR, I64)), prefix="internal")
    m.add(f)
    b = Builder(f.append_block("entry"))
    has = [t is not None for t in field_tangents]
    primal = layout.env_primal if len(spec.step.args) > 1 else [False] * len(layout.env_t.elements)
    step_acts = ("const", *("dup" if h else "const" for h, p in zip(has, primal) if p))
    fields, tangents = _load_all(b, layout, f.args[0], width)
    i = f.args[1] if spec.step.args[0].type == I64 else b.cast("trunc", f.args[1], spec.step.args[0].type)
    res = b.call(forward_of(spec.step, step_acts), [i, *_interleave(fields, tangents, has, primal)])
    if spec.is_while:
        more = res if isinstance(res.type, IntType) else b.extractvalue(res, [0])
        assert isinstance(more.type, IntType)
        b.ret(b.cast("zext", b.icmp("ne", more, const_int(more.type, 0)), I64))
    else:
        b.ret(const_int(I64, 1))
    return f


def _turn_thunk(m: Module, layout: SweepLayout, field_tangents: list[list[Value] | None], width: int,
                forward_of: ForwardOf) -> Function:
    """``void turn2(env2, i)``: the forward derivative of turn_core, with a tangent of its tape."""
    f = Function(m.unique_name(f"{layout.turn_core.name}.fwd"), FunctionType(VOID, (PTR, I64)), prefix="internal")
    m.add(f)
    b = Builder(f.append_block("entry"))
    has = [t is not None for t in field_tangents]
    core_acts = ("const", *("dup" if h else "const" for h in has), "dup")
    fields, tangents = _load_all(b, layout, f.args[0], width)
    tape = new_tape(m, b)
    dtapes = [new_tape(m, b) for _ in range(width)]
    b.call(forward_of(layout.turn_core, core_acts),
           [f.args[1], *_interleave(fields, tangents, has, [True] * len(fields)), tape, *dtapes])
    free = m.declare_function("free", FunctionType(VOID, (PTR,)))
    for t in (tape, *dtapes):
        b.call(free, [t])
    b.ret(None)
    return f

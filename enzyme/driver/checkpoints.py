"""Checkpointed loops (``<enzyme/checkpoint.h>``): their reverse mode keeps the tape of one step at a time
(enzyme.ad.checkpoint says how).

    __enzyme_checkpoint_for(step, start, n, enzyme_scheme, scheme, data,
                            [enzyme_checkpoint_region, ptr, bytes,]... args...);
    __enzyme_checkpoint_while(step, enzyme_scheme, scheme, data, [enzyme_checkpoint_region, ptr, bytes,]...
                              args...);

run ``for (i = start; i < start + n; i++) step(i, args...);`` and ``i = 0; while (step(i++, args...));``.
Each call becomes a call of a loop function of its own, ``__pyenzyme_checkpoint_for.<step>(start, n, scheme,
data, region pointers and sizes..., args...)`` (without ``start, n`` for while loops), registered with its
shape; forward mode differentiates its body like any loop, reverse mode follows the scheme.
"""
from __future__ import annotations

from ..ad.checkpoint import CheckpointLoop, register_checkpoint
from ..ad.checkpoint_regions import check_writes, snapshot_globals
from ..errors import UsageError
from ..ir import CallInst, Function, FunctionType, Module, Value
from ..ir.builder import Builder, InsertPoint, const_int
from ..ir.types import I64, PTR, VOID, IntType, PointerType, Type
from .replace import erase_call
from .requests import calls_named, marker_global, step_function, where

_ENTRIES = ("__enzyme_checkpoint_for", "__enzyme_checkpoint_while")
_MARKERS = ("enzyme_scheme", "enzyme_checkpoint_region")


def lower_checkpoints(module: Module) -> int:
    """Replace every ``__enzyme_checkpoint_for``/``_while`` call by a call of its loop function."""
    lowered: list[tuple[CallInst, CheckpointLoop]] = []
    for entry in _ENTRIES:
        for call in calls_named(module.functions, entry):
            lowered.append(_lower(module, call, entry == "__enzyme_checkpoint_while"))
    # Once every loop is lowered: a step may itself run a checkpointed loop.
    for loop_call, spec in lowered:
        spec.globals = snapshot_globals(spec.step)
        regions = [loop_call.args[k] for k in range(spec.head - 2 * spec.nregions, spec.head, 2)]
        check_writes(spec.step, loop_call, spec.head, regions, spec.site)
    return len(lowered)


def _lower(module: Module, call: CallInst, is_while: bool) -> tuple[CallInst, CheckpointLoop]:
    entry = "__enzyme_checkpoint_while" if is_while else "__enzyme_checkpoint_for"
    site = f"{entry} {where(call)}"
    args = list(call.args)
    step = step_function(call, site)
    sp = step.function_type.params
    if not sp or not isinstance(sp[0], IntType):
        raise UsageError(f"{site}: the step must take the iteration number (int64_t) first")
    if is_while and not isinstance(step.return_type, IntType):
        raise UsageError(f"{site}: the step of a while loop returns whether to go on (an int)")
    k = 1
    bounds: list[Value] = []
    if not is_while:
        if len(args) < 3 or not all(isinstance(a.type, IntType) for a in args[1:3]):
            raise UsageError(f"{site}: the step is followed by the first iteration and the number of steps")
        bounds = [_as_i64(call, args[1]), _as_i64(call, args[2])]
        k = 3
    if k + 2 >= len(args) or marker_global(args[k], _MARKERS) != "enzyme_scheme":
        raise UsageError(f"{site}: name the schedule with enzyme_scheme, &scheme, data")
    scheme, data = args[k + 1], args[k + 2]
    if not isinstance(scheme.type, PointerType) or not isinstance(data.type, PointerType):
        raise UsageError(f"{site}: enzyme_scheme is followed by the scheme's address and its data pointer")
    k += 3
    regions: list[Value] = []
    while k < len(args) and marker_global(args[k], _MARKERS) == "enzyme_checkpoint_region":
        if k + 2 >= len(args) or not isinstance(args[k + 1].type, PointerType) or not isinstance(
                args[k + 2].type, IntType):
            raise UsageError(f"{site}: enzyme_checkpoint_region is followed by the region's address and bytes")
        regions += [args[k + 1], _as_i64(call, args[k + 2])]
        k += 3
    rest = args[k:]
    if any(marker_global(a, _MARKERS) is not None for a in rest):
        raise UsageError(f"{site}: enzyme_scheme and enzyme_checkpoint_region come before the step's arguments")
    if len(rest) != len(sp) - 1:
        raise UsageError(f"{site}: @{step.name} takes {len(sp) - 1} arguments after the iteration number, "
                         f"{len(rest)} were given")
    for j, (v, t) in enumerate(zip(rest, sp[1:])):
        if v.type != t:
            raise UsageError(f"{site}: argument {j + 2} of @{step.name} is {t}, {v.type} was given")
    nregions = len(regions) // 2
    loop = _loop_function(module, step, is_while, nregions)
    spec = CheckpointLoop(step, is_while, nregions, site)
    register_checkpoint(module, loop, spec)
    new = Builder(InsertPoint.before_inst(call)).call(loop, [*bounds, scheme, data, *regions, *rest])
    dbg = call.get_metadata("dbg")
    if dbg is not None:  # refusals name the source line of the loop
        new.metadata = [*new.metadata, ("dbg", dbg)]
    erase_call(call)
    return new, spec


def _as_i64(call: CallInst, v: Value) -> Value:
    assert isinstance(v.type, IntType)
    if v.type == I64:
        return v
    return Builder(InsertPoint.before_inst(call)).cast("sext" if v.type.bits < 64 else "trunc", v, I64)


def _loop_function(module: Module, step: Function, is_while: bool, nregions: int) -> Function:
    """``void L([start, n,] scheme, data, (region, bytes)..., args...)`` running the loop."""
    sp = step.function_type.params
    head: list[Type] = [] if is_while else [I64, I64]
    head += [PTR, PTR]
    for _ in range(nregions):
        head += [PTR, I64]
    kind = "while" if is_while else "for"
    f = Function(module.unique_name(f"__pyenzyme_checkpoint_{kind}.{step.name}"),
                 FunctionType(VOID, (*head, *sp[1:])), prefix="internal")
    module.add(f)
    step_args = f.args[len(head):]
    entry, test = f.append_block("entry"), f.append_block("test")
    body = None if is_while else f.append_block("body")
    done = f.append_block("done")
    Builder(entry).br(test)
    b = Builder(test)
    i = b.phi(I64, "i")
    ci: Value = i if sp[0] == I64 else b.cast("trunc", i, sp[0])
    if body is None:
        again = b.call(step, [ci, *step_args])
        nxt = b.add(i, const_int(I64, 1))
        b.cond_br(b.icmp("ne", again, const_int(again.type, 0)), test, done)
        i.add_incoming(const_int(I64, 0), entry)
        i.add_incoming(nxt, test)
    else:
        start, n = f.args[0], f.args[1]
        b.cond_br(b.icmp("slt", i, b.add(start, n)), body, done)
        bb = Builder(body)
        bb.call(step, [ci, *step_args])
        nxt = bb.add(i, const_int(I64, 1))
        bb.br(test)
        i.add_incoming(start, entry)
        i.add_incoming(nxt, body)
    Builder(done).ret(None)
    return f

"""``__enzyme_fixed_point`` (``<enzyme/fixed_point.h>``): a loop iterated to convergence, differentiated at the
state it converged to (enzyme.ad.fixed_point says how).

    __enzyme_fixed_point(step, enzyme_fp_state, z, bytes, [more states,]
                         [enzyme_fp_reduction, r,] [enzyme_fp_max_iters, n,] [enzyme_fp_control, control,]
                         args...);

runs ``int64_t i = 0; while (step(i++, args...));``.  Each call becomes a call to a loop function of its own,
``__pyenzyme_fixed_point.<step>(z..., args...)``, registered with its options, which must be known at
compile time.  Loops marked from inside with ``__enzyme_set_fixed_point`` are outlined into such calls first
(enzyme.driver.fixed_point_loops).  ``enzyme_checkpoint_region`` is refused with one line.
"""
from __future__ import annotations

from ..ad.fixed_point import FixedPoint, register_fixed_point
from ..errors import DifferentiationError, UsageError
from ..ir import (CallInst, ConstantFP, ConstantInt, Function, FunctionType, Module,
                  Type, Value, strip_pointer_casts)
from ..ir.builder import Builder, InsertPoint, const_int
from ..ir.types import I64, VOID, IntType, PointerType
from .replace import erase_call
from .requests import calls_named, marker_global, step_function, where

_OPTIONS = ("enzyme_fp_state", "enzyme_fp_reduction", "enzyme_fp_max_iters", "enzyme_fp_control",
            "enzyme_checkpoint_region")


def lower_fixed_points(module: Module) -> int:
    """Replace every ``__enzyme_fixed_point`` call by a call to its loop function; returns how many."""
    calls = calls_named(module.functions, "__enzyme_fixed_point")
    for call in calls:
        _lower(module, call)
    return len(calls)


def _lower(module: Module, call: CallInst) -> None:
    site = f"__enzyme_fixed_point {where(call)}"
    args = list(call.args)
    step = step_function(call, site)
    sp = step.function_type.params
    if not sp or not isinstance(sp[0], IntType) or not isinstance(step.return_type, IntType):
        raise UsageError(f"{site}: the step must be int step(int64_t i, ...), returning whether to iterate again")
    states: list[Value] = []
    sizes: list[int] = []
    reduction, max_iters, control = 1e-12, 1000, None
    i = 1
    while i < len(args) and (opt := marker_global(args[i], _OPTIONS)) is not None:
        if opt == "enzyme_checkpoint_region":
            raise DifferentiationError(f"{site}: enzyme_checkpoint_region is not supported yet")
        if opt == "enzyme_fp_state":
            if i + 2 >= len(args) or not isinstance(args[i + 1].type, PointerType):
                raise UsageError(f"{site}: enzyme_fp_state is followed by the state's address and its bytes")
            states.append(args[i + 1])
            sizes.append(_constant_int(site, args[i + 2], "the bytes of the state"))
            if sizes[-1] <= 0 or sizes[-1] % 8:
                raise DifferentiationError(f"{site}: the state is {sizes[-1]} bytes; states of doubles are "
                                           "supported (a positive multiple of 8 bytes)")
            i += 3
            continue
        if i + 1 >= len(args):
            raise UsageError(f"{site}: {opt} is not followed by its value")
        v = args[i + 1]
        if opt == "enzyme_fp_reduction":
            if not isinstance(v, ConstantFP):
                raise DifferentiationError(f"{site}: enzyme_fp_reduction must be a constant here")
            reduction = v.value
        elif opt == "enzyme_fp_max_iters":
            max_iters = _constant_int(site, v, "enzyme_fp_max_iters")
        else:
            fn = strip_pointer_casts(v)
            if not isinstance(fn, Function):
                raise DifferentiationError(f"{site}: enzyme_fp_control must name a function known at compile time")
            control = fn
        i += 2
    if not states:
        raise UsageError(f"{site}: name the state with enzyme_fp_state, z, bytes")
    rest = args[i:]
    if len(rest) != len(sp) - 1:
        raise UsageError(f"{site}: @{step.name} takes {len(sp) - 1} arguments after the iteration count, "
                         f"{len(rest)} were given")
    for k, (v, t) in enumerate(zip(rest, sp[1:])):
        if v.type != t:
            raise UsageError(f"{site}: argument {k + 2} of @{step.name} is {t}, {v.type} was given")
    fixed_point_call(Builder(InsertPoint.before_inst(call)), FixedPoint(step, sizes, reduction, max_iters, control,
                                                                       site), states, rest)
    erase_call(call)


def fixed_point_call(b: Builder, spec: FixedPoint, states: list[Value], step_args: list[Value]) -> None:
    """Call, at ``b``, the loop function of ``spec`` (made and registered here) on the states and arguments."""
    module = b.function.module
    assert isinstance(module, Module)
    loop = _loop_function(module, spec.step, [s.type for s in states])
    register_fixed_point(module, loop, spec)
    b.call(loop, [*states, *step_args])


def _constant_int(site: str, v: Value, what: str) -> int:
    if not isinstance(v, ConstantInt):
        raise DifferentiationError(f"{site}: {what} must be a constant here")
    return v.value


def _loop_function(module: Module, step: Function, state_types: list[Type]) -> Function:
    """``void L(states..., args...) { int64_t i = 0; while (step(i++, args...)); }``"""
    sp = step.function_type.params
    f = Function(module.unique_name(f"__pyenzyme_fixed_point.{step.name}"),
                 FunctionType(VOID, (*state_types, *sp[1:])), prefix="internal")
    module.add(f)
    n = len(state_types)
    entry, loop, done = f.append_block("entry"), f.append_block("loop"), f.append_block("done")
    Builder(entry).br(loop)
    b = Builder(loop)
    i = b.phi(I64, "i")
    ci: Value = i if sp[0] == I64 else b.cast("trunc", i, sp[0])
    again = b.call(step, [ci, *f.args[n:]])
    nxt = b.add(i, const_int(I64, 1))
    b.cond_br(b.icmp("ne", again, const_int(again.type, 0)), loop, done)
    i.add_incoming(const_int(I64, 0), entry)
    i.add_incoming(nxt, loop)
    Builder(done).ret(None)
    return f

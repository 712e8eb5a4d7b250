"""Calls in reverse mode: the augmented and reverse code of each call kind, side by side.

:func:`classify_call` (call_kinds.py) says what a callee is; the two
dispatchers below send each kind to its handler.  Calls of functions with a
body (directly or through a pointer) call the callee's own sweeps, once for
all batch lanes; the other kinds run per lane.
"""
from __future__ import annotations

from collections.abc import Callable

from .end_pointers import shadow_end_pointer
from ..errors import DifferentiationError
from ..ir import CallInst, Function, Instruction, Value
from ..ir.types import PTR
from ..ir.builder import Builder
from . import openmp
from .allocators import is_allocator_call
from .call_kinds import CallKind
from .checkpoint import checkpoint_of
from .common import (RUNTIME_HINTS, callee_unknown_error, describe, how_to_add_a_rule, is_null_pointer, no_rule_error,
                     value_name, zero, zero_where_seeds_zero)
from .complex_calls import reverse_adjoints, unpack
from .complex_library import augment_complex_function, reverse_complex_function
from .custom_calls import augment_custom_call, reverse_custom_call
from .device import mirror_barrier
from .indirect import reaches_shadowed_global
from .memory_calls import augment_memory_call, reverse_memory_call
from .mirrored_calls import mirror_call
from .modes import Activities, Activity
from .mpi_calls import augment_mpi_call, mpi_spec, reverse_mpi_call
from .arith_insts import reverse_rule
from .lanes import unpack as unpack_lanes
from .reverse_state import ReverseState
from .special_calls import reverse_struct_math_intrinsic
from .sweep_pair import SweepPair
from .scanf_calls import augment_scanf_call, reverse_scanf_call
from .vectors import reverse_reduction


def _involved(st: ReverseState, inst: CallInst) -> bool:
    return inst in st.active or any(a in st.active or a in st.shadow for a in inst.args)


def augment_call(st: ReverseState, inst: CallInst, ni: Instruction, b: Builder) -> None:
    """The augmented code of a call, for the current lane (``b`` inserts after the clone ``ni``)."""
    assert isinstance(ni, CallInst)
    site = st.call_site(inst)
    kind, name = site.kind, site.name
    if kind is CallKind.INLINE_ASM:
        if _involved(st, inst):
            raise callee_unknown_error(inst)
    elif kind is CallKind.INDIRECT:
        # The callee's sweeps take all lanes at once; a possible allocator's block needs a shadow, and a
        # callee may change a global that has one.
        if (_involved(st, inst) or is_allocator_call(st.ctx, inst) or reaches_shadowed_global(st.ctx, inst)) \
                and st.lane == 0:
            acts = st.call_activities(inst)
            if acts is not None:
                augment_through(st, inst, ni, b, st.indirect_pair(inst, acts), acts, [ni.callee])
    elif kind is CallKind.LIFETIME:
        if st.lane == 0:
            ni.erase()  # the stack object it marks now lives on the heap (memory_insts.py)
    elif kind is CallKind.DROPPED:
        if st.lane == 0:
            ni.erase()
    elif kind is CallKind.CUSTOM:
        if checkpoint_of(st.m, inst.called_function) is not None and st.lane != 0:
            return  # a checkpointed loop's sweeps take every lane's shadows: made in lane 0
        if _involved(st, inst):
            if checkpoint_of(st.m, inst.called_function) is None:
                st.refuse_batch(inst, f"the registered gradient of @{name}")
            for a in inst.args:
                if a in st.shadow:  # the rule adds into the shadow as it likes: not atomically
                    openmp.refuse_in_parallel(st.ctx, st.fn, inst, f"passes to the registered gradient of @{name}",
                                              a)
        augment_custom_call(st, inst, ni, b)
    elif kind is CallKind.MPI:  # always: the other ranks may send or expect adjoints
        augment_mpi_call(st, inst, ni, mpi_spec(inst))
    elif kind is CallKind.MEMORY:
        assert site.memory is not None
        augment_memory_call(st, inst, ni, b, site.memory)
    elif kind is CallKind.SCANF:
        augment_scanf_call(st, inst, ni, b)
    elif kind is CallKind.MIRRORED:
        shadow = mirror_call(inst, ni, b, st.shadow.get, st.lane_suffix("'"))
        if shadow is not None:
            st.shadow[inst] = shadow
    elif kind is CallKind.DEFINED:
        assert site.callee is not None
        acts = st.call_activities(inst)
        if acts is not None and st.lane == 0:  # the callee's sweeps take all lanes at once
            augment_through(st, inst, ni, b, st.sweeps_of(site.callee, acts), acts, [])
    elif kind is CallKind.COMPLEX and site.complex is not None:
        augment_complex_function(st, inst, ni, b, site.complex)
    elif kind is CallKind.PARALLEL:
        assert site.callee is not None
        acts = st.call_activities(inst)
        if acts is not None and st.lane == 0:
            _refuse_active_capture(st, inst, acts)
            augment_through(st, inst, ni, b, st.sweeps_of(site.callee, acts), acts, [],
                            emit=openmp.augmented_fork(st.m, inst, st.push))
    elif kind is CallKind.OPENMP:
        assert name is not None
        openmp.check_runtime_call(inst, name, reverse=True)
    elif kind is CallKind.UNKNOWN:
        assert name is not None
        _refuse_unknown(st, inst, name)
    elif kind is CallKind.INACTIVE:
        shadow_end_pointer(name, inst, ni, b, st.shadow_or_none)  # strtod's end pointer into text with a shadow
    # INACTIVE, MATH, STRUCT_MATH, REDUCTION, COMPLEX: the primal call stays; adjoints come in reverse.


def _refuse_unknown(st: ReverseState, inst: CallInst, name: str) -> None:
    if inst in st.active or any(a in st.active for a in inst.args):
        raise no_rule_error(inst, name)
    # An unseen function given memory that may hold active values could read or overwrite it
    # (a library routine scales or permutes it): ignoring the call would lose derivatives.
    shadowed = [i for i, a in enumerate(inst.args) if a in st.shadow]
    if shadowed and (name.startswith(("llvm.va_", "MPI_", "PMPI_")) or name in RUNTIME_HINTS):
        raise no_rule_error(inst, name)
    if shadowed:
        raise DifferentiationError(
            f"{describe(inst)}: @{name} has no body to differentiate and no derivative rule, and argument "
            f"{shadowed[0] + 1} points to memory that may hold active values; compile @{name} with the program "
            f"(so its bitcode is linked in), {how_to_add_a_rule(name)} if it never reads or "
            "writes floating-point data there")


def reverse_call(st: ReverseState, b: Builder, inst: CallInst) -> None:
    """The reverse of a call, for the current lane."""
    site = st.call_site(inst)
    kind = site.kind
    if kind is CallKind.BARRIER:
        # Threads exchange adjoints through shared memory in the reverse order: the same barrier, once.
        if st.lane == 0:
            mirror_barrier(st.m, b, inst, [st.primal(a) for a in inst.args])
    elif kind is CallKind.INDIRECT:
        acts = st.call_activities(inst) if st.lane == 0 else None
        if acts is not None:
            reverse_through(st, b, inst, st.indirect_pair(inst, acts), acts, [st.primal(inst.callee)])
    elif kind is CallKind.CUSTOM:
        if checkpoint_of(st.m, inst.called_function) is None or st.lane == 0:
            reverse_custom_call(st, b, inst)
    elif kind is CallKind.MPI:
        reverse_mpi_call(st, b, inst, mpi_spec(inst))
    elif kind is CallKind.MEMORY:
        assert site.memory is not None
        reverse_memory_call(st, b, inst, site.memory)
    elif kind is CallKind.SCANF:
        reverse_scanf_call(st, b, inst)
    elif kind is CallKind.MATH:
        assert site.rule is not None
        if inst in st.active:
            reverse_rule(st, b, inst, site.rule, inst.args)
    elif kind is CallKind.STRUCT_MATH:
        reverse_struct_math_intrinsic(st, b, inst)
    elif kind is CallKind.REDUCTION:
        reverse_reduction(st, b, inst)
    elif kind is CallKind.COMPLEX and site.complex is not None:
        reverse_complex_function(st, b, inst, site.complex)
    elif kind is CallKind.COMPLEX:
        if inst in st.active:
            assert site.name is not None
            seed = unpack(b, st.take_adjoint(b, inst))
            adjoints = reverse_adjoints(b, site.name, [st.primal(a) for a in inst.args], st.primal(inst), seed)
            for a, d in zip(inst.args, adjoints):
                st.add_adjoint(b, a, zero_where_seeds_zero(b, list(seed), d))  # as in reverse_rule
    elif kind is CallKind.DEFINED:
        assert site.callee is not None
        acts = st.call_activities(inst) if st.lane == 0 else None  # the callee's sweep takes all lanes
        if acts is not None:
            reverse_through(st, b, inst, st.sweeps_of(site.callee, acts), acts, [])
    elif kind is CallKind.PARALLEL:
        assert site.callee is not None
        acts = st.call_activities(inst) if st.lane == 0 else None
        if acts is not None:
            reverse_through(st, b, inst, st.sweeps_of(site.callee, acts), acts, [],
                            emit=openmp.reverse_fork(st.m, inst, lambda bb: st.pop(bb, PTR)))
    elif kind is CallKind.OPENMP:
        if st.lane == 0:
            assert site.name is not None
            openmp.reverse_runtime_call(st.m, b, inst, site.name)
    # INLINE_ASM, LIFETIME, DROPPED, INACTIVE, UNKNOWN: refused in the augmented sweep where they matter.


def _refuse_active_capture(st: ReverseState, inst: CallInst, acts: Activities) -> None:
    if any(act is Activity.ACTIVE for act in acts):
        raise DifferentiationError(f"{describe(inst)}: an OpenMP parallel region captures an active value by "
                                   "value (firstprivate); reverse mode needs it shared (captured by reference)")


Emit = Callable[[Builder, Function, list[Value]], Value]


def augment_through(st: ReverseState, inst: CallInst, ni: CallInst, b: Builder, pair: SweepPair,
                    acts: Activities, lead: list[Value], emit: Emit | None = None) -> None:
    """Replace the clone ``ni`` of a call by a call of the callee's augmented sweep (``lead``: dispatch args;
    ``emit`` makes the call differently: an OpenMP fork)."""
    args: list[Value] = []
    for a, na, act in zip(inst.args, ni.args, acts):
        args.append(na)
        if act is Activity.DUP:
            args += [a if is_null_pointer(a) else lane[a] for lane in st.shadows]
    call = b.call(pair.augmented, [*lead, *args, st.aug_tape]) if emit is None else \
        emit(b, pair.augmented, [*lead, *args, st.aug_tape])
    primal: Value = call
    if pair.returns_shadow:
        primal = b.extractvalue(call, [0])
        for j, lane_shadow in enumerate(unpack_lanes(b, call, [1], st.width)):
            lane_shadow.name = value_name(inst, "'" if st.width == 1 else f"'{j}")
            st.shadows[j][inst] = lane_shadow
    if not inst.type.is_void:
        ni.replace_all_uses_with(primal)
        primal.name = ni.name
    st.fwd[inst] = primal
    ni.erase()


def reverse_through(st: ReverseState, b: Builder, inst: CallInst, pair: SweepPair, acts: Activities,
                    lead: list[Value], emit: Emit | None = None) -> None:
    """Call the callee's reverse sweep and add the returned adjoints (``lead``: dispatch args; ``emit``: as in
    :func:`augment_through`)."""
    args: list[Value] = []
    for a, act in zip(inst.args, acts):
        args.append(st.primal(a))
        if act is Activity.DUP:
            args += [a if is_null_pointer(a) else st.available(lane[a]) for lane in st.shadows]
    if pair.returns_adjoint:
        assert pair.dret_type is not None
        args += [st.take_adjoint(b, inst) if inst in st.active else zero(pair.dret_type) for _ in st.lanes()]
    res = b.call(pair.reverse, [*lead, *args, st.rev_tape]) if emit is None else \
        emit(b, pair.reverse, [*lead, *args, st.rev_tape])
    k = 0
    for a, act in zip(inst.args, acts):
        if act is Activity.ACTIVE:
            for j, d in enumerate(unpack_lanes(b, res, [k], st.width)):
                with st.in_lane(j):
                    st.add_adjoint(b, a, d)
            k += 1

"""Calls in forward mode: each call kind's tangent code.

:func:`classify_call` (call_kinds.py) says what a callee is.  Math rules,
reductions, complex and struct-returning math run per batch lane; calls of
functions with a body (directly, through a pointer, or through a
registered forward derivative) call the callee's derivative once for all
lanes and replace the primal call.
"""
from __future__ import annotations

from collections.abc import Callable

from .end_pointers import shadow_end_pointer
from ..ir import CallInst, Function, Instruction, IntType, Value
from ..ir.builder import Builder
from .allocators import is_allocator_call
from .call_kinds import CallKind, is_libm_sincos
from .common import callee_unknown_error, carries_float, is_null_pointer, no_rule_error, value_name
from .complex_calls import forward_tangent, pack
from .complex_library import forward_complex_function
from .float_bits import float_bits_error, passes_untracked_bits, untracked_bits_error
from .arith_insts import apply_rule
from .memory_insts import has_tangent
from .forward_state import ForwardState
from .indirect import forward_dispatcher, reaches_shadowed_global
from .memory_calls import forward_memory_call
from .mirrored_calls import mirror_call
from .modes import Activities, Activity
from . import openmp
from .mpi_calls import forward_mpi_call, mpi_spec
from .scanf_calls import forward_scanf_call
from .special_calls import forward_libm_sincos, forward_struct_math_intrinsic
from .vectors import forward_reduction


def forward_call(st: ForwardState, inst: CallInst, ni: Instruction, b: Builder) -> None:
    """The tangent code of a call for the current lane (``b`` inserts after the clone ``ni``)."""
    assert isinstance(ni, CallInst)
    if passes_untracked_bits(inst, lambda v: st.tangent(v) is not None, lambda p: st.tangent(p) is not None):
        raise untracked_bits_error(inst)
    site = st.call_site(inst)
    kind, name, args = site.kind, site.name, inst.args
    active = any(st.tangent(a) is not None for a in args)
    active_somewhere = any(lane.get(a) is not None for lane in st.shadows for a in args)
    if kind is CallKind.INACTIVE:
        shadow_end_pointer(name, inst, ni, b, st.tangent)  # strtod's end pointer into text with a shadow
    if kind in (CallKind.LIFETIME, CallKind.INACTIVE, CallKind.BARRIER):
        return
    if kind is CallKind.DROPPED:
        if st.lane == 0:
            ni.erase()
        return
    if kind is CallKind.CUSTOM:
        if active_somewhere:  # else the tangent is zero: no need to run the rule
            registered = site.callee
            assert registered is not None
            _call_derivative(st, inst, ni, b, lambda acts: st.derivative_of(registered, acts), [])
        return
    if kind is CallKind.MPI:  # always: the other ranks may send or expect tangents
        forward_mpi_call(st, inst, ni, mpi_spec(inst))
        return
    if any(a in st.float_bits for a in args) and (site.callee is None or site.callee.is_declaration):
        raise float_bits_error(inst, "a call passing")  # defined callees take them as active arguments
    if kind in (CallKind.INDIRECT, CallKind.INLINE_ASM):
        if active_somewhere or carries_float(inst.type) or is_allocator_call(st.ctx, inst) \
                or reaches_shadowed_global(st.ctx, inst):
            if kind is CallKind.INLINE_ASM:
                raise callee_unknown_error(inst)

            def dispatcher(acts: Activities) -> Function:
                return forward_dispatcher(st.ctx, inst, acts, st.width, lambda g: st.derivative_of(g, acts))
            _call_derivative(st, inst, ni, b, dispatcher, [ni.callee])
    elif kind is CallKind.REDUCTION:
        forward_reduction(st, inst, ni, b)
    elif kind is CallKind.COMPLEX and site.complex is not None:
        forward_complex_function(st, inst, ni, b, site.complex)
    elif kind is CallKind.COMPLEX:
        if active:
            assert name is not None
            re, im = forward_tangent(b, name, ni.args, [st.t(a) for a in args], ni)
            st.tan[inst] = pack(b, ni, re, im)
    elif kind is CallKind.STRUCT_MATH and is_libm_sincos(name or ""):
        forward_libm_sincos(st, inst, ni, b)
    elif kind is CallKind.STRUCT_MATH:
        if active:
            st.tan[inst] = forward_struct_math_intrinsic(st.ctx.module, b, inst, list(ni.args),
                                                         [st.tangent(a) for a in args], ni)
    elif kind is CallKind.MEMORY:
        assert site.memory is not None
        forward_memory_call(st, inst, ni, b, site.memory)
    elif kind is CallKind.SCANF:
        forward_scanf_call(st, inst, ni, b)
    elif kind is CallKind.MIRRORED:
        shadow = mirror_call(inst, ni, b, st.tangent, "'")
        if shadow is not None:
            st.tan[inst] = shadow
    elif kind is CallKind.MATH:
        assert site.rule is not None
        apply_rule(st, inst, ni, site.rule, args, b)
    elif kind is CallKind.DEFINED:
        assert site.callee is not None
        callee = site.callee
        _call_derivative(st, inst, ni, b, lambda acts: st.derivative_of(callee, acts), [])
    elif kind is CallKind.PARALLEL:
        assert site.callee is not None
        region = site.callee
        _call_derivative(st, inst, ni, b, lambda acts: st.derivative_of(region, acts), [],
                         emit=openmp.forward_fork(st.ctx.module, inst))
    elif kind is CallKind.OPENMP:
        assert name is not None
        openmp.check_runtime_call(inst, name, reverse=False)
    elif active or carries_float(inst.type):
        assert name is not None
        raise no_rule_error(inst, name)


def _call_derivative(st: ForwardState, inst: CallInst, ni: CallInst, b: Builder,
                     derivative: Callable[[Activities], Function], lead: list[Value],
                     emit: Callable[[Builder, Function, list[Value]], Value] | None = None) -> None:
    """Call the callee's derivative (``lead``: dispatch args), once for all lanes, in place of the call
    (``emit`` makes the call differently: an OpenMP fork)."""
    if st.lane != 0:
        return
    acts = []
    call_args: list[Value] = []
    for a, na in zip(inst.args, ni.args):
        lanes = [st.shadows[j].get(a) for j in range(st.width)]
        if any(t is not None for t in lanes) and (has_tangent(a.type) or a in st.float_bits):
            acts.append(Activity.DUP)
            call_args += [na, *st.all_lanes(a)]
        elif is_null_pointer(a):
            # A null pointer is its own shadow: the callee may store it beside shadowed pointers (a list's end).
            acts.append(Activity.DUP)
            call_args += [na, *[a] * st.width]
        else:
            acts.append(Activity.CONST)
            call_args.append(na)
    if all(x is Activity.CONST or is_null_pointer(a) for a, x in zip(inst.args, acts)) \
            and not carries_float(inst.type) \
            and not is_allocator_call(st.ctx, inst) \
            and not reaches_shadowed_global(st.ctx, inst):
        return
    d = derivative(tuple(acts))
    call_args += st.passed_on
    call = b.call(d, [*lead, *call_args]) if emit is None else emit(b, d, [*lead, *call_args])
    if d.return_type != inst.type:  # {primal, tangent}
        if isinstance(inst.type, IntType):
            st.mark_bits(inst)  # a bits_of(double) helper
        primal = b.extractvalue(call, [0])
        if st.width == 1:
            st.tan[inst] = b.extractvalue(call, [1], value_name(inst, "'"))
        else:
            for j in range(st.width):
                st.shadows[j][inst] = b.extractvalue(call, [1, j], value_name(inst, f"'{j}"))
        ni.replace_all_uses_with(primal)
        primal.name = ni.name
        st.vmap[inst] = primal
    elif not inst.type.is_void:
        ni.replace_all_uses_with(call)
        call.name = ni.name
        st.vmap[inst] = call
    ni.erase()

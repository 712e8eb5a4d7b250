"""MPI calls in every mode: each becomes a call of its helper in ``enzyme/runtime_bodies/mpi.c``.

The helpers do the primal communication and the derivative one (forward: the tangents travel like the data;
reverse: the adjoint communication runs backwards), so the engine only passes operands along
(``enzyme.rules.mpi`` says which are buffers):

* forward mode: ``MPI_X(args)`` becomes ``__pyenzyme_mpi_MPI_X_fwd(args with each buffer's tangent)``; with
  ``enzyme_width`` W > 1, followed by ``__pyenzyme_mpi_MPI_X_tan(args with direction j's tangents)`` for
  j = 1..W-1 (the tangents' communication alone; not for non-blocking calls);
* augmented sweep: ``t = __pyenzyme_mpi_MPI_X_aug(args with shadows)``, its tape ``t`` kept for the reverse
  sweep (the call's result becomes ``MPI_SUCCESS``: the helpers stop the program on any failure);
* reverse sweep: ``__pyenzyme_mpi_MPI_X_rev(args with shadows, t)``.

Every differentiated MPI call takes part in the derivative communication, even one whose buffers carry no
derivative here: the other end of a message (or the other members of a collective) may carry one, and both ends
must agree.  The helpers decide by datatype, which both ends share.  What the helpers cannot differentiate and the
IR already shows (an unsupported datatype or reduction, a wildcard receive of floating-point data) is refused here,
with the call's source line; the helpers stop the program on the same cases when the handles are only known at run
time.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..errors import DifferentiationError
from ..ir import CallInst, ConstantInt, ConstantKeyword, Function, GlobalVariable, Instruction, Module, Value, \
    strip_pointer_casts
from ..ir.builder import Builder, InsertPoint
from ..ir.types import PTR
from ..rules.mpi import DIFFERENTIABLE_OPS, MpiCall, datatype_kind, helper_name, mpi_call
from .common import describe

if TYPE_CHECKING:
    from .forward_state import ForwardState
    from .reverse_state import ReverseState

SUCCESS = 0  # MPI_SUCCESS


def _helper(module: Module, inst: CallInst, part: str) -> Function:
    name = inst.callee_name or ""
    fn = module.get_function(helper_name(name, part))
    if fn is None or fn.is_declaration:
        raise DifferentiationError(
            f"{describe(inst)}: pyenzyme differentiates @{name} only in programs built against OpenMPI's <mpi.h> "
            "(its MPI_DOUBLE, MPI_COMM_WORLD, ... are the ompi_mpi_* globals the derivative helpers know)")
    return fn


def check_mpi_call(inst: CallInst, spec: MpiCall) -> None:
    """Refuse what the helpers cannot differentiate, when the IR shows it: a datatype or a reduction on
    floating-point data that is not supported, a wildcard receive of floating-point data.  Handles only known at
    run time (passed down through a function's parameters) are checked there by the helpers, which stop the
    program on the same cases."""
    name = inst.callee_name
    if spec.refused is not None:
        raise DifferentiationError(f"{describe(inst)}: @{name} cannot be differentiated: it {spec.refused}")
    floats = False
    for _, dt in spec.buffers:
        handle = strip_pointer_casts(inst.args[dt])
        if not isinstance(handle, GlobalVariable):
            continue
        kind = datatype_kind(handle.name or "")
        if kind is None:
            raise DifferentiationError(
                f"{describe(inst)}: the derivative of @{name} does not support datatype @{handle.name}; only "
                "MPI_DOUBLE and MPI_FLOAT buffers carry derivatives (integer and character buffers carry none)")
        floats |= kind == "float"
    if not floats:
        return
    if spec.op is not None:
        op = strip_pointer_casts(inst.args[spec.op])
        if isinstance(op, GlobalVariable) and (op.name or "") not in DIFFERENTIABLE_OPS:
            raise DifferentiationError(
                f"{describe(inst)}: the derivative of @{name} on floating-point data supports the reductions "
                f"{', '.join(DIFFERENTIABLE_OPS.values())}, not @{op.name}")
    if spec.receives_from is not None:
        for i, what in zip(spec.receives_from, ("MPI_ANY_SOURCE", "MPI_ANY_TAG")):
            v = inst.args[i]
            if isinstance(v, ConstantInt) and v.value == -1:
                raise DifferentiationError(
                    f"{describe(inst)}: @{name} of floating-point data from {what} cannot be differentiated (a "
                    "derivative message could match the wildcard); name the source rank and tag")


def _helper_args(inst: CallInst, spec: MpiCall, values: list[Value],
                 shadow_of: Callable[[Value], Value | None]) -> list[Value]:
    buffers = {b for b, _ in spec.buffers}
    out: list[Value] = []
    for i, (a, v) in enumerate(zip(inst.args, values)):
        out.append(v)
        if i in buffers:
            s = shadow_of(a)
            out.append(s if s is not None else ConstantKeyword(PTR, "null"))
    return out


def _replace(inst: CallInst, ni: Instruction, new: Value, fwd: dict[Value, Value]) -> None:
    if not inst.type.is_void:
        ni.replace_all_uses_with(new)
        fwd[inst] = new
    ni.erase()


def forward_mpi_call(st: ForwardState, inst: CallInst, ni: CallInst, spec: MpiCall) -> None:
    """Forward mode: the primal call and its tangents' communication, in the helper."""
    if st.lane != 0:
        return
    if st.width > 1 and not spec.batched:
        raise DifferentiationError(f"{describe(inst)}: @{inst.callee_name} is not supported in batch forward mode "
                                   f"(enzyme_width {st.width}) yet; call once per direction")
    check_mpi_call(inst, spec)
    b = Builder(InsertPoint.before_inst(ni))
    call = b.call(_helper(st.ctx.module, inst, "fwd"), _helper_args(inst, spec, list(ni.args), st.tangent))
    for j in range(1, st.width):  # the further directions' tangents travel after the primal data
        with st.in_lane(j):
            b.call(_helper(st.ctx.module, inst, "tan"), _helper_args(inst, spec, list(ni.args), st.tangent))
    if not inst.type.is_void:
        call.name = ni.name
    _replace(inst, ni, call, st.vmap)


def augment_mpi_call(st: ReverseState, inst: CallInst, ni: CallInst, spec: MpiCall) -> None:
    """Augmented sweep: the primal call in the helper, which returns what the reverse sweep needs."""
    if st.lane != 0:
        return
    st.refuse_batch(inst, f"@{inst.callee_name}")
    check_mpi_call(inst, spec)
    tape = Builder(InsertPoint.before_inst(ni)).call(
        _helper(st.ctx.module, inst, "aug"), _helper_args(inst, spec, list(ni.args), st.shadow_or_none))
    st.custom_tapes[inst] = tape
    _replace(inst, ni, ConstantInt(inst.type, SUCCESS), st.fwd)


def reverse_mpi_call(st: ReverseState, b: Builder, inst: CallInst, spec: MpiCall) -> None:
    """Reverse sweep: the adjoint communication, in the helper."""
    tape = st.custom_tapes.get(inst)
    if tape is None or st.lane != 0:
        return

    def shadow_in_reverse(a: Value) -> Value | None:
        s = st.shadow_or_none(a)
        return st.available(s) if s is not None else None

    args = _helper_args(inst, spec, [st.primal(a) for a in inst.args], shadow_in_reverse)
    b.call(_helper(st.ctx.module, inst, "rev"), [*args, st.available(tape)])


def mpi_spec(inst: CallInst) -> MpiCall:
    spec = mpi_call(inst.callee_name)
    assert spec is not None  # classify_call said MPI
    return spec

"""``atomicrmw``: atomic additions into memory (CUDA's ``atomicAdd``, OpenMP reductions, ``std::atomic``).

``atomicrmw fadd p, v`` is ``*p += v`` done atomically.  Forward mode adds the
tangent of ``v`` into the shadow of ``*p`` the same way; the old value it
returns has the shadow's old value as tangent.  In reverse, ``*p``'s adjoint
flows to ``v`` unchanged (``fsub``: negated) and stays in the shadow (the sum
still depends on the old ``*p``); the adjoint of the returned old value is
added into the shadow (atomically in device code).  Integer operations carry
no derivative.  Any other operation on floating-point values (``xchg``,
``fmax``, ...) with a derivative is refused.
"""
from __future__ import annotations

from ..errors import DifferentiationError
from ..ir import Instruction
from ..ir.builder import Builder
from ..ir.instructions import AtomicRMWInst
from .common import carries_float, describe, zero
from .device import accumulate_into
from .forward_state import ForwardState
from .openmp import needs_atomic_adjoint
from .openmp_runtime import atomic_add
from .reverse_state import ReverseState, fadd_deep

_ADDITIVE = ("fadd", "fsub")


def _check(inst: AtomicRMWInst, involved: bool) -> bool:
    """Does ``inst`` carry a derivative (refusing the operations that cannot)?"""
    if not carries_float(inst.type) or not involved:
        return False
    if inst.operation not in _ADDITIVE:
        raise DifferentiationError(f"{describe(inst)}: atomicrmw {inst.operation} on floating-point values is not "
                                   "supported by automatic differentiation yet (only fadd and fsub are)")
    return True


def forward_atomicrmw(st: ForwardState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    assert isinstance(inst, AtomicRMWInst)
    p, v = inst.operands
    s, t = st.tangent(p), st.tangent(v)
    if not _check(inst, s is not None or t is not None):
        return
    if s is None:
        raise DifferentiationError(f"{describe(inst)}: adds an active value into memory without a shadow "
                                   "(pass that memory with enzyme_dup)")
    old = b.insert(AtomicRMWInst(inst.operation, s, t if t is not None else zero(v.type), "monotonic", inst.align))
    st.tan[inst] = old


def reverse_atomicrmw(st: ReverseState, b: Builder, inst: Instruction) -> None:
    assert isinstance(inst, AtomicRMWInst)
    p, v = inst.operands
    shadowed = p in st.shadow
    if not _check(inst, shadowed or v in st.active or inst in st.active):
        return
    if not shadowed:
        if v in st.active:
            raise DifferentiationError(f"{describe(inst)}: adds an active value into memory without a shadow "
                                       "(pass that memory with enzyme_dup): its derivative would be lost")
        return
    sp = st.available(st.shadow[p])
    if v in st.active:  # the adjoint of *p after the addition
        d = b.load(v.type, sp, align=inst.align)
        st.add_adjoint(b, v, b.fneg(d) if inst.operation == "fsub" else d)
    if inst in st.active:  # the old value was used: its adjoint belongs to *p before the addition
        d = st.take_adjoint(b, inst)
        if needs_atomic_adjoint(st.ctx, st.fn, p):  # other threads of an OpenMP region add there too
            atomic_add(st.m, b, sp, d, inst)
        else:
            accumulate_into(st.m, b, sp, d, inst.align, fadd_deep)  # atomic in GPU device code

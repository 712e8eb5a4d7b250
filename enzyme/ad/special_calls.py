"""Math intrinsics returning a struct of results, from their rules (rules/math.py's MULTI).

``llvm.modf(x) -> {frac, int}``, ``llvm.frexp(x) -> {m, e}``,
``llvm.sincos(x) -> {sin, cos}`` and ``llvm.sincospi`` return several values,
so their rule gives partials per result field (``Result(k)`` is field k of
the primal result).  Forward mode: field k's tangent is the sum over the
operands of partial · tangent, put together as a struct like the result.
Reverse mode: the adjoint arrives as a struct (the extractvalues of the
result add into it), and each operand gets the sum over the fields of
partial · field adjoint.  A field without a rule (an integer exponent)
carries no derivative.

glibc's ``sincos(x, T* s, T* c)`` (and ``sincosf``/``sincosl``) stores the same two results
through pointers: forward mode stores ``cos x · dx`` and ``-sin x · dx`` into the shadows of
``*s`` and ``*c``; the reverse sweep takes (and zeroes) the adjoints of ``*s`` and ``*c`` and
adds them into ``x``'s, with sin x and cos x recomputed from x (the stores may be overwritten
by then).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..ir import CallInst, ExtractValueInst, Instruction, Module, Value
from ..ir.types import StructType
from ..rules import lookup_multi
from ..rules.dsl import MultiRule, X
from ..rules.emit import Emitter
from .call_kinds import is_libm_sincos
from .common import zero, zero_where_seeds_zero

if TYPE_CHECKING:
    from ..ir.builder import Builder
    from .forward_state import ForwardState
    from .reverse_state import ReverseState


def zero_derivative_field(inst: Instruction) -> bool:
    """Is ``inst`` an extractvalue of a result field no derivative flows through (modf's integral part,
    frexp's exponent)?  Such a value is inactive whatever the operand is."""
    call = inst.operand(0) if isinstance(inst, ExtractValueInst) else None
    if not isinstance(call, CallInst) or not isinstance(inst, ExtractValueInst) or not inst.indices:
        return False
    rule = lookup_multi(call.callee_name or "")
    k = inst.indices[0]
    return rule is not None and k < len(rule.fields) and rule.fields[k] is None


def _rule(inst: CallInst) -> MultiRule:
    rule = lookup_multi(inst.callee_name or "")
    assert rule is not None  # classified as CallKind.STRUCT_MATH
    return rule


def _sin_cos(em: Emitter) -> tuple[Value, Value]:
    """sin x and cos x of the Emitter's operand 0 (emitted once, shared by the batch lanes)."""
    return em.emit(X[0].call("sin")), em.emit(X[0].call("cos"))


def forward_libm_sincos(st: ForwardState, inst: CallInst, ni: CallInst, b: Builder) -> None:
    """Store the tangents of sin x and cos x into the shadows of ``*s`` and ``*c`` (current lane)."""
    x, ps, pc = inst.args
    shadows = [st.tangent(ps), st.tangent(pc)]
    if all(sh is None for sh in shadows):
        return
    dx = st.tangent(x)
    tangents: list[Value]
    if dx is None:
        tangents = [zero(x.type), zero(x.type)]  # the stored results are constants: their tangents are zero
    else:
        em = st.emitters.get(inst)
        if em is None:
            em = st.emitters[inst] = Emitter(st.ctx.module, b, [ni.args[0]], None, x.type)
        sin_x, cos_x = _sin_cos(em)
        tangents = [b.fmul(cos_x, dx), b.fneg(b.fmul(sin_x, dx))]
    for sh, t in zip(shadows, tangents):
        if sh is not None:
            b.store(t, sh)


def reverse_libm_sincos(st: ReverseState, b: Builder, inst: CallInst) -> None:
    """Move the adjoints of ``*s`` and ``*c`` into x's (current lane)."""
    x, ps, pc = inst.args
    seeds: list[Value | None] = []
    for p in (ps, pc):
        if p not in st.shadow:
            seeds.append(None)
            continue
        sh = st.available(st.shadow[p])
        seeds.append(b.load(x.type, sh))
        b.store(zero(x.type), sh)  # overwritten by the call: their adjoints are consumed here
    if x not in st.active or all(d is None for d in seeds):
        return
    em = st.emitters.get(inst)
    if em is None:
        em = st.emitters[inst] = Emitter(st.m, b, [st.primal(x)], None, x.type)
    sin_x, cos_x = _sin_cos(em)
    ds, dc = (d if d is not None else zero(x.type) for d in seeds)
    dx = b.fsub(b.fmul(ds, cos_x), b.fmul(dc, sin_x))
    st.add_adjoint(b, x, zero_where_seeds_zero(b, [ds, dc], dx))  # sin/cos of a dropped inf are NaN


def forward_struct_math_intrinsic(module: Module, b: Builder, inst: CallInst, args: list[Value],
                                  tangents: list[Value | None], result: Value) -> Value:
    """The tangent (a struct like the result) of ``inst`` along ``tangents`` (None: a zero tangent)."""
    st = result.type
    assert isinstance(st, StructType)
    em = Emitter(module, b, args, result, args[0].type)
    out: Value = zero(st)
    for k, field in enumerate(_rule(inst).fields):
        if field is None:
            continue
        total: Value | None = None
        for p, t in zip(field.partials, tangents):
            if p is not None and t is not None:
                term = em.times(p, t, singular=field.singular)
                total = term if total is None else b.fadd(total, term)
        if total is not None:
            out = b.insertvalue(out, total, [k])
    return out


def reverse_struct_math_intrinsic(st: ReverseState, b: Builder, inst: CallInst) -> None:
    """Add the struct adjoint of ``inst`` into the adjoints of its operands."""
    if is_libm_sincos(inst.callee_name or ""):
        reverse_libm_sincos(st, b, inst)
        return
    if inst not in st.active or not any(a in st.active for a in inst.args):
        return
    rule = _rule(inst)
    d = st.take_adjoint(b, inst)
    need = rule.used_args
    args = [st.primal(a) if i in need else a for i, a in enumerate(inst.args)]
    em = Emitter(st.m, b, args, st.primal(inst) if rule.uses_result else None, inst.args[0].type)
    seeds = [b.extractvalue(d, [k]) if field is not None else None for k, field in enumerate(rule.fields)]
    for i, a in enumerate(inst.args):
        if a not in st.active:
            continue
        total: Value | None = None
        for field, seed in zip(rule.fields, seeds):
            p = field.partials[i] if field is not None and i < len(field.partials) else None
            if p is not None and seed is not None:
                assert field is not None
                term = em.times(p, seed, singular=field.singular)
                total = term if total is None else b.fadd(total, term)
        if total is not None:
            st.add_adjoint(b, a, total)

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
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..ir import CallInst, Module, Value
from ..ir.types import StructType
from ..rules import lookup_multi
from ..rules.dsl import MultiRule
from ..rules.emit import Emitter
from .common import zero

if TYPE_CHECKING:
    from ..ir.builder import Builder
    from .reverse_state import ReverseState


def is_struct_math_intrinsic(name: str) -> bool:
    """``llvm.modf.*``, ``llvm.frexp.*``, ``llvm.sincos.*``, ``llvm.sincospi.*``: a rule in MULTI."""
    return lookup_multi(name) is not None


def _rule(inst: CallInst) -> MultiRule:
    rule = lookup_multi(inst.callee_name or "")
    assert rule is not None  # classified as CallKind.STRUCT_MATH
    return rule


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

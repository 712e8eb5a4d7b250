"""Reverse mode of the math intrinsics that return structs (rules/math.py's SPECIAL).

``llvm.modf(x) -> {frac, int}``, ``llvm.frexp(x) -> {m, e}``,
``llvm.sincos(x) -> {sin, cos}`` and ``llvm.sincospi`` return several values,
which a per-operand partial cannot describe.  Their adjoint arrives as a
struct (the extractvalues of the result add into it); here it is folded into
the adjoint of ``x``:

* modf: ``dx += dfrac`` (the integral part is piecewise constant);
* frexp: ``dx += dm · 2^-e``, with the partial of libm's frexp rule (``m/x``,
  1 at 0) evaluated on the primal ``m``; ``e`` is an integer;
* sincos: ``dx += dsin · cos x - dcos · sin x`` from the primal results;
  sincospi the same times π.

glibc's ``sincos(x, T* s, T* c)`` (and ``sincosf``/``sincosl``) stores the same two results
through pointers: forward mode stores ``cos x · dx`` and ``-sin x · dx`` into the shadows of
``*s`` and ``*c``; the reverse sweep takes (and zeroes) the adjoints of ``*s`` and ``*c`` and
adds them into ``x``'s, with sin x and cos x recomputed from x (the stores may be overwritten
by then).
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..ir import CallInst, Value
from ..ir.builder import const_fp
from ..ir.types import StructType, VectorType, scalar_of
from ..rules import MATH, canonical_name
from ..rules.dsl import X
from ..rules.emit import Emitter
from .common import zero, zero_where_seeds_zero

if TYPE_CHECKING:
    from ..ir.builder import Builder
    from .forward_state import ForwardState
    from .reverse_state import ReverseState

STRUCT_INTRINSICS = frozenset({"modf", "frexp", "sincos", "sincospi"})


def is_struct_math_intrinsic(name: str) -> bool:
    """``llvm.modf.*``, ``llvm.frexp.*``, ``llvm.sincos.*``, ``llvm.sincospi.*``; glibc's ``sincos``/``sincosf``/``sincosl``."""
    return canonical_name(name) in STRUCT_INTRINSICS if name.startswith("llvm.") else is_libm_sincos(name)


def is_libm_sincos(name: str) -> bool:
    return not name.startswith("llvm.") and canonical_name(name) == "sincos"


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


def reverse_struct_math_intrinsic(gen: ReverseState, b: Builder, inst: CallInst) -> None:
    """Add the struct adjoint of ``inst`` into the adjoint of its operand."""
    if is_libm_sincos(inst.callee_name or ""):
        reverse_libm_sincos(gen, b, inst)
        return
    x = inst.args[0]
    if inst not in gen.active or x not in gen.active:
        return
    key = canonical_name(inst.callee_name or "")
    d = gen.take_adjoint(b, inst)
    d0 = b.extractvalue(d, [0])
    if key == "modf":
        dx = d0
    elif key == "frexp":
        r = gen.primal(inst)
        em = Emitter(gen.m, b, [gen.primal(x)], b.extractvalue(r, [0]), x.type)
        partial = MATH["frexp"].partials[0]
        assert partial is not None
        dx = em.times(partial, d0, singular=True)
    else:
        r = gen.primal(inst)
        d1 = b.extractvalue(d, [1])
        dx = b.fsub(b.fmul(d0, b.extractvalue(r, [1])), b.fmul(d1, b.extractvalue(r, [0])))
        if key == "sincospi":
            pi = const_fp(scalar_of(x.type), math.pi)
            if isinstance(x.type, VectorType):
                from ..ir import ConstantExpr
                pi = ConstantExpr(x.type, "splat", [pi])  # type: ignore[assignment]
            dx = b.fmul(dx, pi)
        dx = zero_where_seeds_zero(b, [d0, d1], dx)  # sin/cos of a dropped inf are NaN
    gen.add_adjoint(b, x, dx)


def forward_struct_math_intrinsic(b: Builder, name: str, x: Value, dx: Value, result: Value) -> Value:
    """The tangent (a struct like the result) of ``llvm.modf/frexp/sincos/sincospi(x)`` along ``dx``."""
    key = canonical_name(name)
    st = result.type
    assert isinstance(st, StructType)
    d0: Value
    d1: Value
    if key == "modf":
        d0, d1 = dx, zero(st.elements[1])
    elif key == "frexp":
        em = Emitter(b.function.module, b, [x], b.extractvalue(result, [0]), x.type)  # type: ignore[arg-type]
        partial = MATH["frexp"].partials[0]
        assert partial is not None
        d0, d1 = em.times(partial, dx), zero(st.elements[1])
    else:
        s, c = b.extractvalue(result, [0]), b.extractvalue(result, [1])
        d0, d1 = b.fmul(c, dx), b.fneg(b.fmul(s, dx))
        if key == "sincospi":
            pi: Value = const_fp(scalar_of(x.type), math.pi)
            if isinstance(x.type, VectorType):
                from ..ir import ConstantExpr
                pi = ConstantExpr(x.type, "splat", [pi])
            d0, d1 = b.fmul(d0, pi), b.fmul(d1, pi)
    return b.insertvalue(b.insertvalue(zero(st), d0, [0]), d1, [1])

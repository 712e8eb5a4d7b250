"""Complex multiplication and division: compiler-rt's ``__mul?c3`` / ``__div?c3``.

Without ``-ffast-math`` clang lowers ``z * w`` and ``z / w`` of C99 ``_Complex``
(and ``std::complex``) to calls ``__muldc3(a, b, c, d)`` / ``__divdc3`` (``s``:
float, ``x``: x86_fp80, ``t``: fp128) returning ``{re, im}`` (``<2 x float>``
for float on x86-64).  Both are holomorphic in z = a+bi and w = c+di:

* product p = z·w:   ∂p/∂z = w,    ∂p/∂w = z;
* quotient q = z/w:  ∂q/∂z = 1/w,  ∂q/∂w = -q/w.

Forward mode: ṗ = ż·w + z·ẇ and q̇ = (ż - q·ẇ)/w.  Reverse mode: the adjoint
of an input is conj(∂f/∂input)·ḡ for the result adjoint ḡ (as a complex
number), which is exactly the real-linear transpose of the forward map.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..ir import Value
from ..ir.types import StructType, VectorType

if TYPE_CHECKING:
    from ..ir.builder import Builder

COMPLEX_CALLS = {f"__{op}{k}c3": op for op in ("mul", "div") for k in "sdxt"}

Pair = tuple[Value, Value]


def is_complex_call(name: str) -> bool:
    return name in COMPLEX_CALLS


def unpack(b: Builder, v: Value) -> Pair:
    """(re, im) of a ``{T, T}`` or ``<2 x T>`` value."""
    if isinstance(v.type, VectorType):
        return b.extractelement(v, 0), b.extractelement(v, 1)
    assert isinstance(v.type, StructType)
    return b.extractvalue(v, [0]), b.extractvalue(v, [1])


def pack(b: Builder, like: Value, re: Value, im: Value) -> Value:
    """A value of ``like``'s type holding (re, im)."""
    from .common import zero
    agg: Value = zero(like.type)
    if isinstance(like.type, VectorType):
        return b.insertelement(b.insertelement(agg, re, 0), im, 1)
    return b.insertvalue(b.insertvalue(agg, re, [0]), im, [1])


def _mul(b: Builder, x: Pair, y: Pair) -> Pair:
    return (b.fsub(b.fmul(x[0], y[0]), b.fmul(x[1], y[1])), b.fadd(b.fmul(x[0], y[1]), b.fmul(x[1], y[0])))


def _conj_mul(b: Builder, x: Pair, y: Pair) -> Pair:
    """conj(x)·y."""
    return (b.fadd(b.fmul(x[0], y[0]), b.fmul(x[1], y[1])), b.fsub(b.fmul(x[0], y[1]), b.fmul(x[1], y[0])))


def _div(b: Builder, x: Pair, y: Pair) -> Pair:
    """x / y by the textbook formula (the derivative, not the primal, so no overflow scaling)."""
    n = b.fadd(b.fmul(y[0], y[0]), b.fmul(y[1], y[1]))
    num = _conj_mul(b, y, x)  # x·conj(y)
    return b.fdiv(num[0], n), b.fdiv(num[1], n)


def forward_tangent(b: Builder, name: str, args: list[Value], tangents: list[Value], result: Value) -> Pair:
    """The tangent (re, im) of ``name(a, b, c, d)`` with primal ``result``."""
    z, w = (args[0], args[1]), (args[2], args[3])
    dz, dw = (tangents[0], tangents[1]), (tangents[2], tangents[3])
    if COMPLEX_CALLS[name] == "mul":
        s, t = _mul(b, dz, w), _mul(b, z, dw)
        return b.fadd(s[0], t[0]), b.fadd(s[1], t[1])
    q = unpack(b, result)
    qdw = _mul(b, q, dw)
    return _div(b, (b.fsub(dz[0], qdw[0]), b.fsub(dz[1], qdw[1])), w)


def reverse_adjoints(b: Builder, name: str, args: list[Value], result: Value, d: Pair) -> list[Value]:
    """Adjoints of (a, b, c, d) for the result adjoint ``d`` (re, im) and primal ``result``."""
    z, w = (args[0], args[1]), (args[2], args[3])
    if COMPLEX_CALLS[name] == "mul":
        dz, dw = _conj_mul(b, w, d), _conj_mul(b, z, d)
    else:
        conj_w = (w[0], b.fneg(w[1]))
        dz = _div(b, d, conj_w)                     # conj(1/w)·ḡ = ḡ / conj(w)
        q = unpack(b, result)
        t = _conj_mul(b, q, dz)                     # conj(q)·ḡ/conj(w)
        dw = (b.fneg(t[0]), b.fneg(t[1]))
    return [dz[0], dz[1], dw[0], dw[1]]

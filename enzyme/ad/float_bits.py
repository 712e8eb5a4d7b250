"""Derivatives through integers that hold the bits of floating-point values.

Type analysis says which integers carry float data (a ``uint64_t`` filled by
``memcpy`` from a double, a union member, a bitcast).  Copying such bits
(loads, stores, phis, selects, bitcasts) keeps their derivative; of the
integer operations only the sign-bit ones (:mod:`enzyme.analysis.sign_bits`)
have one: the result is plus or minus its magnitude source, so the source's
derivative passes with its sign flipped where the two sign bits differ.  In
forward mode tangents of float bits stay integers (the tangent's bits); in
reverse mode their adjoints are floats of the same width.  Every other
integer operation on active float bits is refused.
"""
from __future__ import annotations

from ..errors import DifferentiationError
from ..ir import Function, Instruction, IntType, ReturnInst, Value
from ..ir.builder import Builder, const_int
from ..ir.types import FloatType
from ..analysis.debuginfo import describe
from ..analysis.sign_bits import FLOAT_OF_WIDTH, sign_bit
from .common import ADContext
from .copy_types import function_contexts


def float_bits_type(ctx: ADContext, fn: Function, v: Value) -> FloatType | None:
    """The float type whose bits the integer ``v`` holds (type analysis, any calling context), or None."""
    t = v.type
    if not isinstance(t, IntType) or t.bits not in FLOAT_OF_WIDTH:
        return None
    for info in function_contexts(ctx, fn):
        kind = info.float_kind(v)
        if kind is not None and FloatType(kind).bits == t.bits:
            return FloatType(kind)
    return None


def returned_float_bits(ctx: ADContext, fn: Function) -> FloatType | None:
    """The float type whose bits ``fn`` returns as an integer (a ``bits_of(double)`` helper), or None."""
    if not isinstance(fn.return_type, IntType):
        return None
    for inst in fn.instructions():
        if isinstance(inst, ReturnInst) and inst.value is not None:
            ft = float_bits_type(ctx, fn, inst.value)
            if ft is not None:
                return ft
    return None


def sign_flip_mask(b: Builder, result: Value, source: Value) -> Value:
    """``(result ^ source) & SIGN``: the sign bit where a sign-bit operation changed its source's sign."""
    t = result.type
    assert isinstance(t, IntType)
    return b.binop("and", b.binop("xor", result, source), const_int(t, sign_bit(t.bits)))


def flip_adjoint(b: Builder, adjoint: Value, mask: Value) -> Value:
    """The float ``adjoint`` with its sign flipped where ``mask`` (an integer sign mask) is set."""
    bits = b.cast("bitcast", adjoint, mask.type)
    return b.cast("bitcast", b.binop("xor", bits, mask), adjoint.type)


def float_bits_error(inst: Instruction, what: str = "integer arithmetic on") -> DifferentiationError:
    return DifferentiationError(
        f"{describe(inst)}: {what} the bits of an active floating-point value; only sign-bit operations "
        "(negation, fabs, copysign through the bits) have a derivative. Compute on the floating-point value instead")

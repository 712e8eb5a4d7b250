"""Integer operations that touch nothing but the sign bit of a floating-point value.

Code that works on a double through its bits (``memcpy`` into a ``uint64_t``,
a union, ``std::bit_cast``) gives IR such as::

    %b = load i64, ptr %p                          ; the bits of a double
    %n = xor i64 %b, -9223372036854775808          ; -x
    %a = and i64 %b, 9223372036854775807           ; |x|
    %c = or i64 %a, %s                             ; copysign(|x|, s), %s = (and %y, SIGN)

These are the only integer operations on float bits that have a derivative:
the result is plus or minus the *magnitude source* (the operand whose
exponent and mantissa it keeps), so its derivative is the source's with the
sign flipped where the result's and the source's sign bits differ.  A result
that keeps only a sign bit (``x & SIGN``) is plus or minus zero: derivative
zero.  Type analysis and both AD modes share these predicates.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..ir import BinaryOperator, ConstantInt, Instruction, IntType, PhiInst, SelectInst, Value
from ..ir.types import FloatType

#: Integer widths that hold exactly one floating-point value, and that value's usual type.
FLOAT_OF_WIDTH = {16: FloatType("half"), 32: FloatType("float"), 64: FloatType("double")}
BITWISE = frozenset({"and", "or", "xor"})


def sign_bit(width: int) -> int:
    return 1 << (width - 1)


def constant_bits(v: Value, width: int) -> int | None:
    """The bits of an integer constant (two's complement, ``width`` bits), or None."""
    if isinstance(v, ConstantInt):
        return v.value & ((1 << width) - 1)
    return None


def is_sign_mask(c: int, width: int, opcode: str) -> bool:
    """Does ``opcode`` with constant ``c`` change at most the sign bit of the other operand?"""
    magnitude = sign_bit(width) - 1
    if opcode == "and":
        return c & magnitude in (0, magnitude)  # keep the magnitude (fabs, no-op) or only the sign
    return c & magnitude == 0  # or / xor: set or flip the sign bit (or nothing)


def sign_only(v: Value, width: int, depth: int = 0) -> bool:
    """Is every bit of ``v`` but the sign bit known to be zero (a float ``+0.0`` or ``-0.0``)?"""
    c = constant_bits(v, width)
    if c is not None:
        return c & (sign_bit(width) - 1) == 0
    if depth > 6:
        return False
    if isinstance(v, BinaryOperator):
        a, b = v.operands
        if v.opcode == "and":
            return sign_only(a, width, depth + 1) or sign_only(b, width, depth + 1)
        if v.opcode in ("or", "xor"):
            return sign_only(a, width, depth + 1) and sign_only(b, width, depth + 1)
        if v.opcode == "shl":
            return constant_bits(b, width) == width - 1
        return False
    if isinstance(v, SelectInst):
        return sign_only(v.operand(1), width, depth + 1) and sign_only(v.operand(2), width, depth + 1)
    if isinstance(v, PhiInst):
        return all(x is not v and sign_only(x, width, depth + 1) for x, _ in v.incoming)
    return False


@dataclass(frozen=True)
class SignOperation:
    """An and/or/xor that is a sign-bit operation on float bits.

    ``source`` is the operand whose magnitude the result keeps (its index in
    ``operands`` is ``index``); None when the result holds only a sign bit.
    """

    source: Value | None
    index: int = -1


def sign_operation(inst: Instruction) -> SignOperation | None:
    """What kind of sign-bit operation ``inst`` is, or None when it changes other bits too."""
    t = inst.type
    if inst.opcode not in BITWISE or not isinstance(t, IntType):
        return None
    width = t.bits
    if sign_only(inst, width):
        return SignOperation(None)
    ops = inst.operands
    for i, (x, y) in enumerate(((ops[0], ops[1]), (ops[1], ops[0]))):
        if inst.opcode in ("or", "xor") and sign_only(y, width):
            return SignOperation(x, i)
        c = constant_bits(y, width)
        if inst.opcode == "and" and c is not None and c | sign_bit(width) == (1 << width) - 1:
            return SignOperation(x, i)
    return None

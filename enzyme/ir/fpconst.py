"""Floating-point literals as LLVM spells them (decimal, or hexadecimal bit patterns)."""
from __future__ import annotations

import math
import struct


def parse_float(type_name: str, spelling: str) -> float:
    """The value of a literal of type ``type_name`` (exact for half/float/double)."""
    s = spelling
    if not s.startswith(("0x", "-0x")):
        return float(s)
    if s[2] in "HRKLM":
        tag, digits = s[2], int(s[3:], 16)
        if tag == "H":
            return struct.unpack("<e", digits.to_bytes(2, "little"))[0]
        if tag == "R":  # bfloat: the high half of an IEEE single
            return struct.unpack("<f", (digits << 16).to_bytes(4, "little"))[0]
        if tag == "K":  # x87 80-bit: sign, 15-bit exponent, 64-bit significand (explicit 1)
            sign = -1.0 if digits >> 79 else 1.0
            exp = (digits >> 64) & 0x7FFF
            mant = digits & ((1 << 64) - 1)
            if exp == 0x7FFF:
                return sign * math.inf if (mant << 1) & ((1 << 64) - 1) == 0 else math.nan
            return sign * math.ldexp(mant, exp - 16383 - 63)
        if tag == "L":  # IEEE quad, little detail lost in the conversion to double
            sign = -1.0 if digits >> 127 else 1.0
            exp = (digits >> 112) & 0x7FFF
            mant = digits & ((1 << 112) - 1)
            if exp == 0x7FFF:
                return sign * math.inf if mant == 0 else math.nan
            if exp == 0:
                return sign * math.ldexp(mant, -16382 - 112)
            return sign * math.ldexp(mant | (1 << 112), exp - 16383 - 112)
        # ppc_fp128: the sum of two doubles, high double in the low 64 bits as LLVM prints it
        hi = struct.unpack("<d", (digits & ((1 << 64) - 1)).to_bytes(8, "little"))[0]
        lo = struct.unpack("<d", (digits >> 64).to_bytes(8, "little"))[0]
        return hi + lo
    neg = s.startswith("-")
    bits = int(s[3:] if neg else s[2:], 16)
    v = struct.unpack("<d", bits.to_bytes(8, "little"))[0]
    return -v if neg else v


def spell_float(type_name: str, value: float) -> str:
    """An exact spelling of ``value`` (rounded to the type first)."""
    if type_name in ("double", "float"):
        if type_name == "float":
            value = struct.unpack("<f", struct.pack("<f", value))[0]
        bits = struct.unpack("<Q", struct.pack("<d", value))[0]
        return f"0x{bits:016X}"
    if type_name == "half":
        return f"0xH{struct.unpack('<H', struct.pack('<e', value))[0]:04X}"
    if type_name == "bfloat":
        return f"0xR{struct.unpack('<I', struct.pack('<f', value))[0] >> 16:04X}"
    if type_name == "x86_fp80":
        if value == 0.0:
            return "0xK" + ("8" if math.copysign(1.0, value) < 0 else "0") + "0" * 19
        if math.isinf(value):  # exponent all ones, explicit integer bit set, fraction zero
            return "0xK" + ("F" if value < 0 else "7") + "FFF8000000000000000"
        if not math.isfinite(value):
            raise ValueError("NaN x86_fp80 constants are spelled by LLVM only")
        m, e = math.frexp(abs(value))  # value = m * 2**e, 0.5 <= m < 1
        mant = int(m * (1 << 64))
        exp = e - 1 + 16383
        digits = ((1 if value < 0 else 0) << 79) | (exp << 64) | mant
        return f"0xK{digits:020X}"
    raise ValueError(f"cannot spell a {type_name} constant")

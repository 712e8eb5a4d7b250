"""Read the producer string of an LLVM bitcode file without LLVM.

LLVM writes an IDENTIFICATION block in front of the module block, holding a
producer string such as ``LLVM22.1.8`` (``APPLE_1_...`` for Apple's clang)
and a bitcode epoch.  Reading it ourselves lets us name the producing LLVM
version *before* LLVM 22 tries the file and fails with an obscure message.

Only the little of the bitstream container that the identification block
needs is implemented: abbreviation definitions, unabbreviated records, fixed,
VBR, char6 and array operands, and skipping whole blocks.  See
https://llvm.org/docs/BitCodeFormat.html for the format.
"""
from __future__ import annotations

import re
import struct
from dataclasses import dataclass

BITCODE_MAGIC = b"BC\xc0\xde"
# The wrapper header (used by Darwin toolchains) starts with 0x0B17C0DE, little endian.
WRAPPER_MAGIC = b"\xde\xc0\x17\x0b"

_IDENTIFICATION_BLOCK_ID = 13
_STRING_RECORD = 1  # IDENTIFICATION_CODE_STRING
_CHAR6 = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._"

# Builtin abbreviation ids of the bitstream.
_END_BLOCK, _ENTER_SUBBLOCK, _DEFINE_ABBREV, _UNABBREV_RECORD = 0, 1, 2, 3
# Operand encodings in an abbreviation definition.
_FIXED, _VBR, _ARRAY, _CHAR6_ENC, _BLOB = 1, 2, 3, 4, 5


class BitcodeFormatError(Exception):
    """The bytes start like bitcode but the container is malformed."""


def is_bitcode(data: bytes) -> bool:
    """True when ``data`` starts with the raw or wrapped bitcode magic."""
    return data.startswith((BITCODE_MAGIC, WRAPPER_MAGIC))


def unwrap(data: bytes) -> bytes:
    """Return the raw bitstream inside an optional 0x0B17C0DE wrapper."""
    if not data.startswith(WRAPPER_MAGIC):
        return data
    if len(data) < 20:
        raise BitcodeFormatError("truncated or corrupt bitcode (wrapper header cut short)")
    _magic, _version, offset, size = struct.unpack_from("<IIII", data)
    if offset + size > len(data):
        raise BitcodeFormatError("truncated or corrupt bitcode (wrapper size past end of file)")
    return data[offset:offset + size]


@dataclass(frozen=True)
class _Op:
    """One operand of an abbreviation definition."""

    kind: int  # 0 = literal, else one of the encodings
    value: int = 0  # literal value or fixed/VBR width


class _BitReader:
    """LSB-first bit reader over a byte string (LLVM's bit order)."""

    def __init__(self, data: bytes, bit: int = 0) -> None:
        self.data = data
        self.bit = bit

    @property
    def at_end(self) -> bool:
        return self.bit >= len(self.data) * 8

    def read(self, width: int) -> int:
        if width == 0:
            return 0
        end = self.bit + width
        if end > len(self.data) * 8:
            raise BitcodeFormatError("truncated or corrupt bitcode (unexpected end of file)")
        first, last = self.bit // 8, (end + 7) // 8
        chunk = int.from_bytes(self.data[first:last], "little")
        value = (chunk >> (self.bit % 8)) & ((1 << width) - 1)
        self.bit = end
        return value

    def read_vbr(self, width: int) -> int:
        high_bit = 1 << (width - 1)
        value, shift = 0, 0
        while True:
            piece = self.read(width)
            value |= (piece & (high_bit - 1)) << shift
            if not piece & high_bit:
                return value
            shift += width - 1
            if shift > 64:
                raise BitcodeFormatError("truncated or corrupt bitcode (VBR value too long)")

    def align32(self) -> None:
        self.bit = (self.bit + 31) // 32 * 32


def _read_abbrev(reader: _BitReader) -> list[_Op]:
    ops: list[_Op] = []
    for _ in range(reader.read_vbr(5)):
        if reader.read(1):
            ops.append(_Op(0, reader.read_vbr(8)))
            continue
        kind = reader.read(3)
        if kind in (_FIXED, _VBR):
            ops.append(_Op(kind, reader.read_vbr(5)))
        elif kind in (_ARRAY, _CHAR6_ENC, _BLOB):
            ops.append(_Op(kind))
        else:
            raise BitcodeFormatError(f"truncated or corrupt bitcode (unknown operand encoding {kind})")
    return ops


def _read_scalar(reader: _BitReader, op: _Op) -> int:
    if op.kind == 0:
        return op.value
    if op.kind == _FIXED:
        return reader.read(op.value)
    if op.kind == _VBR:
        return reader.read_vbr(op.value)
    if op.kind == _CHAR6_ENC:
        return ord(_CHAR6[reader.read(6)])
    raise BitcodeFormatError("truncated or corrupt bitcode (array or blob inside an array)")


def _read_abbreviated_record(reader: _BitReader, ops: list[_Op]) -> list[int]:
    values: list[int] = []
    index = 0
    while index < len(ops):
        op = ops[index]
        if op.kind == _ARRAY:
            if index + 1 >= len(ops):
                raise BitcodeFormatError("truncated or corrupt bitcode (array without element type)")
            count = reader.read_vbr(6)
            values.extend(_read_scalar(reader, ops[index + 1]) for _ in range(count))
            index += 2
            continue
        if op.kind == _BLOB:
            count = reader.read_vbr(6)
            reader.align32()
            values.extend(reader.read(8) for _ in range(count))
            reader.align32()
        else:
            values.append(_read_scalar(reader, op))
        index += 1
    return values


def _producer_in_identification_block(reader: _BitReader, abbrev_width: int) -> str | None:
    abbrevs: list[list[_Op]] = []
    while not reader.at_end:
        abbrev_id = reader.read(abbrev_width)
        if abbrev_id == _END_BLOCK:
            return None
        if abbrev_id == _ENTER_SUBBLOCK:
            raise BitcodeFormatError("truncated or corrupt bitcode (nested block in identification block)")
        if abbrev_id == _DEFINE_ABBREV:
            abbrevs.append(_read_abbrev(reader))
            continue
        if abbrev_id == _UNABBREV_RECORD:
            code = reader.read_vbr(6)
            values = [reader.read_vbr(6) for _ in range(reader.read_vbr(6))]
        else:
            if abbrev_id - 4 >= len(abbrevs):
                raise BitcodeFormatError(f"truncated or corrupt bitcode (undefined abbreviation {abbrev_id})")
            fields = _read_abbreviated_record(reader, abbrevs[abbrev_id - 4])
            if not fields:
                raise BitcodeFormatError("truncated or corrupt bitcode (empty record)")
            code, values = fields[0], fields[1:]
        if code == _STRING_RECORD:
            return "".join(chr(v) for v in values if 0 <= v < 0x110000)
    raise BitcodeFormatError("truncated or corrupt bitcode (identification block runs past end of file)")


def read_producer(data: bytes) -> str | None:
    """The producer string of the first IDENTIFICATION block, or None.

    ``data`` is a whole bitcode file (raw or wrapped).  Returns None for
    bitcode without an identification block (LLVM < 4 wrote none).  Raises
    BitcodeFormatError when the container itself is malformed.
    """
    stream = unwrap(data)
    if not stream.startswith(BITCODE_MAGIC):
        raise BitcodeFormatError("not LLVM bitcode (bad magic)")
    reader = _BitReader(stream, 32)
    top_level_abbrev_width = 2
    while len(stream) * 8 - reader.bit >= 32:
        abbrev_id = reader.read(top_level_abbrev_width)
        if abbrev_id != _ENTER_SUBBLOCK:
            # Only blocks may appear at top level; anything else is padding or junk.
            return None
        block_id = reader.read_vbr(8)
        abbrev_width = reader.read_vbr(4)
        reader.align32()
        length_words = reader.read(32)
        block_start = reader.bit
        if block_id == _IDENTIFICATION_BLOCK_ID:
            return _producer_in_identification_block(reader, abbrev_width)
        reader.bit = block_start + length_words * 32
        if reader.bit > len(stream) * 8:
            raise BitcodeFormatError("truncated or corrupt bitcode (block runs past end of file)")
    return None


_LLVM_PRODUCER = re.compile(r"^LLVM(\d+)\.(\d+)(?:\.(\d+))?")


def producer_llvm_version(producer: str) -> tuple[int, ...] | None:
    """``"LLVM22.1.8"`` -> ``(22, 1, 8)``; None for producers we cannot map (Apple)."""
    match = _LLVM_PRODUCER.match(producer)
    if match is None:
        return None
    return tuple(int(part) for part in match.groups() if part is not None)

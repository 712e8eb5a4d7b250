"""enzyme.llvm.parse and friends: formats, version checks, and error messages."""
from __future__ import annotations

import os
import struct
from pathlib import Path

import pytest

from enzyme import llvm
from enzyme.errors import IRError, IRParseError, LLVMVersionError, VerifyError
from enzyme.llvm.bitcode_header import producer_llvm_version, read_producer

SQUARE_LL = """\
%struct.pair = type { double, double }

define double @first(ptr %p) {
  %a = getelementptr inbounds %struct.pair, ptr %p, i64 0, i32 0
  %v = load double, ptr %a, align 8
  ret double %v
}
"""


class BitWriter:
    """LSB-first bit writer: crafts an IDENTIFICATION block the way LLVM lays it out."""

    def __init__(self) -> None:
        self.bits: list[int] = []

    def fixed(self, value: int, width: int) -> None:
        self.bits += [(value >> i) & 1 for i in range(width)]

    def vbr(self, value: int, width: int) -> None:
        payload = width - 1
        while True:
            chunk = value & ((1 << payload) - 1)
            value >>= payload
            self.fixed(chunk | ((1 << payload) if value else 0), width)
            if not value:
                return

    def align32(self) -> None:
        while len(self.bits) % 32:
            self.bits.append(0)

    def to_bytes(self) -> bytes:
        assert len(self.bits) % 8 == 0
        return bytes(sum(b << i for i, b in enumerate(self.bits[k:k + 8])) for k in range(0, len(self.bits), 8))


CHAR6 = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._"


def identification_block(producer: str) -> bytes:
    """The IDENTIFICATION block exactly as LLVM's BitcodeWriter lays it out.

    Abbreviation width 5: abbrev 4 = [literal 1 (STRING), array of char6], the
    producer record, abbrev 5 = [literal 2 (EPOCH), vbr6], the epoch record, END_BLOCK.
    """
    body = BitWriter()
    width = 5
    body.fixed(2, width)  # DEFINE_ABBREV
    body.vbr(3, 5)  # three operands
    body.fixed(1, 1), body.vbr(1, 8)  # literal record code 1
    body.fixed(0, 1), body.fixed(3, 3)  # array ...
    body.fixed(0, 1), body.fixed(4, 3)  # ... of char6
    body.fixed(4, width)  # STRING via abbrev 4
    body.vbr(len(producer), 6)
    for char in producer:
        body.fixed(CHAR6.index(char), 6)
    body.fixed(2, width)  # DEFINE_ABBREV
    body.vbr(2, 5)
    body.fixed(1, 1), body.vbr(2, 8)  # literal record code 2
    body.fixed(0, 1), body.fixed(2, 3), body.vbr(6, 5)  # vbr6
    body.fixed(5, width)  # EPOCH via abbrev 5
    body.vbr(0, 6)
    body.fixed(0, width)  # END_BLOCK
    body.align32()
    head = BitWriter()
    head.fixed(1, 2)  # ENTER_SUBBLOCK at top level (abbrev width 2)
    head.vbr(13, 8)  # IDENTIFICATION_BLOCK_ID
    head.vbr(width, 4)
    head.align32()
    head.fixed(len(body.bits) // 32, 32)
    return head.to_bytes() + body.to_bytes()


def with_producer(bitcode: bytes, producer: str) -> bytes:
    """Replace the identification block of a real bitcode file by one naming ``producer``.

    The module block stores absolute word offsets, so the new block must be
    exactly as long as the old one: use a producer string of the same length.
    """
    assert bitcode[:4] == b"BC\xc0\xde" and bitcode[4] & 0b11 == 1  # first thing: a block
    end = 12 + 4 * struct.unpack_from("<I", bitcode, 8)[0]
    block = identification_block(producer)
    assert len(block) == end - 4, "producer string of a different length would shift the module"
    return bitcode[:4] + block + bitcode[end:]


def test_parse_text_keeps_named_structs_across_fresh_contexts() -> None:
    first = llvm.parse(SQUARE_LL, name="pair.ll")
    again = llvm.parse(llvm.to_text(first), name="again.ll")
    # A shared context would have renamed the struct to %struct.pair.0 on the second parse.
    assert "%struct.pair = type { double, double }" in llvm.to_text(again)
    assert "struct.pair.0" not in llvm.to_text(again)


def test_parse_bitcode_and_round_trip(bitcode: dict[str, bytes]) -> None:
    mod = llvm.parse(bitcode["square.c"], name="square.bc")
    assert {f.name for f in mod.functions} >= {"square", "add"}
    assert llvm.to_bitcode(mod).startswith(b"BC\xc0\xde")
    assert llvm.parse(llvm.to_bitcode(mod)).get_function("square").name == "square"
    assert "define" in llvm.to_text(llvm.parse(llvm.to_text(mod).encode()))


def test_parse_file_detects_format_from_contents(tmp_path: Path, bitcode: dict[str, bytes]) -> None:
    misnamed = tmp_path / "really-bitcode.ll"
    misnamed.write_bytes(bitcode["square.c"])
    assert llvm.parse_file(misnamed).get_function("add").name == "add"
    with pytest.raises(IRError, match="cannot read .*missing.ll"):
        llvm.parse_file(tmp_path / "missing.ll")


def test_producer_of_clang_and_rustc_bitcode(bitcode: dict[str, bytes]) -> None:
    clang_producer = read_producer(bitcode["square.c"])
    rustc_producer = read_producer(bitcode["vsum.rs"])
    assert clang_producer is not None and clang_producer.startswith("LLVM22.")
    assert rustc_producer is not None and rustc_producer.startswith("LLVM22.") and "rust" in rustc_producer
    assert producer_llvm_version("LLVM17.0.6") == (17, 0, 6)
    assert producer_llvm_version("APPLE_1_1500.3.9.4_0") is None


def test_crafted_identification_block_is_real_bitcode(bitcode: dict[str, bytes]) -> None:
    # Guards the crafting helper: it rewrites clang's own block byte for byte, and LLVM accepts the result.
    original = read_producer(bitcode["square.c"])
    assert original is not None
    spliced = with_producer(bitcode["square.c"], original)
    assert spliced == bitcode["square.c"]
    spliced = with_producer(bitcode["square.c"], "LLVM22.0.0")
    assert read_producer(spliced) == "LLVM22.0.0"
    assert llvm.parse(spliced).get_function("square").name == "square"


def test_bitcode_from_other_llvm_major_is_refused(bitcode: dict[str, bytes]) -> None:
    old = with_producer(bitcode["square.c"], "LLVM17.0.6")
    with pytest.raises(LLVMVersionError, match=r"input.bc was produced by LLVM 17\.0\.6; pyenzyme needs LLVM 22.*clang-22"):
        llvm.parse(old, name="input.bc")


def test_wrapped_bitcode_is_accepted(bitcode: dict[str, bytes]) -> None:
    raw = bitcode["square.c"]
    wrapped = struct.pack("<5I", 0x0B17C0DE, 0, 20, len(raw), 0x01000007) + raw
    assert read_producer(wrapped).startswith("LLVM22.")
    assert llvm.parse(wrapped, name="wrapped.bc").get_function("add").name == "add"


def test_truncated_bitcode(bitcode: dict[str, bytes]) -> None:
    with pytest.raises(IRError, match=r"^short.bc: truncated or corrupt bitcode") as info:
        llvm.parse(bitcode["square.c"][:200], name="short.bc")
    assert "\n" not in str(info.value)


def test_random_bytes_are_not_ir() -> None:
    noise = bytes([0, 1, 2, 255, 254]) + os.urandom(64)
    with pytest.raises(IRError, match=r"^noise.bin: not LLVM bitcode or IR"):
        llvm.parse(noise, name="noise.bin")
    with pytest.raises(IRError, match="not LLVM bitcode or IR"):
        llvm.parse(b"\xff\xfe caf\xe9", name="latin1.ll")


def test_syntax_error_has_name_line_and_column() -> None:
    with pytest.raises(IRParseError) as info:
        llvm.parse("define i32 @f() {\n  ret i32 %nope\n}\n", name="bad.ll")
    message = str(info.value)
    assert message.startswith("bad.ll:2:")
    assert "nope" in message and "\n" not in message
    assert "typed pointers" not in message


def test_typed_pointer_ir_gets_a_version_hint() -> None:
    old = "define i32 @f(i32* %p) {\n  %x = load i32* %p\n  ret i32 %x\n}\n"
    with pytest.raises(IRParseError, match=r"old.ll:2:\d+: .*LLVM <= 14 \(typed pointers\); LLVM 22 IR is required"):
        llvm.parse(old, name="old.ll")


def test_verify_reports_llvm_verifier_text() -> None:
    broken = llvm.parse(
        "define i32 @f(i32 %a) {\n  %x = add i32 %a, %y\n  %y = add i32 %a, 1\n  ret i32 %x\n}\n", name="dom.ll"
    )
    with pytest.raises(VerifyError, match="dom.ll: LLVM verifier rejected the module: Instruction does not dominate"):
        llvm.verify(broken, name="dom.ll")
    llvm.verify(llvm.parse(SQUARE_LL))

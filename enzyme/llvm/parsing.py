"""Parse LLVM 22 textual IR or bitcode into llvmlite modules.

Every public parse gets a fresh LLVM context: named struct types are uniqued
per context, so re-parsing printed IR in a shared context would rename
``%struct.S`` to ``%struct.S.0``.  Linking is the exception: modules that are
linked together must share a context (see ``linking.py``).
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import llvmlite.binding as llvm

from enzyme.errors import IRError, IRParseError, LLVMVersionError
from enzyme.llvm.bitcode_header import (
    BitcodeFormatError,
    is_bitcode,
    producer_llvm_version,
    read_producer,
)
from enzyme.llvm.contexts import ContextOwner

REQUIRED_LLVM_MAJOR = 22


def bundled_llvm_version() -> tuple[int, ...]:
    """The version of the LLVM that llvmlite carries (major, minor, patch)."""
    return tuple(llvm.llvm_version_info)

# "<string>:3:18: error: expected comma after load's type"
_LLVM_DIAGNOSTIC = re.compile(r"^[^\n]*?:(\d+):(\d+): error: ([^\n]*)", re.MULTILINE)
# A pointer written as "<type>*": gone from IR since LLVM 15 (opaque pointers).
_TYPED_POINTER = re.compile(r"(?:\bi\d+|\bfloat|\bdouble|\bhalf|\bx86_fp80|%[-\w.$\"]+|[\]}>])\*")
# Bytes that never appear in textual IR: NUL and most C0 controls.
_BINARY_BYTES = re.compile(rb"[\x00-\x08\x0e-\x1f]")


def parse(data: bytes | str, *, name: str = "<input>") -> llvm.ModuleRef:
    """Parse bitcode (detected by its magic) or textual IR in a fresh context.

    >>> mod = parse("define i32 @one() {\\n  ret i32 1\\n}\\n", name="one.ll")
    >>> mod.get_function("one").name
    'one'
    """
    owner = ContextOwner()
    try:
        return parse_in_context(data, name=name, owner=owner)
    finally:
        owner.free_if_unused()  # frees the context at once if parsing failed


def parse_file(path: str | os.PathLike[str]) -> llvm.ModuleRef:
    """Parse a ``.ll`` or ``.bc`` file; the format is detected from the contents."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise IRError(f"cannot read {path}: {exc.strerror or exc}") from exc
    return parse(data, name=str(path))


def parse_in_context(data: bytes | str, *, name: str, owner: ContextOwner) -> llvm.ModuleRef:
    """Parse into the context of ``owner`` (``link`` parses all its inputs into one)."""
    if isinstance(data, bytes) and is_bitcode(data):
        mod = _parse_bitcode(data, name, owner.context)
    else:
        mod = _parse_text(_decode_text(data, name) if isinstance(data, bytes) else data, name, owner.context)
    owner.adopt(mod)
    if mod.name in ("", "<string>"):
        mod.name = name  # so later messages can say which input a module came from
    return mod


def _decode_text(data: bytes, name: str) -> str:
    if _BINARY_BYTES.search(data[:65536]):
        raise IRError(f"{name}: not LLVM bitcode or IR (binary data without the bitcode magic 'BC' 0xC0DE)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise IRError(f"{name}: not LLVM bitcode or IR (not UTF-8 text at byte {exc.start})") from exc


def _parse_text(text: str, name: str, context: llvm.ContextRef) -> llvm.ModuleRef:
    try:
        return llvm.parse_assembly(text, context)
    except RuntimeError as exc:
        raise IRParseError(_text_error_message(str(exc), text, name)) from None


def _text_error_message(llvm_message: str, text: str, name: str) -> str:
    match = _LLVM_DIAGNOSTIC.search(llvm_message)
    if match is None:
        first = next((line for line in llvm_message.splitlines()[1:] if line.strip()), llvm_message)
        message = f"{name}: {first.strip()}"
    else:
        line, column, what = match.groups()
        message = f"{name}:{line}:{column}: {what}"
    if _TYPED_POINTER.search(text):
        message += (
            " (looks like IR from LLVM <= 14 (typed pointers); LLVM 22 IR is required:"
            " regenerate it with clang-22 -S -emit-llvm)"
        )
    return message


def _parse_bitcode(data: bytes, name: str, context: llvm.ContextRef) -> llvm.ModuleRef:
    try:
        producer = read_producer(data)
    except BitcodeFormatError as exc:
        raise IRError(f"{name}: {exc}; regenerate the file") from None
    version = producer_llvm_version(producer) if producer else None
    if version is not None and version[0] != REQUIRED_LLVM_MAJOR:
        raise LLVMVersionError(
            f"{name} was produced by LLVM {'.'.join(map(str, version))}; pyenzyme needs LLVM "
            f"{REQUIRED_LLVM_MAJOR} bitcode — recompile with clang-{REQUIRED_LLVM_MAJOR}/"
            f"flang-{REQUIRED_LLVM_MAJOR} or a rustc built on LLVM {REQUIRED_LLVM_MAJOR}"
        )
    try:
        return llvm.parse_bitcode(data, context)
    except RuntimeError as exc:
        lines = [line.strip() for line in str(exc).splitlines()[1:] if line.strip()]
        detail = lines[0] if lines else "unknown error"
        made_by = f", produced by {producer}" if producer else ""
        raise IRError(f"{name}: truncated or corrupt bitcode ({detail}{made_by})") from None

"""Read what the linker would read: ELF objects, ``ar`` archives and bitcode files.

The link step of the compiler wrappers needs, per input, the bitcode it
carries (the ``.enzyme.bitcode`` section of an object made by ``enzyme-cc -c``,
the ``.llvmbc`` section of a ``clang -fembed-bitcode`` object, or a plain
bitcode file such as a ``clang -flto`` object) and the symbols it defines and references, to pick
archive members the way a linker does.  Pure Python: the formats are simple
and this avoids one subprocess per archive member.
"""
from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from enzyme.errors import UsageError

# Not clang's ".llvmbc": LLVM's object readers (llvm-nm, llvm-ar, binutils' LLVM
# plugin) take an object with .llvmbc for an LTO object and list the bitcode's
# symbols instead of the ELF ones; Debian's LLVM 14 plugin cannot read LLVM 22
# bitcode, so GNU ar and nm saw no symbols at all and wrote empty archive indexes.
BITCODE_SECTION = ".enzyme.bitcode"
# clang -fembed-bitcode objects carry theirs here; the link step reads them too.
CLANG_BITCODE_SECTION = ".llvmbc"
_ELF_MAGIC = b"\x7fELF"
_BITCODE_MAGICS = (b"BC\xc0\xde", b"\xde\xc0\x17\x0b")  # raw bitcode, bitcode wrapper
_ARCHIVE_MAGIC = b"!<arch>\n"
_THIN_ARCHIVE_MAGIC = b"!<thin>\n"
_ET_REL = 1
_SHT_SYMTAB = 2
_SHN_UNDEF = 0
_SHN_XINDEX = 0xFFFF
_STB_LOCAL = 0
_STB_WEAK = 2


@dataclass(frozen=True)
class ObjectFile:
    """One relocatable object (or bitcode file), possibly carrying bitcode.

    ``defined`` and ``undefined`` are its global symbols; for a bitcode file
    they are filled in later from the module (see ``link.py``).
    """

    name: str
    bitcode: bytes | None
    defined: frozenset[str] = frozenset()
    undefined: frozenset[str] = frozenset()
    is_pure_bitcode: bool = False


def is_bitcode(data: bytes) -> bool:
    return data[:4] in _BITCODE_MAGICS


def is_archive(data: bytes) -> bool:
    return data[:8] in (_ARCHIVE_MAGIC, _THIN_ARCHIVE_MAGIC)


def read_object(name: str, data: bytes) -> ObjectFile | None:
    """The object in ``data``, or None if it is no relocatable ELF object or bitcode file."""
    if is_bitcode(data):
        return ObjectFile(name, data, is_pure_bitcode=True)
    if data[:4] != _ELF_MAGIC:
        return None
    try:
        elf = _Elf(data)
        if elf.file_type != _ET_REL:
            return None  # a shared library or executable: the linker's business
        bitcode = elf.section_contents(BITCODE_SECTION) or elf.section_contents(CLANG_BITCODE_SECTION)
        defined, undefined = elf.global_symbols()
    except (struct.error, IndexError, ValueError) as exc:
        raise UsageError(f"{name}: malformed ELF object ({exc}); rebuild it") from None
    return ObjectFile(name, bitcode or None, frozenset(defined), frozenset(undefined))


def archive_members(path: Path, data: bytes) -> Iterator[tuple[str, bytes]]:
    """``(member name, contents)`` of every member of a GNU/BSD (or thin) ``ar`` archive, in order."""
    thin = data[:8] == _THIN_ARCHIVE_MAGIC
    long_names = b""
    offset = 8
    while offset + 60 <= len(data):
        header = data[offset:offset + 60]
        if header[58:60] != b"`\n":
            raise UsageError(f"{path}: malformed archive member header at byte {offset}; rebuild the archive")
        raw_name = header[:16].decode("latin-1").rstrip()
        size = int(header[48:58].decode("ascii").strip() or "0")
        start = offset + 60
        # Thin archives store only the symbol and name tables, not the members.
        stored = size if (not thin or raw_name in ("/", "//", "/SYM64/")) else 0
        body = data[start:start + stored]
        offset = start + stored + (stored & 1)  # members are 2-byte aligned
        if raw_name in ("/", "/SYM64/") or raw_name.startswith("__.SYMDEF"):
            continue  # symbol index
        if raw_name == "//":
            long_names = body
            continue
        name, body = _member_name(raw_name, body, long_names)
        if name.startswith("__.SYMDEF"):
            continue  # BSD symbol index under a long name
        if thin:
            member_path = Path(name) if Path(name).is_absolute() else path.parent / name
            try:
                body = member_path.read_bytes()
            except OSError as exc:
                raise UsageError(f"{path}: member {name} of the thin archive: {exc.strerror or exc}") from None
        yield name, body


def _member_name(raw: str, body: bytes, long_names: bytes) -> tuple[str, bytes]:
    if raw.startswith("#1/"):  # BSD: the name is the first bytes of the body
        length = int(raw[3:])
        return body[:length].rstrip(b"\0").decode("utf-8", "replace"), body[length:]
    if raw.startswith("/") and raw[1:].isdigit():  # GNU: offset into the long-name table
        start = int(raw[1:])
        end = long_names.find(b"\n", start)
        name = long_names[start:end if end >= 0 else len(long_names)].decode("utf-8", "replace")
        return name.rstrip("/"), body
    return raw.rstrip("/"), body


class _Elf:
    """Just enough of an ELF reader: section contents by name and the global symbol table."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        is64 = data[4] == 2
        self.endian = "<" if data[5] == 1 else ">"
        self.is64 = is64
        e = self.endian
        self.file_type = struct.unpack_from(e + "H", data, 16)[0]
        if is64:
            shoff, = struct.unpack_from(e + "Q", data, 0x28)
            shentsize, shnum, shstrndx = struct.unpack_from(e + "HHH", data, 0x3A)
        else:
            shoff, = struct.unpack_from(e + "I", data, 0x20)
            shentsize, shnum, shstrndx = struct.unpack_from(e + "HHH", data, 0x2E)
        self.sections: list[tuple[int, int, int, int, int, int]] = []  # name, type, offset, size, link, entsize
        if shoff == 0:
            return
        first = self._section_header(shoff)
        if shnum == 0:  # extended numbering: the count lives in section 0
            shnum = first[3]
        if shstrndx == _SHN_XINDEX:
            shstrndx = first[4]
        self.sections = [self._section_header(shoff + i * shentsize) for i in range(shnum)]
        self.shstrtab = self._contents(self.sections[shstrndx])

    def _section_header(self, at: int) -> tuple[int, int, int, int, int, int]:
        e = self.endian
        if self.is64:
            name, kind, _flags, _addr, offset, size, link, _info, _align, entsize = struct.unpack_from(
                e + "IIQQQQIIQQ", self.data, at)
        else:
            name, kind, _flags, _addr, offset, size, link, _info, _align, entsize = struct.unpack_from(
                e + "IIIIIIIIII", self.data, at)
        return name, kind, offset, size, link, entsize

    def _contents(self, section: tuple[int, int, int, int, int, int]) -> bytes:
        offset, size = section[2], section[3]
        if offset + size > len(self.data):
            raise ValueError("section extends past the end of the file")
        return self.data[offset:offset + size]

    def _name(self, section: tuple[int, int, int, int, int, int]) -> str:
        return _c_string(self.shstrtab, section[0])

    def section_contents(self, name: str) -> bytes | None:
        for section in self.sections:
            if self._name(section) == name:
                return self._contents(section)
        return None

    def global_symbols(self) -> tuple[set[str], set[str]]:
        defined: set[str] = set()
        undefined: set[str] = set()
        for section in self.sections:
            if section[1] != _SHT_SYMTAB:
                continue
            table = self._contents(section)
            names = self._contents(self.sections[section[4]])
            entsize = section[5] or (24 if self.is64 else 16)
            for at in range(entsize, len(table) - entsize + 1, entsize):  # entry 0 is the null symbol
                if self.is64:
                    name, info, _other, shndx = struct.unpack_from(self.endian + "IBBH", table, at)
                else:
                    name, _value, _size, info, _other, shndx = struct.unpack_from(self.endian + "IIIBBH", table, at)
                binding = info >> 4
                if binding == _STB_LOCAL or name == 0:
                    continue
                if shndx != _SHN_UNDEF:
                    defined.add(_c_string(names, name))
                elif binding != _STB_WEAK:  # a weak reference never makes a linker take an archive member
                    undefined.add(_c_string(names, name))
        return defined, undefined - defined


def _c_string(table: bytes, offset: int) -> str:
    end = table.find(b"\0", offset)
    return table[offset:end if end >= 0 else len(table)].decode("utf-8", "replace")

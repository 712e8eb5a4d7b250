"""Sizes, alignments and field offsets of IR types, from the module's ``target datalayout``.

Type analysis works in byte offsets (a load at ``getelementptr i8, ptr %s, i64 8``
reads field 1 of ``{i32, double}``), so it needs the same layout rules LLVM
uses.  Only what the analyses need is modelled: integer, float, pointer
(per address space), vector and aggregate alignment, and struct packing.

>>> dl = DataLayout.parse("e-m:e-i64:64-f80:128-n8:16:32:64-S128")
>>> from enzyme.ir import StructType, I32, DOUBLE
>>> dl.struct_offsets(StructType((I32, DOUBLE)))
[0, 8]
>>> dl.alloc_size(StructType((I32, DOUBLE)))
16
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from ..errors import IRError
from ..ir import ArrayType, FloatType, FunctionType, IntType, PointerType, StructType, Type, VectorType

#: What clang-22 writes for x86-64 Linux; used when a module has no datalayout.
X86_64_LAYOUT = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

# LLVM's defaults for specs a datalayout string leaves out (bits -> ABI alignment in bits).
_DEFAULT_INT_ALIGN = {1: 8, 8: 8, 16: 16, 32: 32, 64: 32}
_DEFAULT_FLOAT_ALIGN = {16: 16, 32: 32, 64: 64, 128: 128}
_DEFAULT_VECTOR_ALIGN = {64: 64, 128: 128}
_SPEC = re.compile(r"([ifv])(\d+):(\d+)(?::(\d+))?\Z")
_PTR_SPEC = re.compile(r"p(\d*):(\d+):(\d+)(?::(\d+))?(?::(\d+))?\Z")


@dataclass(frozen=True)
class StructLayout:
    """Byte offsets of a struct's fields, its allocation size and alignment."""

    offsets: tuple[int, ...]
    size: int
    align: int


@dataclass
class DataLayout:
    """A parsed ``target datalayout`` string (sizes in bytes unless a name says bits)."""

    text: str = ""
    little_endian: bool = True
    pointer_bits: dict[int, int] = field(default_factory=lambda: {0: 64})
    pointer_align_bits: dict[int, int] = field(default_factory=lambda: {0: 64})
    int_align_bits: dict[int, int] = field(default_factory=lambda: dict(_DEFAULT_INT_ALIGN))
    float_align_bits: dict[int, int] = field(default_factory=lambda: dict(_DEFAULT_FLOAT_ALIGN))
    vector_align_bits: dict[int, int] = field(default_factory=lambda: dict(_DEFAULT_VECTOR_ALIGN))
    aggregate_align_bits: int = 8
    _structs: dict[int, tuple[StructType, StructLayout]] = field(default_factory=dict, repr=False)

    # -- construction --------------------------------------------------------
    @classmethod
    def parse(cls, text: str | None) -> "DataLayout":
        """Parse a datalayout string; ``None`` or empty means x86-64 (clang's default target here)."""
        text = text or X86_64_LAYOUT
        dl = cls(text=text)
        if "f80" not in text:  # x87 long double: LLVM's fallback when a string omits it
            dl.float_align_bits[80] = 128
        for spec in text.split("-"):
            if not spec:
                continue
            if spec == "e" or spec == "E":
                dl.little_endian = spec == "e"
                continue
            m = _PTR_SPEC.match(spec)
            if m:
                space = int(m.group(1) or 0)
                dl.pointer_bits[space] = int(m.group(2))
                dl.pointer_align_bits[space] = int(m.group(3))
                continue
            m = _SPEC.match(spec)
            if m:
                table = {"i": dl.int_align_bits, "f": dl.float_align_bits, "v": dl.vector_align_bits}[m.group(1)]
                table[int(m.group(2))] = int(m.group(3))
                continue
            if spec.startswith("a") and ":" in spec:
                parts = spec[1:].split(":")
                abi = int(parts[1]) if len(parts) > 1 and parts[1] else 0
                dl.aggregate_align_bits = max(abi, 8)
            # m:, n, S, A, G, P, F, ni: do not affect sizes or offsets
        return dl

    @classmethod
    def of_module(cls, module: object) -> "DataLayout":
        """The layout of a :class:`enzyme.ir.Module` (its ``target datalayout``, else x86-64)."""
        return cls.parse(getattr(module, "datalayout", None))

    # -- queries ---------------------------------------------------------------
    def pointer_size(self, addrspace: int = 0) -> int:
        return self.pointer_bits.get(addrspace, self.pointer_bits.get(0, 64)) // 8

    def store_size(self, t: Type) -> int:
        """Bytes written by a store of ``t`` (no tail padding)."""
        if isinstance(t, IntType):
            return (t.bits + 7) // 8
        if isinstance(t, FloatType):
            return (t.bits + 7) // 8
        if isinstance(t, PointerType):
            return self.pointer_size(t.addrspace)
        if isinstance(t, VectorType):
            return (t.count * self._scalar_bits(t.element) + 7) // 8
        if isinstance(t, (ArrayType, StructType)):
            return self.alloc_size(t)
        return 0

    def alloc_size(self, t: Type) -> int:
        """Bytes between consecutive elements of ``t`` in an array (store size rounded to alignment)."""
        if isinstance(t, ArrayType):
            return t.count * self.alloc_size(t.element)
        if isinstance(t, StructType):
            return self.struct_layout(t).size
        size = self.store_size(t)
        a = self.abi_align(t)
        return (size + a - 1) // a * a if a else size

    def abi_align(self, t: Type) -> int:
        """ABI alignment in bytes."""
        if isinstance(t, IntType):
            return self._lookup(self.int_align_bits, t.bits) // 8
        if isinstance(t, FloatType):
            return self._lookup(self.float_align_bits, t.bits) // 8
        if isinstance(t, PointerType):
            return self.pointer_align_bits.get(t.addrspace, self.pointer_align_bits.get(0, 64)) // 8
        if isinstance(t, VectorType):
            bits = t.count * self._scalar_bits(t.element)
            if bits in self.vector_align_bits:
                return self.vector_align_bits[bits] // 8
            return max(1, 1 << max(0, math.ceil(math.log2(max(bits, 8) / 8))))
        if isinstance(t, ArrayType):
            return self.abi_align(t.element)
        if isinstance(t, StructType):
            return self.struct_layout(t).align
        return 1

    def struct_layout(self, t: StructType) -> StructLayout:
        cached = self._structs.get(id(t))
        if cached is not None and cached[0] is t:
            return cached[1]
        offsets, off, align = [], 0, 1 if t.packed else self.aggregate_align_bits // 8
        for e in t.elements:
            a = 1 if t.packed else self.abi_align(e)
            off = (off + a - 1) // a * a
            offsets.append(off)
            off += self.alloc_size(e)
            align = max(align, a)
        size = (off + align - 1) // align * align
        layout = StructLayout(tuple(offsets), size, align)
        self._structs[id(t)] = (t, layout)
        return layout

    def struct_offsets(self, t: StructType) -> list[int]:
        return list(self.struct_layout(t).offsets)

    def element_offset(self, t: Type, index: int) -> tuple[int, Type]:
        """Offset and type of element ``index`` of an aggregate or vector type."""
        if isinstance(t, StructType):
            return self.struct_layout(t).offsets[index], t.elements[index]
        if isinstance(t, (ArrayType, VectorType)):
            return index * self.alloc_size(t.element), t.element
        raise IRError(f"type {t} has no elements (index {index})")

    def scalar_leaves(self, t: Type, base: int = 0, max_offset: int = 1 << 20) -> list[tuple[int, Type]]:
        """``(byte offset, scalar type)`` of every scalar inside ``t`` (vectors count as arrays).

        Leaves past ``max_offset`` are left out (huge arrays would otherwise list every element).
        """
        out: list[tuple[int, Type]] = []
        self._leaves(t, base, max_offset, out)
        return out

    def _leaves(self, t: Type, base: int, limit: int, out: list[tuple[int, Type]]) -> None:
        if base > limit:
            return
        if isinstance(t, StructType):
            for off, e in zip(self.struct_layout(t).offsets, t.elements):
                self._leaves(e, base + off, limit, out)
        elif isinstance(t, (ArrayType, VectorType)):
            step = self.alloc_size(t.element)
            for i in range(t.count):
                if base + i * step > limit:
                    break
                self._leaves(t.element, base + i * step, limit, out)
        elif not isinstance(t, FunctionType):
            out.append((base, t))

    def _scalar_bits(self, t: Type) -> int:
        if isinstance(t, (IntType, FloatType)):
            return t.bits
        if isinstance(t, PointerType):
            return self.pointer_bits.get(t.addrspace, 64)
        return 8 * self.store_size(t)

    @staticmethod
    def _lookup(table: dict[int, int], bits: int) -> int:
        """LLVM's rule: the exact width, else the smallest larger one, else the largest."""
        if bits in table:
            return table[bits]
        larger = [w for w in table if w > bits]
        if larger:
            return table[min(larger)]
        return table[max(table)] if table else 8

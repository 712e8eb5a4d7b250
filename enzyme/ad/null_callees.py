"""Indirect calls through a slot that only ever holds null: never executed, so without a derivative.

Rust's ``Box<dyn Trait>`` drops its contents through the vtable's first slot, the type's ``drop_in_place``,
and rustc leaves that slot null for types with nothing to drop, guarding the call with a null check
(``if let Some(drop) = vtable.drop { drop(data) }``).  The call's arguments are active (the boxed model
holds parameters), and no function of its type may be address-taken at all, so it cannot be dispatched;
but when every vtable the callee can be loaded from holds null at that offset, the call never runs (calling
null is undefined behaviour) and is classified inactive (enzyme.ad.call_kinds): the primal keeps it, guarded.

>>> _text_bytes('c"\\\\00\\\\18A"')
b'\\x00\\x18A'
"""
from __future__ import annotations

from ..analysis.layout import DataLayout
from ..analysis.type_offsets import gep_offset
from ..ir import (
    CallInst,
    ConstantAggregate,
    ConstantExpr,
    ConstantKeyword,
    ConstantText,
    GEPInst,
    GlobalVariable,
    LoadInst,
    Module,
    PhiInst,
    PointerType,
    SelectInst,
    Value,
)
from ..ir.types import ArrayType, StructType, VectorType

_MAX_SOURCES = 16


def only_null_callee(module: Module, call: CallInst) -> bool:
    """Is ``call``'s callee a load, at one constant offset, from constant globals that all hold null there?"""
    callee = call.callee
    if not isinstance(callee, LoadInst):
        return False
    layout = DataLayout.of_module(module)
    places = _places(layout, callee.pointer, 0, set())
    if not places:
        return False
    for g, offset in places:
        if not g.is_constant or g.initializer is None or _null_at(layout, g.initializer, offset) is not True:
            return False
    return True


def _places(layout: DataLayout, p: Value, offset: int, seen: set[int]) -> list[tuple[GlobalVariable, int]] | None:
    """The (constant global, byte offset) pairs ``p`` may point to, or None if one is not known."""
    if id(p) in seen:
        return []
    seen.add(id(p))
    if isinstance(p, GlobalVariable):
        return [(p, offset)]
    if isinstance(p, (GEPInst, ConstantExpr)) and (not isinstance(p, ConstantExpr) or p.opcode == "getelementptr"):
        source = p.source_type
        indices = p.indices if isinstance(p, GEPInst) else p.operands[1:]
        base = p.pointer if isinstance(p, GEPInst) else p.operands[0]
        if source is None:
            return None
        const, strides = gep_offset(layout, source, list(indices))
        if strides:
            return None
        return _places(layout, base, offset + const, seen)
    if isinstance(p, (PhiInst, SelectInst)):
        values = [v for v, _ in p.incoming] if isinstance(p, PhiInst) else [p.operands[1], p.operands[2]]
        out: list[tuple[GlobalVariable, int]] = []
        for v in values:
            got = _places(layout, v, offset, seen)
            if got is None:
                return None
            out += got
            if len(out) > _MAX_SOURCES:
                return None
        return out
    return None


def _null_at(layout: DataLayout, c: Value, offset: int) -> bool | None:
    """Are the 8 bytes of constant ``c`` at ``offset`` a null pointer (None: not known)?"""
    t = c.type
    size = layout.alloc_size(t)
    if offset < 0 or offset + 8 > size:
        return None
    if isinstance(c, ConstantKeyword):
        return True if c.keyword in ("zeroinitializer", "null") else None
    if isinstance(c, ConstantText) and isinstance(t, ArrayType):
        data = _text_bytes(c.spelling)
        return None if data is None or len(data) < offset + 8 else not any(data[offset:offset + 8])
    if isinstance(c, ConstantAggregate):
        if isinstance(t, StructType):
            offsets = layout.struct_offsets(t)
        elif isinstance(t, (ArrayType, VectorType)):
            offsets = [k * layout.alloc_size(t.element) for k in range(len(c.elements))]
        else:
            return None
        for start, e in zip(offsets, c.elements):
            if start <= offset < start + layout.alloc_size(e.type):
                if isinstance(e.type, PointerType):
                    null = isinstance(e, ConstantKeyword) and e.keyword in ("null", "zeroinitializer")
                    return offset == start and null
                return _null_at(layout, e, offset - start)
    return None


def _text_bytes(spelling: str) -> bytes | None:
    """The bytes of a ``c"..."`` constant."""
    if not (spelling.startswith('c"') and spelling.endswith('"')):
        return None
    body, out, k = spelling[2:-1], bytearray(), 0
    while k < len(body):
        if body[k] == "\\":
            out.append(int(body[k + 1:k + 3], 16))
            k += 3
        else:
            out += body[k].encode()
            k += 1
    return bytes(out)

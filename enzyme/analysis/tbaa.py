"""Types from TBAA: ``!tbaa`` access tags name the scalar type a load or store touches.

Clang writes struct-path tags ``!{!base, !access, i64 offset}`` whose access
type node starts with the type's name (``!{!"double", !char, i64 0}``).  The
names map to concrete types; pointer names say what they point to
(``"p2 double"`` is a pointer to a pointer to double).  ``omnipotent char``
says nothing (char accesses may alias anything).  flang tags every field of its array descriptors
``"descriptor member"``: descriptors hold addresses and integers only, never floating-point data.

Aggregate copies (``llvm.memcpy`` of a struct) carry ``!tbaa.struct``: a list
of (offset, size, access tag) per field.  Clang lists every field (a union as
one ``char`` field over its size), so the bytes it does not list are padding.
"""
from __future__ import annotations

import re
import weakref
from dataclasses import dataclass

from ..ir import GEPInst, Instruction, LoadInst, Module, StoreInst, Value
from .layout import DataLayout
from .metadata import MDConst, MDRef, MDString, MetadataTable, metadata_table
from .type_offsets import gep_offset
from .type_tree import INTEGER, POINTER, ConcreteType, TypeTree, float_type

_FLOAT_NAMES = {
    "double": "double", "float": "float", "long double": "x86_fp80", "_Float16": "half", "__fp16": "half",
    "half": "half", "__bf16": "bfloat", "__float128": "fp128", "_Float128": "fp128",
}
#: The type of the tags enzyme.driver.field_tags gives integer struct fields in modules without TBAA (-O0).
FIELD_TYPE_NAME = "pyenzyme integer field"
_INT_NAMES = frozenset({
    FIELD_TYPE_NAME, "int", "long", "long long", "short", "bool", "_Bool", "__int128", "wchar_t", "char16_t", "char32_t",
    "char8_t", "unsigned int", "unsigned long", "unsigned long long", "unsigned short",
    "jtbaa_arraysize", "jtbaa_arraylen", "jtbaa_arrayflags",
})
_POINTER_NAMES = frozenset({"any pointer", "vtable pointer", "jtbaa_arrayptr"})
_FLANG_DESCRIPTOR = "descriptor member"


def type_of_name(name: str) -> list[ConcreteType] | None:
    """The chain of types a TBAA type name stands for: ``"p1 double"`` -> [Pointer, Float@double]."""
    if name in _FLOAT_NAMES:
        return [float_type(_FLOAT_NAMES[name])]
    if name in _INT_NAMES:
        return [INTEGER]
    if name in _POINTER_NAMES:
        return [POINTER]
    head, _, rest = name.partition(" ")
    if len(head) >= 2 and head[0] == "p" and head[1:].isdigit() and rest:
        depth = int(head[1:])
        inner = type_of_name(rest)
        return [POINTER] * depth + (inner or [])
    return None


def access_type_name(module: Module, tag_ref: str) -> str | None:
    """The scalar type name of a TBAA access tag (``!38`` -> ``"double"``)."""
    table = metadata_table(module)
    tag = table.node(tag_ref)
    if not tag:
        return None
    if isinstance(tag[0], MDString):  # old scalar format: the tag is the type node
        return tag[0].text
    if len(tag) < 2 or not isinstance(tag[1], MDRef):
        return None
    access = table.node(tag[1].ref)
    if not access:
        return None
    for op in access:  # the new format puts the name after parent and size
        if isinstance(op, MDString):
            return op.text
    return None


def access_base(inst: Instruction) -> tuple[str, int] | None:
    """The struct-path base type name and offset of an access's ``!tbaa`` tag (``("_ZTS4Cell", 8)``), if any."""
    ref = inst.get_metadata("tbaa")
    f = inst.function
    module = f.module if f is not None else None
    if ref is None or not isinstance(module, Module):
        return None
    tag = metadata_table(module).node(ref)
    if not tag or len(tag) < 3 or not isinstance(tag[0], MDRef) or not isinstance(tag[2], MDConst):
        return None
    base = metadata_table(module).node(tag[0].ref)
    name = next((op.text for op in base or () if isinstance(op, MDString)), None)
    offset = tag[2].int_value
    return (name, offset) if name is not None and offset is not None else None


def _tag_tree(module: Module, tag_ref: str, access_size: int) -> TypeTree | None:
    """The memory tree one access tag implies at offset 0 (integers cover every accessed byte)."""
    name = access_type_name(module, tag_ref)
    chain = type_of_name(name) if name is not None else None
    if not chain:
        return None
    tree = TypeTree()
    first = chain[0]
    if first.is_integer:
        for b in range(max(1, access_size)):
            tree.insert((b,), INTEGER)
        return tree
    path: tuple[int, ...] = (0,)
    tree.insert(path, first)
    for t in chain[1:]:  # pointee levels: every offset of the pointed-to memory
        path = path + (-1,)
        tree.insert(path, t)
    return tree


def access_tree(inst: Instruction, access_size: int) -> TypeTree | None:
    """The memory tree (offset 0 = the accessed address) a ``!tbaa`` attachment implies, if any."""
    ref = inst.get_metadata("tbaa")
    f = inst.function
    module = f.module if f is not None else None
    if ref is None or not isinstance(module, Module):
        return None
    if access_type_name(module, ref) == _FLANG_DESCRIPTOR:
        return _descriptor_member_tree(inst, access_size)
    tree = _tag_tree(module, ref, access_size)
    known = _known_parts_tree(module, ref)
    if known is None:
        return tree
    if tree is not None:
        known.join(tree)
    return known


# Library types whose layout is fixed and holds no floating-point data, by their TBAA (mangled) name:
# libstdc++'s std::basic_string of a character type with the standard traits and allocator (new ABI, LP64):
# the data pointer, the length, and a 16-byte union of the short-string buffer (characters) and the capacity.
# Clang describes that union as an untyped ``char`` member, and the union is copied as an i64 or a
# runtime-length memcpy when a string moves, so the accesses alone cannot tell its bytes are no float data.
_STRING_NAME = re.compile(r"_ZTSNSt7__cxx1112basic_stringI(c|w|Ds|Di|Du)St11char_traitsI\1ESaI\1EEE")
_STRING_SIZE = 32


def _known_layout(name: str) -> TypeTree | None:
    if not _STRING_NAME.fullmatch(name):
        return None
    tree = TypeTree()
    tree.insert((0,), POINTER)
    for b in range(8, _STRING_SIZE):
        tree.insert((b,), INTEGER)
    return tree


def _known_parts_tree(module: Module, tag_ref: str) -> TypeTree | None:
    """What a struct-path tag's base type says through the known library types it contains (a
    ``std::string`` member of a ``std::pair`` key, say), as a memory tree whose offset 0 is the accessed
    address: only the bytes from there on (the part before it is reached through the access's base pointer,
    where type analysis moves trees across the constant GEP).  None when it contains none."""
    table = metadata_table(module)
    tag = table.node(tag_ref)
    if not tag or len(tag) < 3 or not isinstance(tag[0], MDRef) or not isinstance(tag[2], MDConst):
        return None
    offset = tag[2].int_value
    if offset is None:
        return None
    cache = _KNOWN_PARTS.setdefault(table, {})
    base = tag[0].ref
    if base not in cache:
        found = TypeTree()
        _collect_known(table, base, 0, found, depth=0)
        cache[base] = found if found else None
    parts = cache[base]
    return parts.shifted(-offset, keep_wild=False) if parts is not None else None


_KNOWN_PARTS: weakref.WeakKeyDictionary[MetadataTable, dict[str, TypeTree | None]] = weakref.WeakKeyDictionary()


def _collect_known(table: MetadataTable, ref: str, at: int, out: TypeTree, depth: int,
                   regions: list[tuple[int, int]] | None = None) -> None:
    node = table.node(ref)
    if not node or not isinstance(node[0], MDString) or depth > 8:
        return
    known = _known_layout(node[0].text)
    if known is not None:
        out.join(known.shifted(at, keep_wild=False))
        if regions is not None:
            regions.append((at, at + _STRING_SIZE))
        return
    # An old-format struct type node: name, then (member type, offset) pairs.
    for k in range(1, len(node) - 1, 2):
        member, off = node[k], node[k + 1]
        if isinstance(member, MDRef) and isinstance(off, MDConst) and off.int_value is not None:
            _collect_known(table, member.ref, at + off.int_value, out, depth + 1, regions)


def _known_regions(module: Module, tag_ref: str) -> list[tuple[int, int]]:
    """The byte ranges (relative to the accessed address) of the known library objects a struct-path tag's
    base type holds; every byte of such an object is an integer or a pointer."""
    table = metadata_table(module)
    tag = table.node(tag_ref)
    if not tag or len(tag) < 3 or not isinstance(tag[0], MDRef) or not isinstance(tag[2], MDConst):
        return []
    offset = tag[2].int_value
    if offset is None:
        return []
    regions: list[tuple[int, int]] = []
    _collect_known(table, tag[0].ref, 0, TypeTree(), 0, regions)
    return [(lo - offset, hi - offset) for lo, hi in regions]


def no_float_extent(ptr: Value, layout: DataLayout) -> int:
    """How many bytes from ``ptr`` on certainly lie in known library objects without floating-point data (a
    ``std::string``'s short-string buffer: 16 bytes from its start), by the struct-path TBAA tags of the loads
    and stores through the same base pointer at constant offsets.  0 when none is known.  A copy of a
    run-time length within that extent moves no floats (the caller checks the length at run time)."""
    base, at = _constant_base(ptr, layout)
    module = getattr(getattr(base, "function", None), "module", None)
    if not isinstance(module, Module):
        return 0
    covered: set[int] = set()
    for q, c in _constant_derived(base, layout):
        for use in q.uses:
            user = use.user
            if not (isinstance(user, LoadInst) and use.index == 0) and \
                    not (isinstance(user, StoreInst) and use.index == 1):
                continue
            ref = user.get_metadata("tbaa")
            if ref is None:
                continue
            for lo, hi in _known_regions(module, ref):
                covered.update(range(c + lo, c + hi))
    n = 0
    while at + n in covered:
        n += 1
    return n


def _constant_base(ptr: Value, layout: DataLayout) -> tuple[Value, int]:
    at = 0
    while isinstance(ptr, GEPInst) and ptr.source_type is not None:
        const, strides = gep_offset(layout, ptr.source_type, list(ptr.operands[1:]))
        if strides:
            break
        at += const
        ptr = ptr.operand(0)
    return ptr, at


def _constant_derived(base: Value, layout: DataLayout) -> list[tuple[Value, int]]:
    """``base`` and the pointers computed from it by GEPs of constant offsets, with those offsets."""
    out: list[tuple[Value, int]] = [(base, 0)]
    k = 0
    while k < len(out) and len(out) < 256:
        v, c = out[k]
        k += 1
        for use in v.uses:
            g = use.user
            if isinstance(g, GEPInst) and use.index == 0 and g.source_type is not None:
                const, strides = gep_offset(layout, g.source_type, list(g.operands[1:]))
                if not strides:
                    out.append((g, c + const))
    return out


@dataclass(frozen=True)
class StructCopy:
    """What a ``!tbaa.struct`` attachment says about the bytes a copy moves: ``tree``, the typed
    fields (offset 0 = the start of the copy); ``padding``, the bytes below the copy's size that no field
    covers (fields with an ``omnipotent char`` tag, such as unions, are covered but untyped)."""

    tree: TypeTree
    padding: frozenset[int]


def struct_copy(inst: Instruction, nbytes: int) -> StructCopy | None:
    """The fields a copy of ``nbytes`` bytes moves by its ``!tbaa.struct`` (None: none, or not within the copy)."""
    ref = inst.get_metadata("tbaa.struct")
    f = inst.function
    module = f.module if f is not None else None
    if ref is None or not isinstance(module, Module):
        return None
    ops = metadata_table(module).node(ref)
    if not ops or len(ops) % 3 != 0:
        return None
    tree = TypeTree()
    padding = set(range(nbytes))
    for k in range(0, len(ops), 3):
        off_c, size_c, tag = ops[k], ops[k + 1], ops[k + 2]
        if not (isinstance(off_c, MDConst) and isinstance(size_c, MDConst) and isinstance(tag, MDRef)):
            return None
        off, size = off_c.int_value, size_c.int_value
        if off is None or size is None or off < 0 or size <= 0 or off + size > nbytes:
            return None  # a field outside the copy: the attachment no longer describes it
        padding -= set(range(off, off + size))
        for path, t in _tag_tree(module, tag.ref, size) or ():
            tree.insert((path[0] + off, *path[1:]), t)
    return StructCopy(tree, frozenset(padding))


def _descriptor_member_tree(inst: Instruction, access_size: int) -> TypeTree | None:
    """A flang descriptor field: an address when accessed as a pointer, an integer when accessed as an integer
    away from the descriptor's start.  flang reads and writes each field with its own type (the base address as
    ``ptr``); an integer access with no constant offset could still be the base address copied as an integer,
    so it says nothing."""
    from ..ir import ConstantInt, GEPInst, IntType, LoadInst, PointerType, StoreInst
    accessed = inst.type if isinstance(inst, LoadInst) else inst.operand(0).type if isinstance(inst, StoreInst) else None
    address = inst.operand(0) if isinstance(inst, LoadInst) else inst.operand(1)
    offset = address.operand(1) if isinstance(address, GEPInst) and len(address.operands) == 2 else None
    tree = TypeTree()
    if isinstance(accessed, IntType) and (accessed.bits < 64 or isinstance(offset, ConstantInt) and offset.value > 0):
        for b in range(max(1, access_size)):
            tree.insert((b,), INTEGER)
        return tree
    if isinstance(accessed, PointerType):
        tree.insert((0,), POINTER)
        return tree
    return None

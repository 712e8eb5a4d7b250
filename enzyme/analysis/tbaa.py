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

from dataclasses import dataclass

from ..ir import Instruction, Module
from .metadata import MDConst, MDRef, MDString, metadata_table
from .type_tree import INTEGER, POINTER, ConcreteType, TypeTree, float_type

_FLOAT_NAMES = {
    "double": "double", "float": "float", "long double": "x86_fp80", "_Float16": "half", "__fp16": "half",
    "half": "half", "__bf16": "bfloat", "__float128": "fp128", "_Float128": "fp128",
}
_INT_NAMES = frozenset({
    "int", "long", "long long", "short", "bool", "_Bool", "__int128", "wchar_t", "char16_t", "char32_t",
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
    return _tag_tree(module, ref, access_size)


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

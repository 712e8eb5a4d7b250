"""Integer fields of C/C++ structs tagged before the pre-AD optimization, in modules without TBAA.

At -O0 clang emits no ``!tbaa``; it does address each struct field with a GEP
of the struct's named type (``getelementptr %struct.Frame, ptr %f, i32 0, i32 1``)
and reads or writes it with the field's own IR type.  The pre-AD pipeline
folds those GEPs into byte offsets, and a field that the program only copies
and compares (``frame2->end = frame->end``) is then an ``i64`` of unknown
meaning to type analysis, which must refuse the copy: it could be a double's
bits.  A field whose declared IR type is an integer is no float: before the
pre-AD pipeline its loads and stores get an access tag whose type says so.

All these tags name one scalar type under a root of their own, so alias
analysis learns nothing from them (accesses with the same type node may alias,
as may accesses with none).  Only named ``struct.``/``class.`` types count:
unions (``union.``) overlay their members, and the literal struct types of
clang's argument coercion (``{ double, i64 }``) may carry floats in integers.
Vectors and ``i8`` are left alone (a byte access may be part of a copy of anything).
"""
from __future__ import annotations

from ..analysis.tbaa import FIELD_TYPE_NAME
from ..ir import ArrayType, ConstantInt, Function, GEPInst, IntType, LoadInst, Module, StoreInst, StructType, Type, Value
from ..ir.blocks import RawEntity
from ..ir.metadata import metadata_bodies
from ..ir.types import NamedStructType


def has_tbaa(module: Module) -> bool:
    return any(body.startswith('!{!"Simple C') or body.startswith('!{!"Flang') for body in metadata_bodies(module).values())


def tag_integer_fields(module: Module) -> int:
    """Tag the loads and stores of integer struct fields (see the module docstring); returns how many."""
    if has_tbaa(module):
        return 0
    accesses = [inst for f in module.functions if isinstance(f, Function) and not f.is_declaration
                for inst in f.instructions() if _integer_field_access(inst)]
    if not accesses:
        return 0
    bodies = metadata_bodies(module)
    first = 1 + max((int(k[1:]) for k in bodies if k[1:].isdigit()), default=-1)
    root, scalar, tag = (f"!{first + k}" for k in range(3))
    for line in (f'{root} = !{{!"{FIELD_TYPE_NAME}s"}}', f'{scalar} = !{{!"{FIELD_TYPE_NAME}", {root}, i64 0}}',
                 f"{tag} = !{{{scalar}, {scalar}, i64 0}}"):
        module.entities.append(RawEntity("metadata", line))
    for inst in accesses:
        inst.metadata.append(("tbaa", tag))
    return len(accesses)


def _integer_field_access(inst: object) -> bool:
    if isinstance(inst, LoadInst):
        accessed, ptr = inst.type, inst.pointer
    elif isinstance(inst, StoreInst):
        accessed, ptr = inst.value.type, inst.pointer
    else:
        return False
    if not isinstance(accessed, IntType) or accessed.bits < 16 or inst.get_metadata("tbaa") is not None:
        return False
    return isinstance(ptr, GEPInst) and _field_type(ptr.source_type, list(ptr.operands[1:])) == accessed


def _field_type(source: Type, indices: list[Value]) -> Type | None:
    """The type a GEP into a named C/C++ struct selects, through struct fields and array elements (None: not
    such a GEP, or through a union or literal struct)."""
    if not (isinstance(source, NamedStructType) and source.name.startswith(("struct.", "class."))) \
            or len(indices) < 2:
        return None
    t: Type = source
    for idx in indices[1:]:
        if isinstance(t, NamedStructType) and t.name.startswith(("struct.", "class.")) and not t.opaque:
            if not isinstance(idx, ConstantInt) or not 0 <= idx.value < len(t.elements):
                return None
            t = t.elements[idx.value]
        elif isinstance(t, ArrayType):
            t = t.element
        elif isinstance(t, StructType):
            return None  # a union, a literal or packed struct
        else:
            return None
    return t

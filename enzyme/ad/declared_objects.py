"""Copies of whole stack objects of a declared C/C++ struct type, typed from the declaration.

At -O0 clang builds a temporary (``Vec3 x0(...)``, a ``Particle`` aggregate) by calling constructors, so type
analysis of the function copying it often knows little about its bytes, and the objects may be indexed with
several record types (a ``Vec3`` copied into the ``pos`` field of a ``Particle``).  When one side of a copy is a
stack object whose declared type (a named struct without unions or byte arrays) is exactly as long as the copy,
its fields say what the bytes hold; the copy's layout is taken from them unless a type-analysis fact about
either pointer contradicts a field (``copy_types.checked_leaves``).  The same holds for the one record type a
standard-library template names (``std::__new_allocator<Particle>::construct<Particle, Particle>``) when the
copy is one whole record.
"""
from __future__ import annotations

import re

from ..analysis.layout import DataLayout
from ..analysis.type_offsets import gep_offset
from ..ir import AllocaInst, Argument, CastInst, ConstantInt, Function, GEPInst, Module, StructType, Value
from ..ir.types import I8
from ..ir.types import FloatType
from collections.abc import Sequence

from .copy_records import declared_scalars, template_records
from ..analysis import FunctionTypeInfo
from .copy_types import CopyLayout, checked_leaves


def declared_object_layout(infos: list[FunctionTypeInfo], dst: Value, src: Value, nbytes: int,
                           layout: DataLayout, candidates: Sequence[StructType]) -> CopyLayout | None:
    """The layout of a copy of ``nbytes`` bytes from or to a whole stack object of a declared struct type, or
    of one whole record of the type the enclosing standard-library template names."""
    types: list[StructType] = list(template_records(dst, candidates))
    for p in (src, dst):
        while isinstance(p, CastInst) and p.opcode in ("bitcast", "addrspacecast"):
            p = p.operand(0)
        if isinstance(p, AllocaInst) and p.count is None and isinstance(p.allocated_type, StructType):
            types.append(p.allocated_type)
    for t in types:
        if layout.alloc_size(t) != nbytes:
            continue
        declared = declared_scalars(t, layout)
        if not declared or not any(c.is_float for c in declared.values()):
            continue
        covered: set[int] = set()
        for off, c in declared.items():
            size = layout.alloc_size(FloatType(c.float_kind or "double")) if c.is_float else \
                layout.pointer_size() if c.is_pointer else 1
            covered.update(range(off, off + size))
        found = checked_leaves(infos, dst, src, nbytes, layout, declared, frozenset(range(nbytes)) - covered)
        if found is not None:
            return found
    return None


_CONSTRUCTOR = re.compile(r"^_ZN(\d+)")


def declared_integers(fn: Function, p: Value, nbytes: int, layout: DataLayout, module: Module) -> bool:
    """Are bytes [off, off + nbytes) of ``p`` -- the object (or the source object) of the constructor ``fn``
    of a class ``C`` (``C::C(C&&)`` at -O0 moves ``{int in, out;}`` as one ``i64``), at a constant offset
    ``off`` -- integers by ``C``'s declaration?"""
    m = _CONSTRUCTOR.match(fn.name or "")
    if m is None:
        return False
    start = m.end()
    name = (fn.name or "")[start:start + int(m.group(1))]
    if not (fn.name or "")[start + len(name):].startswith(("C1E", "C2E")):
        return False
    off = 0
    while isinstance(p, GEPInst) and p.source_type == I8 and len(p.indices) == 1 \
            and isinstance(p.indices[0], ConstantInt):
        off += p.indices[0].value
        p = p.operand(0)
    if not (isinstance(p, Argument) and p.function is fn and p.index in (0, 1)):
        return False
    for kind in ("class.", "struct."):
        t = module.struct_types.get(kind + name)
        if isinstance(t, StructType):
            declared = declared_scalars(t, layout, (off, off + nbytes))
            return declared is not None and all(declared.get(b) is not None and declared[b].is_integer
                                                for b in range(off, off + nbytes))
    return False


def declared_pointer_word(p: Value, nbytes: int, layout: DataLayout) -> bool:
    """Is the ``nbytes``-byte word at ``p`` a pointer field of a stack object of a declared struct type, at a
    constant offset?  At -O0 clang copies a one-pointer object (``__normal_iterator<double *>`` passed to
    ``std::__upper_bound``, a ``std::unique_ptr``) as an ``i64`` load and store between two such allocas: the
    word is the pointer, so its shadow is the shadow slot's word."""
    off = 0
    while True:
        if isinstance(p, CastInst) and p.opcode in ("bitcast", "addrspacecast"):
            p = p.operand(0)
        elif isinstance(p, GEPInst):
            o, strides = gep_offset(layout, p.source_type, list(p.indices))
            if strides:
                return False
            off += o
            p = p.operand(0)
        else:
            break
    if not (isinstance(p, AllocaInst) and p.count is None and isinstance(p.allocated_type, StructType)):
        return False
    declared = declared_scalars(p.allocated_type, layout, (off, off + nbytes))
    return declared is not None and nbytes == layout.pointer_size() and set(declared) == {off} \
        and declared[off].is_pointer

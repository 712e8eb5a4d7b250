"""realloc of a buffer mixing floats of one type with integers (see realloc.py for realloc in reverse mode).

``struct { int n, cap; double data[]; }`` grown with realloc, or records of doubles and integers without a
layout type analysis can give: the reverse sweep moves the adjoints of the copied prefix as if every aligned
slot of the float type were a float.  That is right because reverse mode never writes the shadow bytes of
integers (integer stores leave the shadow alone, memset's shadow is zeroed, copies move zero shadow bytes):
they are zero in both blocks, and adding zero to zero keeps them zero.  Conditions, else None (refused):

* every access of the buffer is in sight (no hidden accesses; the caller checks), none of a pointer;
* every float is accessed with an alignment of at least its size: heap blocks start at 16-byte
  boundaries, so each float fills one slot (a packed struct's double straddles two);
* no integer stored into it is an address (a pointer stored as an ``i64`` has an address as its shadow)
  or bytes type analysis does not know to be integers.
"""
from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from ..analysis import DataLayout
from ..ir import CallInst, LoadInst, Type, Value
from ..ir.types import FloatType, IntType, PointerType
from .common import address_origins
from .float_bits import is_integer_data

if TYPE_CHECKING:
    from .reverse_state import ReverseState


def floats_among_integers(gen: ReverseState, inst: CallInst, scalars: Collection[Type], indexed_as: Collection[Type],
                          stored_integers: Collection[Value], float_align: int) -> FloatType | None:
    """The float type whose slots the adjoints of the buffer ``inst`` reallocates move as (module doc), or None."""
    floats = {t for t in scalars if isinstance(t, FloatType)}
    if len(floats) != 1 or not all(isinstance(t, (FloatType, IntType)) for t in scalars):
        return None
    (t,) = floats
    layout = DataLayout.of_module(gen.m)
    size = layout.alloc_size(t)
    if float_align < size or size > 16:
        return None
    for rec in indexed_as:
        leaves = layout.scalar_leaves(rec, max_offset=4096)
        if any(isinstance(x, PointerType) or isinstance(x, FloatType) and (x != t or off % size) for off, x in leaves):
            return None
    for v in stored_integers:
        if address_origins(v, gen.maybe_shadowed) or v in gen.shadow or \
                isinstance(v, LoadInst) and not is_integer_data(gen.ctx, gen.fn, v):
            return None  # an address, or bytes type analysis cannot vouch for
    return t

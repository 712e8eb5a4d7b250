"""Rust's ``HashMap`` (hashbrown's ``RawTable``): which of its copies move control bytes only.

hashbrown keeps one allocation per table: the buckets (the ``(K, V)`` entries, floats among them) lie *below* the
control pointer, bucket ``i`` at ``ctrl - (i + 1) * size_of::<(K, V)>()``, and the control bytes (one ``u8`` per
bucket, plus a trailing group) at and above it.  The control pointer is the first field of the table.  Growing or
rehashing in place copies control bytes with ``memmove``/``memcpy`` between two non-negative offsets of the
same control pointer (``ctrl(0).copy_to(ctrl(Group::WIDTH), ...)``), a run-time number of bytes that type
analysis cannot type, because the same pointer also addresses the buckets (at negative offsets).  Such a copy
moves no float: its shadow copies nothing that matters, and its reverse has no adjoint to move.  The entries
themselves move as typed loads and stores, which the engine differentiates like any other.
"""
from __future__ import annotations

from ..ir import ConstantInt, Function, GEPInst, LoadInst, PhiInst, Value
from ..ir.types import I64, IntType

# hashbrown's raw table code, and std's HashMap methods it is inlined into (legacy and v0 manglings alike).
_HASHBROWN_RAW = ("9hashbrown3raw", "11collections4hash3map")


# Rust's hashing code: std::hash::random (RandomState, DefaultHasher), core::hash::sip (SipHasher13), the Hash
# impls of primitive types (core::hash::impls), Hasher's default methods and BuildHasher::hash_one.  f64 has no
# Hash impl, so every value these functions read, copy or compute is a key's integer bytes or hash state.
_HASHING = ("4hash6random", "4hash3sip", "4hash5impls", "4hash6Hasher", "4hash11BuildHasher8hash_one")


def hashing_code(fn: Function) -> bool:
    """Is ``fn`` Rust std's hashing code (integers only: its integer copies move no float)?"""
    name = fn.name or ""
    return any(tag in name for tag in _HASHING)


def control_byte_copy(fn: Function, dst: Value, src: Value) -> bool:
    """Is this copy, inside hashbrown's raw table code, between two non-negative byte offsets of one control
    pointer (a pointer loaded from a table)?"""
    if not any(tag in (fn.name or "") for tag in _HASHBROWN_RAW):
        return False
    a, b = _control_base(dst), _control_base(src)
    return a is not None and a is b


def control_byte_source(fn: Function, src: Value, size: Value | None) -> bool:
    """Does this copy read one group of control bytes (8 or 16 bytes at a probe position: a non-negative byte
    offset of a control pointer), in hashbrown's code or std's HashMap code it is inlined into?  Lookups copy a
    group to the stack; its tangent is zero, and the shadow control pointer of an empty table is null
    (``constant_contents``), so the shadow copy must not be made."""
    return any(tag in (fn.name or "") for tag in _HASHBROWN_RAW) \
        and isinstance(size, ConstantInt) and size.value in (8, 16) \
        and isinstance(src, (GEPInst, PhiInst)) and _control_base(src) is not None


def _control_base(p: Value, seen: set[Value] | None = None) -> Value | None:
    """The pointer ``p`` is at a non-negative byte offset of (bucket pointers are at negative ones), a pointer
    loaded from memory (the table's control pointer), or None.  A probe position carried around the probe loop
    (a phi of such offsets, or of itself) counts too."""
    seen = set() if seen is None else seen
    while isinstance(p, GEPInst):
        if not _non_negative_byte_offset(p):
            return None
        p = p.operands[0]
    if isinstance(p, PhiInst):
        if p in seen:
            return _LOOP
        seen.add(p)
        bases = {_control_base(v, seen) for v, _ in p.incoming}
        bases.discard(_LOOP)
        return bases.pop() if len(bases) == 1 and None not in bases else None
    return p if isinstance(p, LoadInst) else None


_LOOP = ConstantInt(I64, -1)  # a marker, never returned: the phi comes back to itself


def _non_negative_byte_offset(g: GEPInst) -> bool:
    """``getelementptr inbounds nuw i8, p, x`` (or a constant non-negative offset): bytes at or after ``p``."""
    if len(g.operands) != 2 or not (isinstance(g.source_type, IntType) and g.source_type.bits == 8):
        return False
    index = g.operands[1]
    if isinstance(index, ConstantInt):
        return index.value >= 0
    return "nuw" in g.flags

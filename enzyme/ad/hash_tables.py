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

from ..ir import CallInst, ConstantInt, Function, GEPInst, LoadInst, PhiInst, Value
from ..analysis.layout import DataLayout
from ..ir.types import ArrayType, FloatType, IntType, PointerType, StructType, Type
from .copy_types import CopyLayout

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
    a, b = _control_bases(dst), _control_bases(src)
    return bool(a) and a == b


def control_byte_source(fn: Function, src: Value, size: Value | None) -> bool:
    """Does this copy read one group of control bytes (8 or 16 bytes at a probe position: a non-negative byte
    offset of a control pointer), in hashbrown's code or std's HashMap code it is inlined into?  Lookups copy a
    group to the stack; its tangent is zero, and the shadow control pointer of an empty table is null
    (``constant_contents``), so the shadow copy must not be made."""
    return any(tag in (fn.name or "") for tag in _HASHBROWN_RAW) \
        and isinstance(size, ConstantInt) and size.value in (8, 16) \
        and isinstance(src, (GEPInst, PhiInst)) and bool(_control_bases(src))


def _control_bases(p: Value, seen: set[Value] | None = None) -> frozenset[Value] | None:
    """The pointers ``p`` is at a non-negative byte offset of (bucket pointers are at negative ones): pointers
    loaded from memory (the table's control pointer, reloaded in a loop or on several paths: a phi of such
    positions, or of itself) or allocated (``ctrl = alloc + ctrl_offset``), or None when ``p`` is anything else."""
    seen = set() if seen is None else seen
    while isinstance(p, GEPInst):
        if not _non_negative_byte_offset(p):
            return None
        p = p.operands[0]
    if isinstance(p, PhiInst):
        if p in seen:
            return frozenset()  # around the loop: adds nothing
        seen.add(p)
        out: set[Value] = set()
        for v, _ in p.incoming:
            found = _control_bases(v, seen)
            if found is None:
                return None
            out |= found
        return frozenset(out)
    if isinstance(p, (LoadInst, CallInst)) and isinstance(p.type, PointerType):
        return frozenset((p,))  # a table's control pointer, or a new table's allocation (its control bytes follow)
    return None


def _non_negative_byte_offset(g: GEPInst) -> bool:
    """``getelementptr inbounds nuw i8, p, x`` (or a constant non-negative offset): bytes at or after ``p``."""
    if len(g.operands) != 2 or not (isinstance(g.source_type, IntType) and g.source_type.bits == 8):
        return False
    index = g.operands[1]
    if isinstance(index, ConstantInt):
        return index.value >= 0
    return "nuw" in g.flags


def bucket_copy_layout(fn: Function, dst: Value, src: Value, nbytes: int | None,
                       layout: DataLayout) -> CopyLayout | None:
    """The layout of a copy of one whole entry between two buckets, inside hashbrown's raw table code (moving an
    entry while growing or rehashing in place): both ends are below control pointers (at negative or run-time
    offsets of pointers loaded from tables or allocated), and the entry type is the one struct type the function
    indexes control pointers with (``Bucket::from_base_index``: ``getelementptr {i64, double}, ptr %ctrl, i64
    %minus_index``), of exactly the copy's size.  None otherwise."""
    if nbytes is None or not any(tag in (fn.name or "") for tag in _HASHBROWN_RAW):
        return None
    if not all(_bucket_bases(p) for p in (dst, src)):
        return None
    records = {inst.source_type for inst in fn.instructions()
               if isinstance(inst, GEPInst) and isinstance(inst.source_type, StructType) and len(inst.operands) == 2
               and not isinstance(inst.operands[1], ConstantInt) and _control_bases(inst.operands[0])}
    if len(records) != 1:
        return None
    record = records.pop()
    if layout.alloc_size(record) != nbytes:
        return None
    leaves: list[tuple[int, FloatType]] = []
    pointers: list[int] = []
    if not _scalars(record, 0, layout, leaves, pointers):
        return None
    return CopyLayout(leaves=tuple(leaves), pointers=tuple(pointers))


def _bucket_bases(p: Value, below: bool = False, seen: set[Value] | None = None) -> frozenset[Value] | None:
    """The control pointers ``p`` is below: reached through at least one address step that is not a non-negative
    byte offset (control bytes are at those), through GEPs and phis, down to pointers loaded from memory or
    allocated (a new table's ``alloc + ctrl_offset``)."""
    seen = set() if seen is None else seen
    while isinstance(p, GEPInst):
        below = below or not _non_negative_byte_offset(p)
        p = p.operands[0]
    if isinstance(p, PhiInst):
        if p in seen:
            return frozenset()
        seen.add(p)
        out: set[Value] = set()
        for v, _ in p.incoming:
            found = _bucket_bases(v, below, seen)
            if found is None:
                return None
            out |= found
        return frozenset(out)
    if below and isinstance(p, (LoadInst, CallInst)) and isinstance(p.type, PointerType):
        return frozenset((p,))
    return None


def _scalars(t: Type, base: int, layout: DataLayout, leaves: list[tuple[int, FloatType]], pointers: list[int]) -> bool:
    """Collect the float leaves and pointers of ``t`` (integers, floats, pointers, structs and arrays of them)."""
    if isinstance(t, StructType) and not getattr(t, "opaque", False):
        return all(_scalars(e, base + off, layout, leaves, pointers)
                   for off, e in zip(layout.struct_layout(t).offsets, t.elements))
    if isinstance(t, ArrayType):
        step = layout.alloc_size(t.element)
        return all(_scalars(t.element, base + i * step, layout, leaves, pointers) for i in range(t.count))
    if isinstance(t, FloatType):
        leaves.append((base, t))
        return True
    if isinstance(t, PointerType):
        pointers.append(base)
        return True
    return isinstance(t, IntType)

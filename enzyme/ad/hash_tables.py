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

from ..ir import Instruction, AllocaInst, CallInst, CastInst, CmpInst, Constant, ConstantInt, StoreInst, Function, GEPInst, LoadInst, PhiInst, Value
from ..analysis.layout import DataLayout
from ..ir.types import ArrayType, FloatType, IntType, PointerType, StructType, Type, VectorType
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


def control_byte_source(fn: Function, dst: Value, src: Value, size: Value | None) -> bool:
    """Does this copy read one group of control bytes (8 or 16 bytes at a probe position: a non-negative byte
    offset of a control pointer, in hashbrown's code or std's HashMap code it is inlined into), or any 8 or 16
    bytes into a stack temporary that is only ever compared bytewise (a group loaded for ``match_byte``, in
    whatever function the probe loop was inlined into)?  Either moves no derivative, and the shadow copy must not
    be made: the shadow control pointer of an empty table is null (``constant_contents``)."""
    if not (isinstance(size, ConstantInt) and size.value in (8, 16)):
        return False
    if _compared_only(dst):
        return True
    return any(tag in (fn.name or "") for tag in _HASHBROWN_RAW) \
        and isinstance(src, (GEPInst, PhiInst)) and bool(_control_bases(src))


_MARKERS = ("llvm.lifetime.", "llvm.memcpy.", "llvm.memmove.")


def _compared_only(p: Value) -> bool:
    """Is ``p`` a stack slot whose contents are only read as byte vectors or integers that are only compared
    (``icmp``, or SSE2's ``pmovmskb`` of a comparison)?  Copies into it, zero stores and address comparisons
    aside, nothing else touches it."""
    if not isinstance(p, AllocaInst):
        return False
    for u in p.uses:
        user = u.user
        if isinstance(user, CallInst):
            if not (user.callee_name or "").startswith(_MARKERS) or (user.callee_name or "").startswith(
                    ("llvm.memcpy.", "llvm.memmove.")) and u.index != 0:
                return False
        elif isinstance(user, LoadInst):
            if not (_byte_vector(user.type) and all(isinstance(w.user, CmpInst) for w in user.uses)):
                return False
        elif isinstance(user, StoreInst):
            if u.index != 1 or not isinstance(user.value, Constant) or isinstance(user.value.type, FloatType):
                return False
        elif not isinstance(user, (CmpInst, CastInst)) or (isinstance(user, CastInst) and user.opcode != "ptrtoint"):
            return False
    return True


def _byte_vector(t: Type) -> bool:
    return isinstance(t, VectorType) and isinstance(t.element, IntType) and t.element.bits == 8


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


def bucket_integer_field(fn: Function, p: Value, nbytes: int, layout: DataLayout) -> bool:
    """Is ``p`` an integer field of ``nbytes`` bytes of a HashMap entry (``bucket_word``)?  An integer stored there
    (a key moved in from an ``Entry``, whose variants put a key and a pointer at the same place, or a key word
    of an entry swapped by an in-place rehash) is a key, never a float's bits: the entry type says so."""
    return isinstance(bucket_word(fn, p, nbytes, layout), IntType)


def bucket_word(fn: Function, p: Value, nbytes: int, layout: DataLayout) -> Type | None:
    """The type of the entry field ``p`` addresses with ``nbytes`` bytes, in hashbrown's or std's HashMap code,
    when ``p`` is a bucket address (below a control pointer by whole entries: ``ctrl - (i + 1) * size``, as
    ``Bucket::from_base_index`` or the byte offsets of an in-place rehash's swap compute it) plus a constant
    offset that lands on exactly one scalar field of the entry type; None otherwise."""
    if not any(tag in (fn.name or "") for tag in _HASHBROWN_RAW):
        return None
    record = _entry_type(fn)
    if record is None:
        return None
    size = layout.alloc_size(record)
    offset = 0
    below = False
    while isinstance(p, GEPInst) and len(p.operands) == 2:
        index = p.operands[1]
        t = p.source_type
        if isinstance(index, ConstantInt):
            offset += index.value * layout.alloc_size(t)
        elif t == record or (isinstance(t, IntType) and t.bits == 8 and _multiple_of(index, size)):
            below = True
        else:
            return None
        p = p.operands[0]
    if not below or not _control_bases(p):
        return None
    fields = _scalar_fields(record, 0, layout)
    return fields.get((offset % size, nbytes))


def _entry_type(fn: Function) -> Type | None:
    records = {inst.source_type for inst in fn.instructions()
               if isinstance(inst, GEPInst) and isinstance(inst.source_type, StructType) and len(inst.operands) == 2
               and not isinstance(inst.operands[1], ConstantInt) and _control_bases(inst.operands[0])}
    return records.pop() if len(records) == 1 else None


def _multiple_of(v: Value, n: int, depth: int = 4) -> bool:
    """Is the integer ``v`` a multiple of ``n`` (constants, shifts and products by them, their sums, negations)?"""
    if isinstance(v, ConstantInt):
        return v.value % n == 0
    if depth == 0 or not isinstance(v, Instruction):
        return False
    a, b = (list(v.operands) + [None, None])[:2]
    if v.opcode == "shl" and isinstance(b, ConstantInt):
        return (1 << b.value) % n == 0
    if v.opcode == "mul":
        return any(isinstance(x, ConstantInt) and x.value % n == 0 for x in (a, b))
    if v.opcode in ("add", "sub") and a is not None and b is not None:
        return _multiple_of(a, n, depth - 1) and _multiple_of(b, n, depth - 1)
    return False


def _scalar_fields(t: Type, base: int, layout: DataLayout) -> dict[tuple[int, int], Type]:
    """(offset, size) -> type of every scalar field of ``t``."""
    if isinstance(t, StructType):
        out: dict[tuple[int, int], Type] = {}
        for off, e in zip(layout.struct_layout(t).offsets, t.elements):
            out.update(_scalar_fields(e, base + off, layout))
        return out
    if isinstance(t, ArrayType):
        step = layout.alloc_size(t.element)
        out = {}
        for i in range(t.count):
            out.update(_scalar_fields(t.element, base + i * step, layout))
        return out
    if isinstance(t, (IntType, FloatType, PointerType)):
        return {(base, layout.store_size(t)): t}
    return {}

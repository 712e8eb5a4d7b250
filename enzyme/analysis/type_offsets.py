"""Offsets in type trees: GEPs, loads and stores, aggregates, constants.

The pure functions type analysis is built from: what an IR type alone says
(:func:`ir_type_tree`), how a GEP moves a pointee tree, and how a value's tree
maps onto the bytes it is stored to (and back).  Trees of constants and
globals, which need a function's trees, are in :mod:`enzyme.analysis.type_info`.
"""
from __future__ import annotations

from math import gcd

from ..ir import ConstantExpr, ConstantInt, GlobalVariable, IntType, Type, Value
from ..ir.types import ArrayType, FloatType, PointerType, StructType, VectorType
from .layout import DataLayout
from .type_tree import INTEGER, MAX_OFFSET, POINTER, ConcreteType, TypeTree, float_type


def gep_offset(layout, source_type: Type, indices: list[Value]) -> tuple[int, list[int]]:
    """Constant byte offset of a GEP and the strides of its variable indices."""
    const, strides = 0, []
    t: Type = source_type
    for n, idx in enumerate(indices):
        if n == 0:
            step, nxt = layout.alloc_size(t), t
        elif isinstance(t, StructType):
            k = idx.value if isinstance(idx, ConstantInt) else 0
            off, nxt = layout.element_offset(t, k)
            const += off
            t = nxt
            continue
        elif isinstance(t, (ArrayType, VectorType)):
            step, nxt = layout.alloc_size(t.element), t.element
        else:
            break
        if isinstance(idx, ConstantInt):
            const += step * idx.value
        elif step:
            strides.append(step)
        t = nxt
    return const, strides


def gep_inner_bounds(layout, source_type: Type, indices: list[Value]) -> list[tuple[int, int]]:
    """(stride, count) of each variable index into an array inside the pointee (not the first index):
    ``getelementptr %struct.Cell, ptr %c, i64 0, i32 0, i64 %q`` reaches only ``nbr[0..3]``, not every byte."""
    out: list[tuple[int, int]] = []
    t: Type = source_type
    in_record = False  # arrays of arrays are arrays of their scalars: a wildcard says it all
    for n, idx in enumerate(indices):
        if n == 0:
            continue
        if isinstance(t, StructType):
            t = layout.element_offset(t, idx.value if isinstance(idx, ConstantInt) else 0)[1]
            in_record = True
        elif isinstance(t, (ArrayType, VectorType)):
            if not isinstance(idx, ConstantInt) and in_record and layout.alloc_size(t.element):
                out.append((layout.alloc_size(t.element), t.count))
            t = t.element
        else:
            break
    return out


#: Most element offsets a GEP's bounded variable indices are expanded to (beyond: no facts for the base).
MAX_BOUNDED_PLACES = 256


def _concrete_window(mem: TypeTree, stride: int) -> TypeTree:
    """Offsets [0, stride) of ``mem`` with its ``-1`` entries written out over the window (nothing wild)."""
    out = mem.shifted(0, 0, stride, keep_wild=False)
    wild = mem.get((-1,))
    if wild is None or any(len(p) == 1 and p[0] != -1 and t != wild for p, t in mem):
        return out  # no wildcard, or one that some byte contradicts: only the specific entries hold
    step = 1 if wild.is_integer else _scalar_size(wild)
    if step and stride % step == 0:
        for p, t in mem:
            if p[0] == -1:
                for q in range(0, stride, step):
                    if out.get((q, *p[1:])) is None:
                        out.insert((q, *p[1:]), t)
    return out


def gep_backward_bounded(result: TypeTree, const: int, strides: list[int],
                         bounded: list[tuple[int, int]]) -> TypeTree:
    """:func:`gep_backward` for a GEP with variable indices into arrays inside the pointee: the element
    facts hold at each element those indices can reach, and nowhere else (a ``-1`` entry on the base would
    claim the whole object, the ``double`` fields next to an ``int nbr[4]`` included)."""
    inner = list(strides)
    for stride, _ in bounded:
        inner.remove(stride)
    g = 0
    for stride, _ in bounded:
        g = gcd(g, stride)
    elem = _concrete_window(result.pointee(), g)
    places = [const]
    for stride, count in bounded:
        places = [p + k * stride for p in places for k in range(count)]
        if len(places) > MAX_BOUNDED_PLACES:
            return TypeTree().under(-1)  # too many to write out: say nothing about the pointee
    back = TypeTree()
    for place in places:
        back.join(elem.shifted(place, keep_wild=False))
    if inner:  # and an index over whole elements of the base, as gep_backward
        g0 = 0
        for stride in inner:
            g0 = gcd(g0, stride)
        if max(places) + g <= g0:
            back = _window(back, 0, g0)
    return back.under(-1)


def _window(mem: TypeTree, start: int, stride: int) -> TypeTree:
    """One array element of ``mem``: offsets [start, start+stride) moved to 0, wildcards kept.

    If the element is one scalar filling the whole stride (an array of doubles,
    of pointers, of integers) it stands for every element: offset -1.
    """
    win = mem.shifted(-start, 0, stride)
    specific = {p: t for p, t in win if p[0] != -1}
    firsts = {p[0] for p in specific}
    if not specific:
        return win
    top0 = win.get((0,))
    uniform = False
    if firsts == {0} and top0 is not None and not top0.is_integer:
        uniform = _scalar_size(top0) == stride
    elif top0 is not None and top0.is_integer and stride > 1 and firsts == set(range(stride)):
        # (Not a 1-byte stride: an i8 GEP by a computed byte count is pointer arithmetic, not a char array;
        # an integer at its first byte says nothing about the bytes around it.)
        uniform = all(t.is_integer for p, t in specific.items() if len(p) == 1)
    if not uniform:
        return win
    out = TypeTree()
    for p, t in win:
        out.insert((-1, *p[1:]), t)
    return out


def _scalar_size(t) -> int:
    if t.is_pointer:
        return 8
    if t.is_float:
        return {"half": 2, "bfloat": 2, "float": 4, "double": 8, "x86_fp80": 16, "fp128": 16,
                "ppc_fp128": 16}.get(t.float_kind or "", 0)
    return 0


def gep_forward(base: TypeTree, const: int, strides: list[int]) -> TypeTree:
    """Tree of a GEP result from its base pointer's tree."""
    mem = base.pointee()
    if strides:
        g = 0
        for s in strides:
            g = gcd(g, s)
        res = _window(mem, const, g)
    else:
        res = mem.shifted(-const)
    out = res.under(-1)
    return out


def gep_backward(result: TypeTree, const: int, strides: list[int], record: Type | None = None,
                 layout: DataLayout | None = None) -> TypeTree:
    """What a GEP result's tree says about its base pointer's tree.

    ``record``: the GEP's source type when an index is variable.  A wildcard of the result (``int *nbr``
    indexed as an array) does not hold for a base indexed as an array of a record with other fields
    (``{int nbr[4]; double u;}``): it is not carried back there."""
    mem = result.pointee()
    if strides and record is not None and layout is not None and _contradicts_record(mem.get((-1,)), record, layout):
        mem = TypeTree([(p, t) for p, t in mem if p[0] != -1])
    if strides:
        g = 0
        for s in strides:
            g = gcd(g, s)
        win = _window(mem, 0, g)
        back = win.shifted(const, keep_wild=(const == 0))
    else:
        back = mem.shifted(const, keep_wild=(const == 0))
    return back.under(-1)


def _contradicts_record(wild: ConcreteType | None, record: Type, layout: DataLayout) -> bool:
    """Does the struct type ``record`` declare a field of another kind than the wildcard ``wild``?"""
    if wild is None or wild.is_anything or not isinstance(record, StructType):
        return False
    for _, leaf in layout.scalar_leaves(record, max_offset=MAX_OFFSET):
        if isinstance(leaf, FloatType):
            if not (wild.is_float and wild.float_kind == leaf.kind):
                return True
        elif isinstance(leaf, PointerType):
            if not wild.is_pointer:
                return True
        elif not wild.is_integer:
            return True
    return False


def value_to_memory(layout: DataLayout, vt: TypeTree, ty: Type) -> TypeTree:
    """A value's tree as the memory tree at the address it is stored to."""
    pairs: list[tuple[tuple[int, ...], ConcreteType]] = []
    leaves = layout.scalar_leaves(ty, max_offset=MAX_OFFSET)
    for path, ct in vt:
        first, rest = path[0], path[1:]
        targets: list[tuple[int, Type | None]] = list(leaves) if first == -1 else (
            [lf for lf in leaves if lf[0] == first] or [(first, None)])
        for off, leaf in targets:
            if rest:
                pairs.append(((off, *rest), ct))
            elif (ct.is_integer or ct.is_anything) and leaf is not None:
                pairs += [((off + b,), ct) for b in range(max(1, layout.store_size(leaf)))]
            else:
                pairs.append(((off,), ct))
    return TypeTree.from_pairs(pairs)


def memory_to_value(layout: DataLayout, mem: TypeTree, ty: Type) -> TypeTree:
    """The tree of a value of type ``ty`` loaded from memory with tree ``mem``."""
    if not mem:
        return TypeTree()
    aggregate = isinstance(ty, (StructType, ArrayType, VectorType))
    by_first: dict[int, list] = {}
    for path, ct in mem:
        by_first.setdefault(path[0], []).append((path[1:], ct))
    wild = by_first.get(-1, [])
    pairs = []
    for off, _leaf in layout.scalar_leaves(ty, max_offset=MAX_OFFSET):
        first = off if aggregate else -1
        pairs += [((first, *rest), ct) for rest, ct in wild + by_first.get(off, [])]
    out = TypeTree.from_pairs(pairs)
    if isinstance(ty, (ArrayType, VectorType)):
        out = collapse_homogeneous(out, layout.alloc_size(ty.element))
    return out


def sub_value(agg: TypeTree, off: int, size: int, ty: Type) -> TypeTree:
    """The part [off, off+size) of an aggregate value's tree, as a value of type ``ty``."""
    scalar = not isinstance(ty, (StructType, ArrayType, VectorType))
    out = TypeTree()
    for p, t in agg:
        if p[0] == -1:
            out.insert(p, t)
        elif off <= p[0] < off + size:
            first = -1 if scalar and p[0] == off else p[0] - off
            if scalar and first != -1:
                continue
            out.insert((first, *p[1:]), t)
    return out


def place_value(layout: DataLayout, vt: TypeTree, off: int, ty: Type) -> TypeTree:
    """A value's tree placed at byte ``off`` of an enclosing aggregate value."""
    scalar = not isinstance(ty, (StructType, ArrayType, VectorType))
    out = TypeTree()
    for p, t in vt:
        if p[0] == -1:
            if scalar:
                out.insert((off, *p[1:]), t)
            else:
                step = layout.alloc_size(ty.element) if isinstance(ty, (ArrayType, VectorType)) else 0
                count = ty.count if isinstance(ty, (ArrayType, VectorType)) else 0
                for k in range(min(count, 256)):
                    out.insert((off + k * step, *p[1:]), t)
        else:
            out.insert((off + p[0], *p[1:]), t)
    return out

# -- calls ------------------------------------------------------------------------------


def ir_type_tree(t: Type, layout: DataLayout, *, integers: bool = False) -> TypeTree:
    """What an IR type alone says about a value: floats, pointers, ``i1`` (all integers with ``integers``)."""
    tree = TypeTree()
    if isinstance(t, (FloatType, PointerType, IntType)):
        ct = _scalar_type(t, integers)
        if ct is not None:
            tree.insert((-1,), ct)
        return tree
    if isinstance(t, (VectorType, ArrayType)):
        elem = t.element
        if isinstance(elem, (FloatType, PointerType, IntType)):
            ct = _scalar_type(elem, integers)
            if ct is not None:
                tree.insert((-1,), ct)
            return tree
    if isinstance(t, (VectorType, ArrayType, StructType)):
        for off, leaf in layout.scalar_leaves(t, max_offset=MAX_OFFSET):
            ct = _scalar_type(leaf, integers)
            if ct is not None:
                tree.insert((off,), ct)
    if isinstance(t, StructType) and not integers:
        _descriptor_fields(t, layout, 0, tree)
    return tree


def _descriptor_fields(t: StructType, layout: DataLayout, base: int, tree: TypeTree) -> None:
    """The integer fields of flang array descriptors nested in a struct (a derived type's allocatable
    components), which flang fills by copying a constant whose integers alone say nothing."""
    for index, offset in enumerate(layout.struct_offsets(t)):
        element = t.elements[index]
        if base + offset > MAX_OFFSET:
            return
        if is_array_descriptor(element):
            for off, leaf in layout.scalar_leaves(element, base + offset, max_offset=MAX_OFFSET):
                if isinstance(leaf, IntType):
                    tree.insert((off,), INTEGER)
        elif isinstance(element, StructType):
            _descriptor_fields(element, layout, base + offset, tree)


# flang's array descriptor (CFI_cdesc_t): base address, element length, version, rank, type code, attribute,
# extra byte, then per dimension (lower bound, extent, byte stride).  Every field but the base is an integer.
_DESCRIPTOR_HEAD = ("ptr", "i64", "i32", "i8", "i8", "i8", "i8")


def is_array_descriptor(t: Type) -> bool:
    """Is ``t`` the layout of a flang array descriptor (``{ ptr, i64, i32, i8, i8, i8, i8, [r x [3 x i64]] }``)?

    Fortran code copies descriptors whole (memcpy of 24 + 24·rank bytes) and fills most fields with
    constants, which alone say nothing about their type; the layout does.
    """
    if not isinstance(t, StructType) or t.packed or tuple(map(str, t.elements[:7])) != _DESCRIPTOR_HEAD:
        return False
    rest = t.elements[7:]
    return not rest or (len(rest) == 1 and isinstance(rest[0], ArrayType) and str(rest[0].element) == "[3 x i64]")


def _scalar_type(t: Type, integers: bool) -> ConcreteType | None:
    if isinstance(t, FloatType):
        return float_type(t.kind)
    if isinstance(t, PointerType):
        return POINTER
    if isinstance(t, IntType) and (t.bits == 1 or integers):
        return INTEGER
    return None


def globals_in(v: Value) -> list[GlobalVariable]:
    if isinstance(v, GlobalVariable):
        return [v]
    if isinstance(v, ConstantExpr):
        out: list[GlobalVariable] = []
        for o in v.operands:
            out += globals_in(o)
        return out
    return []


def wild_only(t: TypeTree) -> TypeTree:
    return TypeTree([(p, c) for p, c in t if p[0] == -1])


def outside(t: TypeTree, off: int, size: int) -> TypeTree:
    return TypeTree([(p, c) for p, c in t if p[0] == -1 or not off <= p[0] < off + size])


def offset_pointer(t: TypeTree, delta: int | None) -> TypeTree:
    """``ptr + delta`` as integers (ptrtoint arithmetic): a pointer, pointee moved when delta is known."""
    out = TypeTree({(-1,): POINTER})
    mem = t.pointee()
    moved = mem.shifted(-delta) if delta is not None else wild_only(mem)
    out.join(moved.under(-1))
    return out


def collapse_homogeneous(t: TypeTree, step: int) -> TypeTree:
    """An array/vector value tree whose elements all agree becomes one ``-1`` entry per path."""
    firsts = {p[0] for p, _ in t}
    if not firsts or -1 in firsts and len(firsts) == 1:
        return t
    by_first: dict[int, list] = {}
    for p, c in t:
        by_first.setdefault(p[0], []).append((p[1:], c))
    shapes = {tuple(v) for k, v in by_first.items() if k != -1}
    if len(shapes) != 1:
        return t
    out = TypeTree()
    for rest, c in next(iter(shapes)):
        out.insert((-1, *rest), c)
    for rest, c in by_first.get(-1, []):
        out.insert((-1, *rest), c)
    return out

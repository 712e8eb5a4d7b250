"""What a memcpy/memmove copies, from type analysis: which bytes are floating-point data.

The reverse of ``dst[:n] = src[:n]`` moves the destination's adjoints back
into the source, which needs the floating-point layout of the copied bytes.
When the function itself does not access the memory with one float type
(``S t = *s;`` at -O0 copies a struct with ``llvm.memcpy`` and never touches
its fields), the interprocedural type analysis usually knows from the callers
(``{[0]:double, [8]:double}``).  Every byte must be accounted for: a byte no
analysis can type may hold a float that is only ever copied, and skipping it
would lose its derivative, so such copies stay refused -- unless the declared
type of the stack object the copy reads or writes (the whole object, a field,
or an element of an array of structs) says the byte is padding or a lone
``char``/``bool`` field, whose stores type analysis leaves untyped on purpose
(a one-byte access may be part of a byte-wise copy of anything).

Copies of records (arrays of ``struct Particle {double x[3], v[3]; int cell;
double m;}`` moved by ``memmove(n * sizeof(Particle))``) take the record type
from how the objects are indexed (``getelementptr %struct.Particle``), from
the standard-library template the copy is in (``std::__relocate_a_1<Particle>``
at -O0), from a constructor's class, or as the one struct type of the module
whose fields are exactly the known facts; the bytes no access types are then
what the C/C++ struct declares (never through a union, except
``std::optional``'s storage, nor a byte array), checked against every fact.  A ``std::variant``'s storage
union must be typed by the facts alone; its index and tail padding hold no float (copy_records.py).
The copies in pyenzyme's qsort body take the layout of the array the callers
sort (:func:`sorted_element_layout`), and realloc.py uses the same record
layout for buffers of records.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..analysis import DataLayout, FunctionTypeInfo, TypeAnalysis
from ..analysis.type_tree import ConcreteType, TypeTree
from ..ir import (AllocaInst, Argument, ArrayType, CallInst, ConstantInt, Function, GEPInst, Instruction, IntType,
                  Module, StructType, Type, Value)
from ..ir.builder import const_int
from ..ir.types import I8, I64, PTR, FloatType, VectorType
from ..rules.runtime_bodies import body_name
from .common import zero
from .device import accumulate_into
from .copy_records import (declared_scalars, matching_records, one_record, template_positions, template_records,
                           variant_union_size)
from .constant_contents import pointer_free_constant
from .copy_sites import CopyView, InfosOf, call_sites_disagree, copy_view

if TYPE_CHECKING:
    from ..ir.builder import Builder
    from .common import ADContext

#: Largest constant copy laid out leaf by leaf (larger ones must be one repeated float type).
MAX_UNROLLED_BYTES = 512


@dataclass(frozen=True)
class CopyLayout:
    """Either every element is ``element`` (any size), or the float ``leaves`` of a constant-size copy.

    ``pointers`` are the offsets of the pointers such a copy moves: their
    shadows must move with them in the augmented sweep (a struct header
    ``{int n; double *data;}`` copied, then followed), while float adjoints
    move back in the reverse sweep.  ``no_floats``: every byte is a pointer
    or an integer (a table of row pointers, any length), so the augmented
    sweep copies the shadow bytes as they are and the reverse sweep has
    nothing to move back.  ``stride``: the ``leaves`` are those of one
    record, repeated every ``stride`` bytes over a copy of any length.
    """

    element: FloatType | None = None
    leaves: tuple[tuple[int, FloatType], ...] = ()
    pointers: tuple[int, ...] = ()
    no_floats: bool = False
    stride: int | None = None
    #: A copy of run-time length that holds only while it moves at most this many bytes (checked at run time).
    max_bytes: int | None = None


def copy_layout(infos: list[FunctionTypeInfo], dst: Value, src: Value, nbytes: int | None,
                layout: DataLayout, primal_functions: set[Function], accessed: FloatType | None,
                infos_of: InfosOf, padding: frozenset[int] = frozenset(),
                record_candidates: Sequence[StructType] = (), count_of: int | None = None) -> CopyLayout | None:
    """The float layout of the bytes copied from ``src`` to ``dst`` (None: unknown or contradictory).

    ``infos`` are the function's type analyses (one per calling context);
    their facts about both pointers are merged.  ``accessed`` is the one float
    type the function itself loads and stores through these objects, if any:
    it types a copy of unknown length when no analysis fact contradicts it
    (``memcpy(dst, src, n * sizeof(double))`` then ``dst[0]``).  When the
    function's own facts do not account for every byte, the call sites of the
    pointers are asked (copy_sites.py): their facts, the padding and lone char
    fields of declared stack types, and the struct type the objects are
    indexed with (an array of records of any length).  ``primal_functions``
    are the functions whose calls count; ``infos_of`` gives a caller's analyses.
    ``padding``: bytes the copy itself says hold no data (``!tbaa.struct``).  ``record_candidates``: the
    module's struct types; when the objects are indexed with none, the one whose every field the facts
    give, and nothing else, is taken as the record (a ``std::vector<Particle>`` copy after inlining).
    ``count_of``: the element size when the copy's length is a count times it (``n << 3``): with facts of
    that float type only, at consecutive offsets from 0, the copy is an array of it (a ``Vec<f64>`` clone).
    """
    facts: dict[int, ConcreteType] = {}
    for info in infos:
        for ptr in (dst, src):
            for path, t in info.pointee_tree(ptr):
                if len(path) != 1 or t.is_anything:
                    continue
                if facts.setdefault(path[0], t) != t:
                    return None
    kinds = {t.float_kind for t in facts.values() if t.is_float}
    if accessed is not None:
        kinds.add(accessed.kind)
    if len(kinds) == 1 and all(t.is_float for t in facts.values()):
        # Floats of one type and nothing else known: the copy is that type throughout (an array of it).
        elem = FloatType(kinds.pop())  # type: ignore[arg-type]
        size = layout.alloc_size(elem)
        offsets = sorted(o for o in facts if o != -1)
        if offsets == list(range(0, size * len(offsets), size)) and all(o % size == 0 for o in offsets):
            covered = -1 in facts or (nbytes is not None and nbytes <= size * len(offsets)) \
                or (nbytes is None and count_of == size and offsets)
            if covered or (accessed is not None and not call_sites_disagree(dst, src, nbytes, layout, infos_of,
                                                                            primal_functions)):
                return CopyLayout(element=elem)
    if -1 in facts and accessed is None and all(t.is_pointer or t.is_integer for t in facts.values()):
        return CopyLayout(no_floats=True)  # the same non-float type at every offset
    if -1 in facts:
        return None
    small = nbytes is not None and nbytes <= MAX_UNROLLED_BYTES  # else only whole records (of any number)
    if small and padding:
        assert nbytes is not None
        found = _leaves(facts, nbytes, layout, set(padding))
        if found is not None:
            return found
    view = copy_view((dst, src), infos_of, lambda p: _declared_non_float(p, nbytes if small else None, layout),
                     primal_functions, layout=layout)
    if view is None:
        return None
    view.padding |= padding
    for off, t in facts.items():
        if view.facts.setdefault(off, t) != t:
            return None
    if small:
        assert nbytes is not None
        found = _leaves(view.facts, nbytes, layout, view.padding)
        if found is None and not view.positions:
            view.positions = template_positions(dst, src, layout, record_candidates)
        if found is None and len(view.positions) == 1:
            found = _inside_record(view, nbytes, layout, *next(iter(view.positions)))
        if found is not None:
            return found
    candidates = record_candidates
    named = template_records(dst, candidates)  # what a standard-library template moves, whoever calls it
    if named:
        view.records = named
    elif not view.records:
        view.records = matching_records(view.facts, nbytes, layout, candidates)
    return _records(view, nbytes, layout)


def declared_copy_layout(infos: list[FunctionTypeInfo], dst: Value, src: Value, nbytes: int, layout: DataLayout,
                         declared: TypeTree, padding: frozenset[int]) -> CopyLayout | None:
    """The layout a copy's ``!tbaa.struct`` gives (``declared``: its fields' types; ``padding``: the bytes no
    field covers), when its fields and padding account for every byte and no type-analysis fact about either
    pointer contradicts them (a float where the copy says integer or pointer, or the reverse).  Facts that are
    ``Anything`` (contexts merged into a conflict) do not count against it."""
    facts: dict[int, ConcreteType] = {}
    for path, t in declared:
        if len(path) != 1:
            continue  # what a pointer field points to
        if t.is_anything or facts.setdefault(path[0], t) != t:
            return None
    return checked_leaves(infos, dst, src, nbytes, layout, facts, padding)


def checked_leaves(infos: list[FunctionTypeInfo], dst: Value, src: Value, nbytes: int, layout: DataLayout,
                   facts: dict[int, ConcreteType], padding: frozenset[int]) -> CopyLayout | None:
    """The copy's layout from ``facts`` known from elsewhere (its declared type), when they and ``padding``
    account for every byte and no type-analysis fact about either pointer contradicts them."""
    found = _leaves(facts, nbytes, layout, set(padding))
    if found is None:
        return None
    for info in infos:
        for ptr in (dst, src):
            for path, t in info.pointee_tree(ptr):
                if len(path) != 1 or t.is_anything or not 0 <= path[0] < nbytes:
                    continue
                mine = facts.get(path[0])
                if mine is None:
                    # inside a field (a byte of an integer) or padding: only a float or a pointer starting there
                    # would contradict the declared layout
                    if (t.is_float or t.is_pointer) and path[0] not in padding:
                        return None
                    continue
                if mine.is_float != t.is_float or (mine.is_float and mine != t) or mine.is_pointer != t.is_pointer:
                    return None
    return found


def _inside_record(view: CopyView, nbytes: int, layout: DataLayout, record: StructType, at: int) -> CopyLayout | None:
    """A copy of bytes [at, at + nbytes) of one record: its declared fields there, shifted to the copy."""
    declared = declared_scalars(record, layout, (at, at + nbytes))
    if declared is None or at + nbytes > layout.alloc_size(record):
        return None
    facts = dict(view.facts)
    for off, t in declared.items():
        if at <= off < at + nbytes and facts.setdefault(off - at, t) != t:
            return None
    padding = view.padding | {o - at for o in _bytes_without_floats(record, layout) if at <= o < at + nbytes}
    return _leaves(facts, nbytes, layout, padding)


def sorted_element_layout(fn: Function, size: Value, layout: DataLayout, primal_functions: set[Function],
                          infos_of: InfosOf) -> CopyLayout | None:
    """What a copy of ``size`` bytes in pyenzyme's qsort body moves: one element of the array its callers sort.

    The body moves whole elements (``memcpy(tmp, a, size)``) at offsets it computes at run time, so its own
    facts say little; every call passes a constant element size and an array whose element layout the
    caller knows (an array of ``struct Event {double t; int kind; ...}``).  None: not such a copy, or the
    callers disagree, or the elements hold pointers (their shadows would have to move too).
    """
    if fn.name not in (body_name("qsort"), body_name("qsort_r")) or not isinstance(size, Argument) \
            or size.function is not fn or size.index != 2:
        return None
    found: CopyLayout | None = None
    for use in fn.uses:
        call = use.user
        if isinstance(call, Instruction) and call.function not in primal_functions:
            continue  # derivative code
        if not isinstance(call, CallInst) or call.called_function is not fn or not isinstance(call.args[2], ConstantInt):
            return None
        caller = call.function
        if not isinstance(caller, Function):
            return None
        nbytes = call.args[2].value
        one = copy_layout(infos_of(caller), call.args[0], call.args[0], nbytes, layout, primal_functions, None,
                          infos_of)
        if one is None or one.pointers or one.stride is not None:
            return None
        site = one if one.element is not None or one.no_floats else CopyLayout(leaves=one.leaves, stride=nbytes)
        if found is not None and found != site:
            return None
        found = site
    return found


def _records(view: CopyView, nbytes: int | None, layout: DataLayout) -> CopyLayout | None:
    """The copy as whole records of the one struct type its objects are indexed with: the facts (folded
    into one record) and the struct's padding must account for every byte of the record."""
    if -1 in view.facts:
        return None
    records = view.records
    if nbytes is not None and len(records) > 1:  # whole records: of a size the copy is a multiple of
        records = {r for r in records if 0 < layout.alloc_size(r) <= nbytes and nbytes % layout.alloc_size(r) == 0}
    record = one_record(records, layout)
    if record is None:
        return None
    size = layout.alloc_size(record)
    if nbytes is not None and 0 < nbytes < size and -1 not in view.facts:
        return _inside_record(view, nbytes, layout, record, 0)  # the leading bytes of one (its first fields)
    if size == 0 or size > MAX_UNROLLED_BYTES or (nbytes is not None and nbytes % size != 0):
        return None
    folded: dict[int, ConcreteType] = {}
    for off, t in view.facts.items():
        if nbytes is not None and off >= nbytes:
            continue  # about memory after what is copied
        if off < 0 or folded.setdefault(off % size, t) != t:
            return None  # a fact that does not repeat with the record: not an array of it
    declared = declared_scalars(record, layout)
    if declared is not None:  # the fields nobody accessed with a type here are what the struct declares
        for off, t in declared.items():
            if folded.setdefault(off, t) != t:
                return None  # accessed as something else than declared: a pun
    one = _leaves(folded, size, layout, _bytes_without_floats(record, layout))
    if one is None:
        return None
    count = nbytes // size if nbytes is not None else None
    if count is not None and count * size <= MAX_UNROLLED_BYTES:
        return CopyLayout(leaves=tuple((k * size + o, t) for k in range(count) for o, t in one.leaves),
                          pointers=tuple(k * size + o for k in range(count) for o in one.pointers))
    if one.pointers:
        return None  # pointer shadows of a copy of any length: not supported
    return CopyLayout(leaves=one.leaves, stride=size)


def _declared_non_float(ptr: Value | None, nbytes: int | None, layout: DataLayout) -> set[int]:
    """The bytes [0, nbytes) after ``ptr`` that hold no float by the declared type of the stack object it
    points into: at a constant offset into the object, or at a variable index into an array (GEPs from an
    ``alloca``), where the element's layout repeats."""
    position = _position_in_stack_object(ptr, layout)
    if position is None or nbytes is None:
        return set()
    obj, offset, strides = position
    t = obj.allocated_type
    if strides:  # a variable element of (nested) arrays: the layout repeats with the element's size
        g = 0
        for stride in strides:
            g = math.gcd(g, stride)
        while isinstance(t, ArrayType) and g % layout.alloc_size(t.element) != 0:
            t = t.element
        if not isinstance(t, ArrayType):
            return set()
        t = t.element
    size = layout.alloc_size(t)
    if size == 0 or size > MAX_UNROLLED_BYTES:
        return set()
    none = _bytes_without_floats(t, layout)
    if strides:
        return {o for o in range(nbytes) if (offset + o) % size in none}
    return {o for o in range(nbytes) if offset + o in none}


def _position_in_stack_object(ptr: Value | None, layout: DataLayout) -> tuple[AllocaInst, int, list[int]] | None:
    """``ptr`` as (aggregate stack object, constant byte offset, strides of the variable indices)."""
    offset, strides = 0, list[int]()
    while isinstance(ptr, GEPInst):
        step = _gep_steps(ptr, layout)
        if step is None:
            return None
        offset, strides, ptr = offset + step[0], strides + step[1], ptr.pointer
    if isinstance(ptr, AllocaInst) and isinstance(ptr.allocated_type, (StructType, ArrayType)) and offset >= 0:
        return ptr, offset, strides
    return None


def _gep_steps(gep: GEPInst, layout: DataLayout) -> tuple[int, list[int]] | None:
    """The constant byte offset and the variable-index strides of one GEP (None: not understood)."""
    offset, strides = 0, []
    t = gep.source_type
    for n, idx in enumerate(gep.indices):
        if n > 0 and isinstance(t, StructType):
            if not isinstance(idx, ConstantInt):
                return None
            off, t = layout.element_offset(t, idx.value)
            offset += off
            continue
        if n > 0:
            if not isinstance(t, (ArrayType, VectorType)):
                return None
            t = t.element
        step = layout.alloc_size(t)
        if isinstance(idx, ConstantInt):
            offset += step * idx.value
        else:
            strides.append(step)
    return offset, strides


def _bytes_without_floats(t: Type, layout: DataLayout) -> set[int]:
    """Offsets in ``t`` that are padding or a lone one-byte integer (a field, not an element of a char array)."""
    data: set[int] = set()
    lone: set[int] = set()

    def walk(u: Type, base: int, array_element: bool) -> None:
        if (union_size := variant_union_size(u, layout)) is not None:
            data.update(range(base, base + union_size))  # the index and the tail: no float
        elif isinstance(u, StructType):
            for off, e in zip(layout.struct_layout(u).offsets, u.elements):
                walk(e, base + off, False)
        elif isinstance(u, (ArrayType, VectorType)):
            step = layout.alloc_size(u.element)
            for i in range(u.count):
                walk(u.element, base + i * step, True)
        else:
            data.update(range(base, base + layout.store_size(u)))
            if not array_element and isinstance(u, IntType) and u.bits <= 8:
                lone.add(base)

    walk(t, 0, False)
    return (set(range(layout.alloc_size(t))) - data) | lone


def _leaves(facts: dict[int, ConcreteType], nbytes: int, layout: DataLayout, padding: set[int]) -> CopyLayout | None:
    """Leaf by leaf: every byte of [0, nbytes) in exactly one known leaf or padding; floats listed."""
    leaves: list[tuple[int, FloatType]] = []
    pointers: list[int] = []
    covered = 0
    for off in sorted(facts):
        if off >= nbytes:
            break
        if off < covered:
            return None  # overlapping facts (a type pun)
        if not padding.issuperset(range(covered, off)):
            return None  # untyped bytes: they may hold a float that is only copied
        t = facts[off]
        if t.is_float:
            ft = FloatType(t.float_kind)  # type: ignore[arg-type]
            leaves.append((off, ft))
            covered = off + layout.store_size(ft)
        elif t.is_pointer:
            pointers.append(off)
            covered = off + layout.pointer_size()
        else:
            covered = off + 1  # Integer facts are per byte
    if not padding.issuperset(range(covered, nbytes)):
        return None
    return CopyLayout(leaves=tuple(leaves), pointers=tuple(pointers))


def function_contexts(ctx: "ADContext", fn: Function) -> list[FunctionTypeInfo]:
    """Type analyses of ``fn`` in the calling contexts of the module's differentiation requests.

    The functions handed to ``__enzyme_*`` calls are analysed once (their
    callees get the callers' facts); a function reached no other way is
    analysed on its own.
    """
    if ctx.types is None:
        ctx.types = TypeAnalysis(ctx.module)
        for root in ctx.roots:  # request functions have bodies (the driver refuses others)
            ctx.types.analyze(root)
    infos = ctx.types.contexts(fn)
    return infos or [ctx.types.analyze(fn)]


def analyzed_functions(ctx: "ADContext") -> set[Function]:
    """The functions type analysis has seen: the primal program, not generated derivatives."""
    assert ctx.types is not None
    return ctx.types.analyzed_functions()


def emit_leaf_adjoints(b: "Builder", ddst: Value, dsrc: Value, leaves: tuple[tuple[int, FloatType], ...]) -> None:
    """``dsrc[o] += ddst[o]; ddst[o] = 0`` for each float leaf; all reads first, so overlap is harmless."""
    taken = []
    for off, t in leaves:
        p = b.gep(I8, ddst, [const_int(I64, off)])
        taken.append((off, t, b.load(t, p)))
        b.store(zero(t), p)
    module = b.function.module
    for off, t, a in taken:
        p = b.gep(I8, dsrc, [const_int(I64, off)])
        if isinstance(module, Module):
            accumulate_into(module, b, p, a, None, lambda b, x, y: b.fadd(x, y))
        else:
            b.store(b.fadd(b.load(t, p), a), p)


def emit_pointer_shadow_copies(b: "Builder", sdst: Value, ssrc: Value, offsets: tuple[int, ...]) -> None:
    """``sdst[o] = ssrc[o]`` for each pointer offset: copied pointers keep their shadows (all loads first: overlap)."""
    loaded = [(off, b.load(PTR, b.gep(I8, ssrc, [const_int(I64, off)]), align=1)) for off in offsets]
    for off, v in loaded:
        b.store(v, b.gep(I8, sdst, [const_int(I64, off)]), align=1)  # align 1: packed structs


def points_to_no_floats(infos: list[FunctionTypeInfo], ptr: Value) -> bool:
    """Does type analysis know what ``ptr`` points to, with no floating-point (or unknown) bytes in it?"""
    known = False
    for info in infos:
        for _, t in info.pointee_tree(ptr):
            if t.is_float or t.is_anything:
                return False
            known = True
    return known


def may_copy_pointers(infos: list[FunctionTypeInfo], dst: Value, src: Value, accessed: object) -> bool:
    """Could a copy between these objects move pointers (or bytes nobody knows anything about)?

    Copying constant memory into memory with a shadow zeroes the shadow of the
    copied bytes: right for numbers, wrong for pointers, whose shadows would be
    null (derivatives followed through them would be lost or land elsewhere).
    """
    if pointer_free_constant(src):
        return False  # a string literal, a table of numbers, null pointers: it has no address to move
    known = accessed is not None  # the one float type the function accesses these objects with, if any
    for info in infos:
        for ptr in (dst, src):
            for path, t in info.pointee_tree(ptr):
                if len(path) == 1 and (t.is_pointer or t.is_anything):
                    return True
                known = True
    return not known

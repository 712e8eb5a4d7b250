"""Which struct type a copy moves records of, and what that type declares (copy_types.py asks).

The record type of a copy comes from the standard-library template the copy is in (``std::_Construct<Particle,
Particle&>``), or is the one struct type of the module whose fields are exactly the facts type analysis has
about the copied bytes; :func:`declared_scalars` gives a C/C++ struct type's fields as type facts.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ..analysis import DataLayout
from ..analysis.type_offsets import gep_offset
from ..analysis.type_tree import INTEGER, POINTER, ConcreteType, float_type
from ..ir import Argument, ArrayType, ConstantInt, Function, GEPInst, Instruction, IntType, StructType, Type, Value
from ..ir.types import PTR, FloatType, VectorType

#: Mangled-name prefixes of the C++ standard library's functions (std::, __gnu_cxx::).
_STD_PREFIXES = ("_ZSt", "_ZNSt", "_ZNKSt", "_ZN9__gnu_cxx", "_ZNK9__gnu_cxx")


#: libstdc++'s trivially-copyable fast paths of std::copy / std::move / std::copy_backward: ``__copy_m<T>`` and
#: ``__copy_move_b<T>`` memmove ``(last - first) * sizeof(T)`` bytes of ``T`` elements and nothing else.
_ELEMENT_COPIES = re.compile(r"^_ZNSt11__copy_moveILb[01]ELb1ESt26random_access_iterator_tagE(?:8__copy_m|13__copy_move_b)"
                             r"I(?P<t>[df])EEPT_PKS\d*_S\d*_S\d*_$"
                             # std::fill of std::array<double, N> elements: each assignment copies N doubles
                             r"|^_ZSt9__fill_a1IPSt5arrayI(?P<a>[df])Lm\d+EES\d*_E"
                             # std::vector<double> growing: its elements relocated with one memmove
                             r"|^_ZSt14__relocate_a_1I(?P<r>[df])(?P=r)E")


_POINTER_COPIES = re.compile(r"^_ZNSt(?:11__copy_move|20__copy_move_backward)ILb[01]ELb1ESt26random_access_iterator_tagE"
                             r"(?:8__copy_m|13__copy_move_b)IP")


def template_moves_pointers(fn: Function) -> bool:
    """Is ``fn`` libstdc++'s trivially-copyable fast path of std::copy / std::move (_backward) of a range of pointers
    (``__copy_m<double*>``: a std::deque's map of node pointers moved when it grows)?  It moves nothing else."""
    return _POINTER_COPIES.match(fn.name or "") is not None


#: The same fast paths for integer elements (``__copy_m<int>``, ``__relocate_a_1<int, int>``: a std::vector<int>
#: of indices grown at -O0): the builtin integer types' mangling codes (bool, char kinds, short, int, long, long
#: long, signed and unsigned).
_INTEGER_COPIES = re.compile(r"^_ZNSt(?:11__copy_move|20__copy_move_backward)ILb[01]ELb1ESt26random_access_iterator_tagE"
                             r"(?:8__copy_m|13__copy_move_b)I[bcahstijlmxy]EEPT_PKS\d*_S\d*_S\d*_$"
                             # std::vector<int>'s reallocation moving its elements (push_back at -O0)
                             r"|^_ZSt14__relocate_a_1I([bcahstijlmxy])\1E"
                             # std::fill of integers (std::iota's and vector<unsigned long>'s set-up at -O0)
                             r"|^_ZSt9__fill_a1IP([bcahstijlmxy])\2E"
                             # std::swap of two integers (std::shuffle's and std::sort's moves at -O0)
                             r"|^_ZSt4swapI[bcahstijlmxy]ENSt9enable_if")


def integer_element_copy(fn: Function) -> bool:
    """Is ``fn`` a standard-library copy of a range of builtin integers (it moves no floats)?"""
    return _INTEGER_COPIES.match(fn.name or "") is not None


def template_element(fn: Function) -> FloatType | None:
    """The floating-point element type a standard-library copy of a range moves, named by its template argument
    (``std::__copy_move<...>::__copy_m<double>``: a vector<double> copied at -O0; ``std::__fill_a1`` of
    ``std::array<double, 3>`` elements)."""
    m = _ELEMENT_COPIES.match(fn.name or "")
    if m is None:
        return None
    return FloatType("double" if (m["t"] or m["a"] or m["r"]) == "d" else "float")


def one_record(records: set[StructType], layout: DataLayout) -> StructType | None:
    """The record type, when the objects are indexed with one (or with several of the same size and fields: a
    class wrapping a ``std::optional`` and the optional)."""
    if len(records) == 1:
        return next(iter(records))
    shapes = set()
    for r in records:
        declared = declared_scalars(r, layout)
        if declared is None:
            return None
        shapes.add((layout.alloc_size(r), tuple(sorted(declared.items(), key=lambda kv: kv[0]))))
    return min(records, key=lambda r: str(getattr(r, "name", ""))) if len(shapes) == 1 else None


def template_positions(dst: Value, src: Value, layout: DataLayout,
                       candidates: Sequence[StructType]) -> set[tuple[StructType, int]]:
    """(record, offset) for a copy a constant number of bytes into the one record a standard-library template
    names (``std::__introsort_loop<Particle*>`` at -O1 copying bytes 4..24 of a ``{int; double; double}``)."""
    named = template_records(dst, candidates)
    if len(named) != 1:
        return set()
    (record,) = named
    size = layout.alloc_size(record)
    out = set()
    for p in (dst, src):
        if isinstance(p, GEPInst) and all(isinstance(i, ConstantInt) for i in p.indices) and size:
            offset, _ = gep_offset(layout, p.source_type, list(p.indices))
            if offset % size:
                out.add((record, offset % size))
    return out


def matching_records(facts: dict[int, ConcreteType], nbytes: int | None, layout: DataLayout,
                     candidates: Iterable[StructType]) -> set[StructType]:
    """The struct type whose declared fields are exactly the facts (folded by its size), if only one is."""
    found: dict[tuple[int, tuple[tuple[int, ConcreteType], ...]], StructType] = {}
    for r in candidates:
        size = layout.alloc_size(r)
        declared = declared_scalars(r, layout) if variant_union_size(r, layout) is None else _variant_member(r, layout)
        if not size or not declared or (nbytes is not None and nbytes % size) \
                or not any(t.is_float for t in declared.values()):
            continue
        folded: dict[int, ConcreteType] = {}
        if any(o < 0 or folded.setdefault(o % size, t) != t for o, t in facts.items()):
            continue
        if folded == declared:
            found.setdefault((size, tuple(sorted(declared.items(), key=lambda kv: kv[0]))), r)
    return set(found.values()) if len(found) == 1 else set()


def template_records(ptr: Value, candidates: Sequence[StructType]) -> set[StructType]:
    """The one struct type named among the template arguments of the standard-library function the copy is
    in (``std::_Construct<Particle, Particle&>``, ``std::__relocate_a_1<Particle, Particle>`` at -O0, which
    move elements of that type and nothing else with memcpy/memmove)."""
    fn = ptr.function if isinstance(ptr, (Argument, Instruction)) else None
    name = fn.name if isinstance(fn, Function) else None
    if not name or not name.startswith(_STD_PREFIXES):
        return set()
    idents, i = set(), 0
    while i < len(name):
        if not name[i].isdigit():
            i += 1
            continue
        j = i
        while j < len(name) and name[j].isdigit():
            j += 1
        n = int(name[i:j])
        if n:
            idents.add(name[j:j + n])
        i = j + max(n, 0)
    wanted = {f"{kind}.{x}" for x in idents for kind in ("struct", "class")}
    named = {r for r in candidates if getattr(r, "name", None) in wanted}
    if "variant" in idents:
        # ``construct<std::variant<Circle, Rect>>``: the variant is what moves, its alternatives are named too
        variants = {r for r in candidates if _is_std_variant(r)}
        return variants if len(variants) == 1 else set()
    return named if len(named) == 1 else set()


def variant_union_size(t: Type, layout: DataLayout) -> int | None:
    """The size of a ``std::variant``'s storage union (its alternatives' bytes), when ``t`` is such a variant:
    the index and the tail padding follow it and hold no float (the union's bytes must be typed by facts)."""
    if not isinstance(t, StructType) or not _is_std_variant(t):
        return None
    u: Type = t
    while isinstance(u, StructType) and u.elements:
        first = u.elements[0]
        if isinstance(first, StructType) and getattr(first, "name", "").startswith(
                "union.std::__detail::__variant::_Variadic_union"):
            return layout.alloc_size(first)
        u = first
    return None


def _variant_member(t: StructType, layout: DataLayout) -> dict[int, ConcreteType] | None:
    """The fields of the alternative a ``std::variant``'s storage union is lowered to (its largest): what type
    analysis must find in the union's bytes, and nothing else, for a copy to be taken as one of variants."""
    u: Type = t
    while isinstance(u, StructType) and u.elements and not getattr(u, "name", "").startswith("union."):
        u = u.elements[0]
    while isinstance(u, StructType) and getattr(u, "name", "").startswith("union.") and u.elements:
        u = u.elements[0]
    return declared_scalars(u, layout)


def _is_std_variant(t: StructType) -> bool:
    """``class.std::variant`` (``.N`` for each further instance)."""
    name = getattr(t, "name", "")
    return name == "class.std::variant" or name.startswith("class.std::variant.") and name[19:].isdigit()


def declared_scalars(t: Type, layout: DataLayout,
                     within: tuple[int, int] | None = None) -> dict[int, ConcreteType] | None:
    """The scalar fields of a C/C++ struct type as type facts (integers per byte), or None where the declared
    type may not say what the bytes hold: a union (lowered to one of its members), a byte array (storage for
    anything: ``std::aligned_storage``), an opaque struct.  ``std::optional<T>``'s storage is the exception: its
    union holds a ``T`` or nothing, and its byte arrays are tail padding.  ``within``: only the fields that
    overlap bytes [lo, hi) count (a copy of a record's last fields, after a std::string's union)."""
    out: dict[int, ConcreteType] = {}

    def walk(u: Type, base: int, in_optional: bool) -> bool:
        if within is not None and (base >= within[1] or base + layout.alloc_size(u) <= within[0]):
            return True  # outside the bytes asked about
        if isinstance(u, StructType):
            name = getattr(u, "name", "")
            optional_storage = name.startswith("union.std::_Optional_payload_base<") and name.endswith("::_Storage")
            if getattr(u, "opaque", False) or ("union." in name and not optional_storage) or "aligned" in name:
                return False
            inner = in_optional or name.startswith("struct.std::_Optional_payload")
            return all(walk(e, base + off, inner) for off, e in zip(layout.struct_layout(u).offsets, u.elements))
        if isinstance(u, (ArrayType, VectorType)):
            if isinstance(u.element, IntType) and u.element.bits == 8 and u.count > 1 and not in_optional:
                return False
            step = layout.alloc_size(u.element)
            return all(walk(u.element, base + i * step, in_optional) for i in range(u.count))
        if isinstance(u, FloatType):
            out[base] = float_type(u.kind)
            return True
        if isinstance(u, IntType):
            for b in range(layout.store_size(u)):
                out[base + b] = INTEGER
            return True
        if u == PTR:
            out[base] = POINTER
            return True
        return False

    if not isinstance(t, StructType) or not getattr(t, "name", "").startswith(("struct.", "class.")):
        return None
    return out if walk(t, 0, False) else None

"""What the places a copied pointer comes from say about the copied bytes: the calls that pass it in.

A copy inside a small helper (``allocator::construct`` copying a ``Particle``
with ``llvm.memcpy`` at -O0, a byte-wise ``swap``) often has few facts of its
own: the helper never touches the fields.  Its callers do -- they store the
``int id`` field, declare the stack object the struct lives in, or index the
array with the struct type (``getelementptr %struct.Particle, ptr %p, i64 %i``).
:func:`copy_view` collects, for the copy's pointers and, through pointer
arguments, the actual arguments at every primal call site:

- ``facts``: bytes type analysis knows (here, or at *every* call site: a
  helper called with a ``Particle`` and with a ``double[3]`` knows nothing);
- ``padding``: bytes a declared stack type says hold no float;
- ``records``: the struct types the pointers are indexed with (the copy is of
  whole records of that type, so its padding is known at any length).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ..analysis import DataLayout, FunctionTypeInfo
from ..analysis.type_offsets import gep_offset
from ..analysis.type_tree import ConcreteType
from ..ir import (AllocaInst, Argument, ArrayType, CallInst, ConstantInt, ConstantKeyword, Function, GEPInst, Instruction, PhiInst, StructType,
                  Value)
from .copy_records import declared_scalars

#: How many levels of callers are followed from a pointer argument.
MAX_CALLER_DEPTH = 6

InfosOf = Callable[[Function], list[FunctionTypeInfo]]
NonFloatBytes = Callable[[Value | None], set[int]]


@dataclass
class CopyView:
    facts: dict[int, ConcreteType] = field(default_factory=dict)
    padding: set[int] = field(default_factory=set)
    records: set[StructType] = field(default_factory=set)
    positions: set[tuple[StructType, int]] = field(default_factory=set)  # (record, byte offset inside it)


class Conflict(Exception):
    """Two sources disagree about a byte: the copy's layout is unknown."""


def copy_view(pointers: tuple[Value | None, ...], infos_of: InfosOf, non_float: NonFloatBytes,
              callers: set[Function], depth: int = 0, layout: DataLayout | None = None) -> CopyView | None:
    """What is known about the bytes after ``pointers`` (None: contradictory facts)."""
    try:
        return _view(pointers, infos_of, non_float, callers, depth, layout)
    except Conflict:
        return None


def _view(pointers: tuple[Value | None, ...], infos_of: InfosOf, non_float: NonFloatBytes,
          callers: set[Function], depth: int, layout: DataLayout | None) -> CopyView:
    view = CopyView()
    for ptr in pointers:
        if ptr is None:
            continue
        fn = ptr.function if isinstance(ptr, (Argument, Instruction)) else None
        for info in infos_of(fn) if isinstance(fn, Function) else []:
            for path, t in info.pointee_tree(ptr):
                if len(path) == 1 and not t.is_anything:
                    _add_fact(view.facts, path[0], t)
        view.padding |= non_float(ptr)
        view.records |= record_types(ptr, layout=layout)
        if layout is not None:
            view.positions |= record_positions(ptr, layout) or _caller_positions(ptr, layout, callers)
    args = [p for p in pointers if isinstance(p, Argument) and isinstance(p.function, Function)]
    if not args or depth >= MAX_CALLER_DEPTH:
        return view
    fn = args[0].function
    assert isinstance(fn, Function)
    users = [u.user for u in fn.uses if not (isinstance(u.user, Instruction) and u.user.function not in callers)]
    calls = [c for c in users if isinstance(c, CallInst) and c.called_function is fn]
    if not calls or len(calls) != len(users):
        return view  # address taken: unknown callers
    sites = []
    for call in calls:
        actual = tuple(call.args[p.index] if p in args and p.function is fn else None for p in pointers)
        sites.append(_view(actual, infos_of, non_float, callers, depth + 1, layout))
    common = sites[0]
    for other in sites[1:]:  # what holds at every call site
        common = CopyView({o: t for o, t in common.facts.items() if other.facts.get(o) == t},
                          common.padding & other.padding, common.records & other.records)
    for o, t in common.facts.items():
        _add_fact(view.facts, o, t)
    view.padding |= common.padding
    view.records |= common.records
    return view


def _add_fact(facts: dict[int, ConcreteType], offset: int, t: ConcreteType) -> None:
    if facts.setdefault(offset, t) != t:
        raise Conflict


def record_positions(ptr: Value, layout: DataLayout) -> set[tuple[StructType, int]]:
    """(record type, offset) for a pointer a constant number of bytes into a record, not at its start
    (``getelementptr i8, ptr %body, i64 16``: what SROA copies of the tail of a struct read)."""
    if not isinstance(ptr, GEPInst) or not all(isinstance(i, ConstantInt) for i in ptr.indices):
        return set()
    offset, _ = gep_offset(layout, ptr.source_type, list(ptr.indices))
    out = set()
    for r in record_types(ptr.pointer, frozenset({ptr}), layout):
        size = layout.alloc_size(r)
        if size and offset % size:
            out.add((r, offset % size))
    return out


def _caller_positions(ptr: Value, layout: DataLayout, callers: set[Function]) -> set[tuple[StructType, int]]:
    """(record type, offset) for a pointer a constant number of bytes after a pointer argument that every call
    site passes the start of a record for (a constructor's second field: ``getelementptr i8, ptr %this, i64 16``,
    ``this`` passed on by the derived class's constructor)."""
    if not isinstance(ptr, GEPInst) or not isinstance(ptr.pointer, Argument) \
            or not all(isinstance(i, ConstantInt) for i in ptr.indices):
        return set()
    offset, _ = gep_offset(layout, ptr.source_type, list(ptr.indices))
    return {(r, offset % size) for r in _caller_records(ptr.pointer, layout, callers, 0)
            if (size := layout.alloc_size(r)) and offset % size}


def _caller_records(arg: Argument, layout: DataLayout, callers: set[Function], depth: int) -> set[StructType]:
    """The record types every call site passes the start of for ``arg`` (through arguments passed on)."""
    fn = arg.function
    if not isinstance(fn, Function) or depth >= MAX_CALLER_DEPTH:
        return set()
    found: set[StructType] | None = None
    for use in fn.uses:
        call = use.user
        if isinstance(call, Instruction) and call.function not in callers:
            continue  # derivative code
        if not isinstance(call, CallInst) or call.called_function is not fn or use.index == arg.index:
            return set()  # address taken: unknown callers
        actual = call.args[arg.index]
        here = record_types(actual, layout=layout)
        if not here and isinstance(actual, Argument):
            here = _caller_records(actual, layout, callers, depth + 1)
        found = here if found is None else found & here
    return found or set()


_CONSTRUCTOR = re.compile(r"_ZN(\d+)")


def _constructed_class(fn: Function) -> set[StructType]:
    """The class a C++ constructor or destructor (``_ZN5FieldC2E...``, ``_ZN5FieldD2Ev``) is of: its first
    argument, ``this``, points at the start of one."""
    name = fn.name or ""
    m = _CONSTRUCTOR.match(name)
    module = fn.module
    if m is None or module is None:
        return set()
    start = m.end()
    ident = name[start:start + int(m.group(1))]
    rest = name[start + int(m.group(1)):]
    if not re.match(r"(C[12]|D[012])E", rest):
        return set()
    types: dict[str, StructType] = getattr(module, "struct_types", {})
    return {t for t in (types.get(f"class.{ident}"), types.get(f"struct.{ident}")) if t is not None}


def record_types(ptr: Value, seen: frozenset[Value] = frozenset(),
                 layout: DataLayout | None = None) -> set[StructType]:
    """Struct types ``ptr`` is known to point at the start of (an element of an array of them): it is the
    ``alloca`` of one, an element address ``getelementptr %T, ptr %base, i64 %i``, the base of such a
    GEP, a constant whole number of records after such a pointer (``getelementptr i8, ptr %cells, i64 96``
    with 32-byte records; needs ``layout``), or a phi of such pointers (every incoming value says the same)."""
    out: set[StructType] = set()
    if layout is not None and isinstance(ptr, GEPInst) and ptr not in seen \
            and all(isinstance(i, ConstantInt) for i in ptr.indices):
        offset, _ = gep_offset(layout, ptr.source_type, list(ptr.indices))
        out |= {r for r in record_types(ptr.pointer, seen | {ptr}, layout)
                if layout.alloc_size(r) and offset % layout.alloc_size(r) == 0}
    if isinstance(ptr, PhiInst) and ptr not in seen:
        # null (an empty vector's storage) points at no record; a phi already being followed adds nothing.
        incoming = [record_types(v, seen | {ptr}, layout) for v, _ in ptr.incoming
                    if v not in seen and v is not ptr and not isinstance(v, ConstantKeyword)]
        if incoming and all(incoming):
            out |= set.intersection(*incoming)
    if isinstance(ptr, Argument) and ptr.index == 0 and isinstance(ptr.function, Function):
        out |= _constructed_class(ptr.function)
    if isinstance(ptr, AllocaInst):
        t = ptr.allocated_type
        while isinstance(t, ArrayType):
            t = t.element
        if isinstance(t, StructType):
            out.add(t)
    if isinstance(ptr, GEPInst) and len(ptr.indices) == 1 and isinstance(ptr.source_type, StructType):
        out.add(ptr.source_type)
    for use in ptr.uses:
        user = use.user
        if isinstance(user, GEPInst) and user.pointer is ptr and isinstance(user.source_type, StructType):
            out.add(user.source_type)
        elif isinstance(user, PhiInst):  # where a grown buffer meets the old one: indexed after the merge
            out |= {g.source_type for g in user.users
                    if isinstance(g, GEPInst) and g.pointer is user and isinstance(g.source_type, StructType)}
    return out


def call_sites_disagree(dst: Value, src: Value, nbytes: int | None, layout: DataLayout, infos_of: InfosOf,
                         primal_functions: set[Function]) -> bool:
    """Whether the callers know a pointer or an integer among the copied bytes: the one float type the function
    accesses the objects with is then a field beside them (a closure's constant), not the copy's element."""
    view = copy_view((dst, src), infos_of, lambda p: set(), primal_functions, layout=layout)
    if view is None or any(not t.is_float and (nbytes is None or 0 <= o < nbytes) for o, t in view.facts.items()):
        return True
    for record, at in view.positions:  # inside a record: what it declares there
        declared = declared_scalars(record, layout)
        if declared is None or nbytes is None \
                or any(not t.is_float and at <= o < at + nbytes for o, t in declared.items()):
            return True
    return False

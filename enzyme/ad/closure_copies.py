"""Copies of a lambda's closure object inside the standard library (``std::function`` cloning its functor).

``std::function<...> f = lambda;`` keeps a heap copy of the closure, made by
``_Function_base::_Base_manager<Closure>::_M_create`` with ``llvm.memcpy`` at -O0; that helper is reached only
through the manager pointer stored in the ``std::function``, so type analysis knows nothing of the bytes.  The
closure's type is named in the helper's mangled name (``Z16lorenz_objectiveE3$_0``: clang's name of a lambda
in a function), and so is its call operator (``_ZZ16lorenz_objectiveENK3$_0clE...``): the operator's ``this``
is ``dereferenceable(<size of the closure>)`` and the operator reads every capture with its type (a pointer for
a capture by reference, the value's type for one by value).  A copy of exactly that many bytes from or to a
reference to the closure (an argument of the helper with the same size), a pointer loaded from memory (the
``_Functor*`` std::function keeps) or a new block moves those fields.  A capture the operator does not read
(a ``const double`` clang folds into the operator) is typed by the closure's record type, which the operator
indexes (``getelementptr %class.anon.2``); without that record, such bytes have no type and the copy stays refused.
"""
from __future__ import annotations

import re

from ..analysis import DataLayout, FunctionTypeInfo
from ..analysis.type_tree import ConcreteType
from ..ir import Argument, CallInst, Function, GEPInst, Instruction, LoadInst, Module, StructType, Value
from .copy_records import declared_scalars
from .copy_sites import InfosOf
from .copy_types import CopyLayout, checked_leaves

#: A lambda's call operator: ``_ZZ<scope>EN[K]<n>$_<k>cl...`` (scope and closure id).
_CALL_OPERATOR = re.compile(r"^_ZZ(?P<scope>.+?)EN(?:K)?(?P<id>\d+\$_\d+)cl")
_DEREFERENCEABLE = re.compile(r"\bdereferenceable\((\d+)\)")
_FLOAT_BYTES = {"double": 8, "float": 4, "half": 2, "bfloat": 2, "x86_fp80": 16, "fp128": 16}


def closure_copy_layout(infos: list[FunctionTypeInfo], dst: Value, src: Value, nbytes: int, layout: DataLayout,
                        infos_of: InfosOf) -> CopyLayout | None:
    """The layout of a copy of a whole closure object in a helper whose name names the closure type (None: not
    such a copy, or its call operators do not type every byte).  ``infos_of`` gives a call operator's analyses
    (its calling contexts, or its own alone when it is only called through ``std::function``'s invoker)."""
    fn = dst.function if isinstance(dst, (Argument, Instruction)) else None
    if not isinstance(fn, Function) or not isinstance(fn.module, Module) or not fn.name:
        return None
    if not all(_may_point_to_closure(p, nbytes) for p in (dst, src)):
        return None
    facts: dict[int, ConcreteType] = {}
    found = False
    for g in fn.module.functions:
        m = _CALL_OPERATOR.match(g.name or "")
        if g is fn or g.is_declaration or m is None or not _names_closure(fn.name, m["scope"], m["id"]):
            continue
        this = next((a for a in g.args if "sret" not in a.attrs), None)
        if this is None or _size_of(this) != nbytes:
            return None
        contexts = infos_of(g)
        if not contexts:
            return None
        for info in contexts:
            for path, t in info.pointee_tree(this):
                if len(path) != 1 or t.is_anything or not 0 <= path[0] < nbytes:
                    continue
                if facts.setdefault(path[0], t) != t:
                    return None
        record = _closure_record(g, nbytes, layout)
        for off, t in (record or {}).items():
            if facts.setdefault(off, t) != t:
                return None
        found = True
    if not found:
        return None
    return checked_leaves(infos, dst, src, nbytes, layout, facts, _padding(facts, nbytes))


def _closure_record(operator: Function, nbytes: int, layout: DataLayout) -> dict[int, ConcreteType] | None:
    """The scalar fields of the closure's record type (``%class.anon.N`` of ``nbytes`` bytes) as the call
    operator indexes it, or None."""
    for inst in operator.instructions():
        t = inst.source_type if isinstance(inst, GEPInst) else None
        if isinstance(t, StructType) and getattr(t, "name", "").startswith("class.anon") \
                and layout.alloc_size(t) == nbytes:
            return declared_scalars(t, layout)
    return None


def _padding(facts: dict[int, ConcreteType], nbytes: int) -> frozenset[int]:
    """The bytes no fact covers (a float or pointer covers its size, an integer fact one byte): alignment gaps
    between the closure's captures."""
    covered: set[int] = set()
    for off, t in facts.items():
        size = _FLOAT_BYTES.get(t.float_kind or "", nbytes) if t.is_float else 8 if t.is_pointer else 1
        covered.update(range(off, off + size))
    return frozenset(b for b in range(nbytes) if b not in covered)


def _may_point_to_closure(p: Value, nbytes: int) -> bool:
    """Is ``p`` a reference argument to an object of ``nbytes`` bytes (``_Functor const&``), a pointer loaded
    from memory (the ``_Functor*`` std::function keeps) or a new block (the heap copy being made)?  A copy of
    std::function's own ``_Any_data`` storage has reference arguments of its size (16 bytes)."""
    if isinstance(p, Argument):
        return _size_of(p) == nbytes
    if isinstance(p, LoadInst):
        return True
    return isinstance(p, CallInst) and p.callee_name in ("_Znwm", "_ZnwmSt11align_val_t", "malloc")


def _size_of(arg: Argument) -> int | None:
    m = _DEREFERENCEABLE.search(arg.attrs)
    return int(m.group(1)) if m else None


def _names_closure(name: str, scope: str, ident: str) -> bool:
    """Does the mangled ``name`` name the closure type ``Z<scope>E<ident>`` (not a longer identifier)?"""
    key = f"Z{scope}E{ident}"
    at = name.find(key)
    while at >= 0:
        end = at + len(key)
        if end == len(name) or not name[end].isdigit():
            return True
        at = name.find(key, at + 1)
    return False

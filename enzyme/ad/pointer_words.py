"""Pointers that libstdc++ moves as integers at -O0.

At -O0 the move constructor of ``std::unique_ptr``'s ``std::tuple`` and the ``std::function`` manager that stores
a small closure in its ``_Any_data`` copy pointers with an 8-byte ``memcpy``, which becomes ``load i64`` /
``store i64``.  Such a word moves like a pointer -- its shadow (the shadow slot's word) moves with it -- when
something proves it one and nothing says it may hold a float or an integer:

- type analysis meets it as a pointer (or as the address of known contents) in some calling contexts and as
  ``Anything`` in the others;
- the function is ``std::_Tuple_impl<0, T*, std::default_delete<...>>``'s move constructor moving the head from
  its source to itself (a ``unique_ptr``'s pointer: the template names it);
- the function is ``std::function``'s ``_M_create`` of a closure stored in place, and the closure's call operator
  reads the copied bytes as a pointer in every context (a ``[&x]`` capture: a reference).
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..analysis.type_info import FunctionTypeInfo
from ..analysis.type_offsets import gep_offset
from ..analysis.layout import DataLayout
from ..ir import Argument, CastInst, Function, GEPInst, LoadInst, Value

if TYPE_CHECKING:
    from .common import ADContext

_UNIQUE_HEAD_MOVE = re.compile(r"^_ZNSt11_Tuple_implILm0EJP.*St14default_deleteI.*EEEC[12]EOS\d*_$")
_CLOSURE_CREATE = re.compile(r"^_ZNSt14_Function_base13_Base_managerIZ(.+)E(\d+\$_\d+|Ul.*E\d*_)E9_M_createI.*EEv"
                             r"RSt9_Any_dataOT_St17integral_constantIbLb1EE$")


def pointer_word(ctx: "ADContext", fn: Function, infos: list[FunctionTypeInfo], load: LoadInst) -> bool:
    """Does the 64-bit integer ``load`` in ``fn`` move a pointer (see the module docstring)?"""
    if any(_met_non_pointer(info, (load, load.pointer)) for info in infos):
        return False
    tops = [info.top(load) for info in infos]
    if tops and all(t is not None and (t.is_pointer or t.is_anything) for t in tops) \
            and any((t is not None and t.is_pointer) or _dereferenced(info, load) for t, info in zip(tops, infos)):
        return True
    if any(t is not None and not t.is_anything for t in tops):
        return False
    name = fn.name or ""
    if _UNIQUE_HEAD_MOVE.match(name):
        return _argument_offset(load.pointer, fn, 1, DataLayout.of_module(ctx.module)) == 0
    m = _CLOSURE_CREATE.match(name)
    if m is not None:
        at = _argument_offset(load.pointer, fn, 1, DataLayout.of_module(ctx.module))
        return at is not None and _closure_reads_pointer(ctx, m.group(1), m.group(2), at)
    return False


def _argument_offset(p: Value, fn: Function, index: int, layout: DataLayout) -> int | None:
    """The constant offset of ``p`` from argument ``index`` of ``fn``, or None."""
    off = 0
    while isinstance(p, (GEPInst, CastInst)):
        if isinstance(p, GEPInst):
            const, strides = gep_offset(layout, p.source_type, list(p.operands[1:]))
            if strides:
                return None
            off += const
        p = p.operand(0)
    return off if isinstance(p, Argument) and p.function is fn and p.index == index else None


def _closure_reads_pointer(ctx: "ADContext", encoding: str, entity: str, at: int) -> bool:
    """Does the call operator of the closure type ``Z<encoding>E<entity>`` see a pointer at byte ``at`` of
    ``*this`` in every context type analysis has for it (and no other fact at those 8 bytes)?"""
    from .copy_types import function_contexts
    ops = [f for f in ctx.module.functions if not f.is_declaration and f.args
           and (f.name or "").startswith((f"_ZZ{encoding}ENK{entity}cl", f"_ZZ{encoding}EN{entity}cl"))]
    if len(ops) != 1:
        return False
    infos = function_contexts(ctx, ops[0])
    if not infos:
        return False
    for info in infos:
        facts = {path[0]: fact for path, fact in info.pointee_tree(ops[0].args[0]) if len(path) == 1}
        if not (facts.get(at) is not None and facts[at].is_pointer):
            return False
        if any(at < k < at + 8 for k in facts) or -1 in facts:
            return False
    return True


def _dereferenced(info: FunctionTypeInfo, load: LoadInst) -> bool:
    """Does type analysis know what the word loaded by ``load`` points to (facts below its bytes: an address)?"""
    return any(len(path) > 1 and path[0] == 0 for path, _ in info.pointee_tree(load.pointer))


def _met_non_pointer(info: FunctionTypeInfo, values: tuple[Value, ...]) -> bool:
    """Did type analysis record a float or an integer at the loaded bytes, or a conflict involving one?"""
    for c in info.conflicts:
        if c.value in values and any(t.is_float or t.is_integer for t in (c.old, c.new)):
            return True
    for path, fact in info.pointee_tree(values[1]):
        if len(path) == 1 and (path[0] == -1 or 0 <= path[0] < 8) and (fact.is_float or fact.is_integer):
            return True
    return False

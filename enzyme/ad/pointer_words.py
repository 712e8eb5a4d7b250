"""Pointers that libstdc++ moves as integers at -O0.

At -O0 the move constructors of ``std::unique_ptr`` (its ``std::tuple``), ``std::pair``, ``std::optional`` and
the ``std::function`` manager that stores a small closure in its ``_Any_data`` copy a pointer with an 8-byte
``memcpy``, which becomes ``load i64`` / ``store i64``.  Type analysis meets such a word as a pointer in the
calling contexts that construct it (or knows what it points to), and as ``Anything`` in contexts where what it holds is unconstrained
(a null or an opaque word); never as a float nor as an integer.  Such a word moves like a pointer: its shadow
(the shadow slot's word) moves with it.
"""
from __future__ import annotations

from ..analysis.type_info import FunctionTypeInfo
from ..ir import LoadInst, Value


def pointer_word(infos: list[FunctionTypeInfo], load: LoadInst) -> bool:
    """Is the 64-bit integer ``load`` a pointer in some calling context, and in every other one possibly any
    type (``Anything``) without a float or an integer having been met at its bytes?"""
    tops = [info.top(load) for info in infos]
    if not tops or not any((t is not None and t.is_pointer) or _dereferenced(info, load)
                           for t, info in zip(tops, infos)):
        return False
    if any(t is None or not (t.is_pointer or t.is_anything) for t in tops):
        return False
    return not any(_met_non_pointer(info, (load, load.pointer)) for info in infos)


def _dereferenced(info: FunctionTypeInfo, load: LoadInst) -> bool:
    """Does type analysis know what the word loaded by ``load`` points to (facts below its bytes: an address)?"""
    return any(len(path) > 1 and path[0] == 0 for path, _ in info.pointee_tree(load.pointer))


def _met_non_pointer(info: FunctionTypeInfo, values: tuple[Value, ...]) -> bool:
    """Did type analysis record a conflict involving a float or an integer on one of ``values``?"""
    for c in info.conflicts:
        if c.value in values and any(t.is_float or t.is_integer for t in (c.old, c.new)):
            return True
    for path, fact in info.pointee_tree(values[1]):
        if len(path) == 1 and 0 <= path[0] < 8 and (fact.is_float or fact.is_integer):
            return True
    return False

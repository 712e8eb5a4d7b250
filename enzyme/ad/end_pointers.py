"""The shadow of the end pointer that C's number parsers write (``strtod(s, &end)``).

``strtod``, ``strtol`` and the like are inactive, but they store a pointer into their text through their
second argument.  A parser that keeps its cursor in memory with a shadow (``p->s = end`` in a struct next to
active fields) then copies that cursor's shadow, and the derivative reads through it where the primal reads
a character (copying a name into a local buffer byte by byte).  Left alone, the end pointer's shadow would
keep whatever it held (null).  It is the text's shadow at the same offset: ``shadow(s) + (end - s)``.
"""
from __future__ import annotations

from collections.abc import Callable

from ..ir import CallInst, ConstantKeyword, Value
from ..ir.builder import Builder
from ..ir.types import I8, I64, PTR

#: C library parsers ``T f(const char *text, char **end, ...)``.
END_POINTER_PARSERS = frozenset({
    "strtol", "strtoll", "strtoul", "strtoull", "strtod", "strtof", "strtold", "strtoimax", "strtoumax",
    "__isoc23_strtol", "__isoc23_strtoll", "__isoc23_strtoul", "__isoc23_strtoull"})


def shadow_end_pointer(name: str | None, inst: CallInst, ni: CallInst, b: Builder,
                       shadow_of: Callable[[Value], Value | None]) -> None:
    """After ``ni`` (the clone of parser call ``inst``), store the end pointer's shadow where the call stored the
    end pointer, when the place it stored to has a shadow and the text has one."""
    if name not in END_POINTER_PARSERS or len(inst.args) < 2:
        return
    text, end_at = inst.args[0], inst.args[1]
    if isinstance(end_at, ConstantKeyword):
        return  # no end pointer asked for
    shadow_end_at, shadow_text = shadow_of(end_at), shadow_of(text)
    if shadow_end_at is None or shadow_text is None or isinstance(shadow_end_at, ConstantKeyword):
        return
    end = b.load(PTR, ni.args[1])
    offset = b.sub(b.cast("ptrtoint", end, I64), b.cast("ptrtoint", ni.args[0], I64))
    b.store(b.gep(I8, shadow_text, [offset]), shadow_end_at)

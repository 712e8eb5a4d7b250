"""Zeroed shadows for read-only text that a derivative stores a pointer to.

A parser keeps its cursor into a string literal in a struct (``Parser p = {"a * exp(-b * x)", ...}``) next to
active fields; the struct's shadow then holds the cursor's shadow, and the tangent code loads through it
wherever the primal loads a character (``*p->s == ' '``).  A string literal has no shadow, and a null shadow
pointer would be dereferenced.  Its shadow is a zeroed copy of the same size instead: a constant has no
derivative, so every byte read through it is zero, whatever it is later taken for.  Only constant globals
whose type holds no floating-point or pointer data (character and integer arrays) get one.
"""
from __future__ import annotations

from ..ir import ConstantKeyword, GlobalVariable, Module, Value
from ..ir.types import ArrayType, IntType, Type


def _integers_only(t: Type) -> bool:
    while isinstance(t, ArrayType):
        t = t.element
    return isinstance(t, IntType)


def zero_shadow_of_constant(module: Module, v: Value) -> GlobalVariable | None:
    """A zero-filled stand-in for the shadow of ``v`` when it is a constant global of integers (a string
    literal), made once per global; None otherwise."""
    if not isinstance(v, GlobalVariable) or not v.is_constant or not _integers_only(v.value_type):
        return None
    name = f"{v.name}.pyenzyme_zero_shadow"
    found = module.globals.get(name)
    if isinstance(found, GlobalVariable):
        return found
    s = GlobalVariable(name, v.value_type, initializer=ConstantKeyword(v.value_type, "zeroinitializer"),
                       prefix="private", type=v.type)
    module.add(s)
    return s

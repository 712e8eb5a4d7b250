"""Abstract memory objects: what a pointer may point to, as far as activity analysis cares.

One object stands for all the memory reachable from one argument of the
analysed function (its pointee and everything pointers stored there lead to),
one per ``alloca``, one per allocation call site, one per global variable, and
one for memory of unknown origin (``inttoptr``, pointers returned by unknown
functions).  Objects compare by identity.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..ir import Type, Value
from ..ir.types import ArrayType, PointerType, StructType, VectorType
from .debuginfo import value_name


@dataclass(eq=False)
class MemoryObject:
    """``kind``: argument, alloca, heap, global or unknown; ``annotation`` only for arguments."""

    kind: str
    origin: Value | None = None
    annotation: str | None = None

    @property
    def is_const_argument(self) -> bool:
        return self.kind == "argument" and self.annotation == "const"

    def label(self) -> str:
        if self.kind == "unknown":
            return "memory of unknown origin"
        assert self.origin is not None
        name = value_name(self.origin)
        if self.kind == "argument":
            return f"memory of argument {name} ({self.annotation})"
        if self.kind == "global":
            return f"global {name}"
        return f"{self.kind} {name}"

    def __repr__(self) -> str:
        return f"<MemoryObject {self.label()}>"


def type_has_pointer(t: Type) -> bool:
    """Can a value of this type hold an address (directly, not through memory)?"""
    if isinstance(t, PointerType):
        return True
    if isinstance(t, (VectorType, ArrayType)):
        return type_has_pointer(t.element)
    if isinstance(t, StructType):
        return any(type_has_pointer(e) for e in t.elements)
    return False

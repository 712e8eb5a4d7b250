"""The engine's vocabulary: argument activities and sweep modes.

``Activity`` members are strings (``Activity.ACTIVE == "out"``), so the
activity tuples that come from the C ABI markers and the Python API keep
working as dictionary keys, and error messages print the short names.
"""
from __future__ import annotations

from enum import Enum


class Activity(str, Enum):
    CONST = "const"           # no derivative
    ACTIVE = "out"            # a float whose adjoint is returned (reverse) or whose tangent is given (forward)
    DUP = "dup"               # a pointer with a shadow
    DUPNONEED = "dupnoneed"   # a pointer with a shadow; the primal result is not needed

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)

    @property
    def has_shadow(self) -> bool:
        return self in (Activity.DUP, Activity.DUPNONEED)


class Mode(Enum):
    FORWARD = "forward"       # tangents alongside the primal
    AUGMENTED = "augmented"   # the primal, shadows, and what the reverse sweep needs on the tape
    REVERSE = "reverse"       # adjoints, in reverse order


Activities = tuple[Activity, ...]


def activities_of(names: tuple[str, ...] | list[str]) -> Activities:
    """Activities from their short names (``const``, ``out``, ``dup``, ``dupnoneed``)."""
    return tuple(Activity(n) for n in names)

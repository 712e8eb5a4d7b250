"""What the analyses know about callees by name, read from the rule tables.

``call_kind(name)`` sorts a callee into the classes both analyses care about:

- ``inactive``: never carries derivatives: :func:`enzyme.rules.inactive_reason`
  (I/O, timers, debug/lifetime/assume intrinsics), or a rule whose partials are
  all zero (``floor``, ``lround``: the result is a constant to derivatives);
- ``rule``: has a derivative rule in :mod:`enzyme.rules` (behaves like arithmetic);
- ``alloc``/``calloc``/``realloc``/``free``/``copy``/``set``: memory functions
  of :data:`enzyme.rules.MEMORY`; :func:`memory_function` says which operand is
  which (``bcopy`` takes its source first);
- ``communication``: an MPI call with a derivative (:data:`enzyme.rules.mpi.MPI_CALLS`);
  :func:`communication_buffers` says which operands it sends and receives;
- ``unknown``: anything else (defined functions are the caller's business).

The engine reads the same tables, so the analyses and the engine cannot
disagree about what a name is.
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from ..rules import MemoryFunction, MemoryKind, inactive_reason, lookup, lookup_memory
from ..rules.mpi import datatype_kind, mpi_call
from ..rules.names import like_target

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..ir import Function, Value

# The analyses follow data only: a move is a copy to them.
_MEMORY_KINDS = {MemoryKind.COPY: "copy", MemoryKind.MOVE: "copy", MemoryKind.SET: "set",
                 MemoryKind.ALLOC: "alloc", MemoryKind.CALLOC: "calloc", MemoryKind.REALLOC: "realloc",
                 MemoryKind.FREE: "free", MemoryKind.INPUT: "set"}  # input: constant data, like memset

# Integer-only intrinsics: every integer operand and result is an Integer.
_INT_INTRINSICS = ("llvm.smax.", "llvm.smin.", "llvm.umax.", "llvm.umin.", "llvm.abs.", "llvm.ctpop.",
                   "llvm.ctlz.", "llvm.cttz.", "llvm.bswap.", "llvm.bitreverse.", "llvm.fshl.", "llvm.fshr.",
                   "llvm.sadd.", "llvm.uadd.", "llvm.ssub.", "llvm.usub.", "llvm.smul.", "llvm.umul.",
                   "llvm.scmp.", "llvm.ucmp.", "llvm.vector.reduce.add.", "llvm.vector.reduce.mul.",
                   "llvm.vector.reduce.and.", "llvm.vector.reduce.or.", "llvm.vector.reduce.xor.")

#: libm functions with integer or pointer operands: ``I`` Integer, ``F`` float, ``PI``/``PF``
#: pointer to Integer / to the float type, ``-`` nothing known.  First entry is the result.
_SIGNATURES: dict[str, tuple[str, ...]] = {
    "ldexp": ("F", "F", "I"), "scalbn": ("F", "F", "I"), "scalbln": ("F", "F", "I"), "powi": ("F", "F", "I"),
    "frexp": ("F", "F", "PI"), "modf": ("F", "F", "PF"), "sincos": ("-", "F", "PF", "PF"),
    "remquo": ("F", "F", "F", "PI"), "lgamma_r": ("F", "F", "PI"), "jn": ("F", "I", "F"), "yn": ("F", "I", "F"),
    "ilogb": ("I", "F"), "lround": ("I", "F"), "llround": ("I", "F"), "lrint": ("I", "F"), "llrint": ("I", "F"),
    "abs": ("I", "I"), "labs": ("I", "I"), "llabs": ("I", "I"),
    "strlen": ("I", "-"), "strcmp": ("I", "-", "-"), "strncmp": ("I", "-", "-", "I"),
}


@lru_cache(maxsize=8192)  # asked per call instruction and fixed-point pass; the tables never change
def call_kind(name: str | None) -> str:
    """``inactive``, ``rule``, ``alloc``, ``calloc``, ``realloc``, ``free``, ``copy``, ``set`` or ``unknown``."""
    if not name:
        return "unknown"
    mem = memory_kind(name)
    if mem is not None:
        return mem
    if inactive_reason(name) is not None:
        return "inactive"
    if mpi_call(name) is not None:
        return "communication"
    rule = lookup(name)
    if rule is not None:
        return "inactive" if rule.is_zero else "rule"
    return "unknown"


def communication_buffers(name: str | None, args: Sequence[Value]) -> list[tuple[Value, bool]]:
    """The buffers of an MPI call that may hold floating-point data, each with whether the call writes it (data
    from other ranks); buffers of an integer datatype (``MPI_INT``...) carry no derivative and are left out."""
    from ..ir import GlobalVariable, strip_pointer_casts

    spec = mpi_call(name)
    out: list[tuple[Value, bool]] = []
    for buf, dt in spec.buffers if spec is not None else ():
        handle = strip_pointer_casts(args[dt])
        if isinstance(handle, GlobalVariable) and datatype_kind(handle.name or "") == "integer":
            continue
        out.append((args[buf], buf in spec.written))  # type: ignore[union-attr]
    return out


@lru_cache(maxsize=8192)
def memory_function(name: str) -> MemoryFunction | None:
    """The operand roles of a memory function (:func:`enzyme.rules.lookup_memory`), else None."""
    return lookup_memory(name)


def memory_operand(args: Sequence[Value], index: int | None) -> Value | None:
    """Operand ``index`` of a memory-function call (a role of :class:`~enzyme.rules.MemoryFunction`), if present."""
    return args[index] if index is not None and index < len(args) else None


def memory_kind(name: str) -> str | None:
    """The :func:`call_kind` of a memory function, else None."""
    mf = lookup_memory(name)
    return _MEMORY_KINDS[mf.kind] if mf is not None else None


def is_integer_intrinsic(name: str) -> bool:
    return name.startswith(_INT_INTRINSICS)


def signature(name: str) -> tuple[str, ...] | None:
    """The :data:`_SIGNATURES` entry of a libm/libc name or its ``f``/``l`` variant or intrinsic."""
    name = like_target(name)
    if name.startswith("llvm."):
        base = name[5:].split(".")[0]
        return _SIGNATURES.get(base)
    sig = _SIGNATURES.get(name)
    if sig is None and name[-1:] in ("f", "l"):
        sig = _SIGNATURES.get(name[:-1])
    return sig


def pure_intrinsic(callee: "Function | None", args: "Sequence[Value]") -> bool:
    """An LLVM intrinsic without pointer operands cannot touch memory: it is arithmetic."""
    from .memory_objects import type_has_pointer
    return (callee is not None and (callee.name or "").startswith("llvm.") and callee.is_declaration
            and not any(type_has_pointer(a.type) for a in args))

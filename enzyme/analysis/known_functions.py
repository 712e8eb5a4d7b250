"""What the analyses know about callees by name.

``call_kind(name)`` sorts a callee into the classes both analyses care about:

- ``inactive``: never carries derivatives (I/O, timers, debug/lifetime/assume
  intrinsics, rounding functions); from ``enzyme.rules.inactive`` plus a
  fallback list of LLVM intrinsics;
- ``rule``: has a derivative rule in ``enzyme.rules`` (behaves like arithmetic);
- ``alloc``/``calloc``/``realloc``/``free``/``copy``/``set``: memory functions;
- ``unknown``: anything else (defined functions are the caller's business).

The rules package is imported lazily, so the analyses work while it grows.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..ir import Function, Value

# Intrinsics with no derivative effect, whatever the rules tables say.
_INACTIVE_INTRINSICS = (
    "llvm.dbg.", "llvm.lifetime.", "llvm.assume", "llvm.experimental.noalias.scope.decl", "llvm.invariant.",
    "llvm.var.annotation", "llvm.ptr.annotation", "llvm.annotation", "llvm.codeview.annotation", "llvm.expect",
    "llvm.donothing", "llvm.prefetch", "llvm.trap", "llvm.debugtrap", "llvm.ubsantrap", "llvm.is.constant",
    "llvm.stacksave", "llvm.stackrestore", "llvm.type.test", "llvm.public.type.test", "llvm.sideeffect",
    "llvm.pseudoprobe", "llvm.objectsize", "llvm.floor.", "llvm.ceil.", "llvm.trunc.", "llvm.rint.",
    "llvm.nearbyint.", "llvm.round.", "llvm.roundeven.", "llvm.lround.", "llvm.llround.", "llvm.lrint.",
    "llvm.llrint.", "llvm.nvvm.barrier", "llvm.nvvm.membar", "llvm.nvvm.read.ptx.sreg.",
    "llvm.amdgcn.s.barrier", "llvm.amdgcn.workitem.id.", "llvm.amdgcn.workgroup.id.", "llvm.is.fpclass.",
    "llvm.threadlocal.address", "llvm.experimental.ptrmask", "llvm.launder.invariant.group",
    "llvm.strip.invariant.group",
)
_INACTIVE_NAMES = frozenset({
    "printf", "fprintf", "puts", "putchar", "abort", "exit", "__assert_fail", "floor", "floorf", "floorl",
    "ceil", "ceilf", "ceill", "trunc", "truncf", "truncl", "round", "roundf", "roundl", "rint", "rintf",
    "rintl", "nearbyint", "nearbyintf", "nearbyintl", "lround", "lroundf", "llround", "lrint", "llrint",
    "__enzyme_integer", "__enzyme_pointer", "__enzyme_float", "__enzyme_double",
})
_MEMORY = {
    "malloc": "alloc", "_Znwm": "alloc", "_Znam": "alloc", "_ZnwmSt11align_val_t": "alloc",
    "_ZnamSt11align_val_t": "alloc", "aligned_alloc": "alloc", "valloc": "alloc", "memalign": "alloc",
    "__rust_alloc": "alloc", "__rust_alloc_zeroed": "calloc", "calloc": "calloc",
    "realloc": "realloc", "__rust_realloc": "realloc",
    "free": "free", "_ZdlPv": "free", "_ZdaPv": "free", "_ZdlPvm": "free", "_ZdaPvm": "free",
    "_ZdlPvSt11align_val_t": "free", "_ZdlPvmSt11align_val_t": "free", "__rust_dealloc": "free",
    "memcpy": "copy", "memmove": "copy", "__memcpy_chk": "copy", "__memmove_chk": "copy",
    "memset": "set", "__memset_chk": "set",
}
_MEMORY_PREFIXES = (("llvm.memcpy.", "copy"), ("llvm.memmove.", "copy"), ("llvm.memcpy.inline.", "copy"),
                    ("llvm.memset.", "set"), ("llvm.memset.inline.", "set"))

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


def _optional(module: str, attr: str) -> Any:
    try:
        return getattr(importlib.import_module(module), attr, None)
    except ImportError:
        return None


def call_kind(name: str | None) -> str:
    """``inactive``, ``rule``, ``alloc``, ``calloc``, ``realloc``, ``free``, ``copy``, ``set`` or ``unknown``."""
    if not name:
        return "unknown"
    name = _resolved(name)
    mem = memory_kind(name)
    if mem is not None:
        return mem
    if is_inactive(name):
        return "inactive"
    if has_rule(name):
        return "rule"
    return "unknown"


def _resolved(name: str) -> str:
    """The name the tables know a proxied call by (enzyme.driver.proxies): ``exp`` for a function like exp."""
    like = _optional("enzyme.rules.names", "like_target")
    return str(like(name)) if callable(like) else name


def memory_kind(name: str) -> str | None:
    parts = _optional("enzyme.rules.names", "proxy_parts")
    proxy = parts(name) if callable(parts) else None
    if proxy is not None:  # an allocation_like allocator or its deallocator
        return proxy[0]
    for prefix, kind in _MEMORY_PREFIXES:
        if name.startswith(prefix):
            return kind
    table_kind = _MEMORY.get(name)
    if table_kind is not None:
        return table_kind
    lookup = _optional("enzyme.rules.memory", "memory_kind")
    if callable(lookup):
        k = lookup(name)
        if k in ("alloc", "calloc", "realloc", "free", "copy", "set"):
            return str(k)
    return None


def is_inactive(name: str) -> bool:
    if name in _INACTIVE_NAMES or name.startswith(_INACTIVE_INTRINSICS):
        return True
    known = _optional("enzyme.rules.inactive", "is_known_inactive")
    return bool(known(name)) if callable(known) else False


def has_rule(name: str) -> bool:
    lookup = _optional("enzyme.rules", "lookup")
    if not callable(lookup):
        return False
    try:
        return lookup(name) is not None
    except (KeyError, ValueError):
        return False


def is_integer_intrinsic(name: str) -> bool:
    return name.startswith(_INT_INTRINSICS)


def signature(name: str) -> tuple[str, ...] | None:
    """The :data:`_SIGNATURES` entry of a libm/libc name or its ``f``/``l`` variant or intrinsic."""
    name = _resolved(name)
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

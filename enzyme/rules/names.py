"""Callee-name normalisation shared by the rule tables.

LLVM names overloaded intrinsics ``llvm.<name>.<type>...`` (``llvm.sin.v2f64``,
``llvm.powi.f64.i32``, ``llvm.memcpy.p0.p0.i64``); libm names each function
once per type (``sin``, ``sinf``, ``sinl``, ``sinf128``).  The tables are keyed
by the type-free name; these helpers find it.
"""
from __future__ import annotations

import re

# One overload-suffix component: a scalar type (f64, i32, p0, bf16, ...) or a
# fixed/scalable vector of one (v2f64, nxv4f32, v2i32).
_TYPE_PART = re.compile(r"(?:(?:nx)?v\d+)?(?:f16|bf16|f32|f64|f80|f128|ppcf128|i\d+|p\d+)")

# libm type suffixes: none first (a known name is never stripped: ``erf``), then
# longest first so that ``sinf32x`` is not read as ``sinf32`` + ``x``.
_LIBM_TYPE_SUFFIXES = ("", "f128", "f64x", "f32x", "f64", "f32", "f16", "f", "l")


def intrinsic_base(name: str) -> str | None:
    """``llvm.powi.f64.i32`` -> ``powi``; ``llvm.lifetime.start.p0`` -> ``lifetime.start``; None if not ``llvm.*``."""
    if not name.startswith("llvm."):
        return None
    parts = name[5:].split(".")
    while len(parts) > 1 and _TYPE_PART.fullmatch(parts[-1]):
        parts.pop()
    return ".".join(parts)


def libm_base(name: str, known: frozenset[str] | set[str]) -> str | None:
    """The double-precision name in ``known`` that ``name`` is a type variant of, if any.

    ``sinf``, ``sinl``, ``sinf128``, ``sinf64x`` -> ``sin``; ``erf`` stays ``erf``
    (a known name is never stripped), ``erff`` -> ``erf``; glibc's
    ``__sin_finite``/``__sinf_finite`` aliases (``-ffinite-math-only`` with
    old headers) map like ``sin``/``sinf``.
    """
    if name.startswith("__") and name.endswith("_finite"):
        name = name[2:-len("_finite")]
    for suffix in _LIBM_TYPE_SUFFIXES:
        if name.endswith(suffix):
            base = name[:len(name) - len(suffix)] if suffix else name
            if base in known:
                return base
    return None


# rustc (1.9x, v0 mangling) names its allocator shims `rustc::__rust_alloc`:
# _RNvCs<hash>_7___rustc12___rust_alloc.
_RUSTC_SHIM = re.compile(r"_RNvC(?:s[0-9A-Za-z]*_)?7___rustc(\d+)_(\w+)")


def rust_shim_name(name: str) -> str:
    """``_RNvCs.._7___rustc12___rust_alloc`` -> ``__rust_alloc``; other names unchanged."""
    m = _RUSTC_SHIM.fullmatch(name)
    if m is None or int(m.group(1)) != len(m.group(2)):
        return name
    return m.group(2)


# Calls redirected by the driver (enzyme.driver.proxies) so that the tables treat them as calls of
# another function: ``__pyenzyme_like:<name>:<fn>`` (fn declared like <name>), and the allocators and
# deallocators of ``__enzyme_allocation_like``: ``__pyenzyme_alloc:<size index>:<fn>``,
# ``__pyenzyme_free:<block index>:<fn>``.
LIKE, ALLOC, FREE = "__pyenzyme_like:", "__pyenzyme_alloc:", "__pyenzyme_free:"


def proxy_name(kind: str, detail: str | int, fn_name: str) -> str:
    """The name of a proxy of ``kind`` (LIKE, ALLOC or FREE) for function ``fn_name``."""
    return f"{kind}{detail}:{fn_name}"


def like_target(name: str) -> str:
    """``__pyenzyme_like:exp:my_exp`` -> ``exp``; every other name unchanged."""
    if not name.startswith(LIKE):
        return name
    return name[len(LIKE):].split(":", 1)[0]


def proxied_function(name: str) -> str:
    """The name of the function a proxy stands for (``my_exp`` for ``__pyenzyme_like:exp:my_exp``)."""
    if name.startswith((LIKE, ALLOC, FREE)):
        return name.split(":", 2)[2]
    return name


def proxy_parts(name: str) -> tuple[str, int, str] | None:
    """(``alloc`` or ``free``, operand index, original function name) of an allocation proxy, else None."""
    for prefix, kind in ((ALLOC, "alloc"), (FREE, "free")):
        if name.startswith(prefix):
            index, _, original = name[len(prefix):].partition(":")
            return kind, int(index), original
    return None

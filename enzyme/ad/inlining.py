"""Which generated functions LLVM inlines before it optimizes them (``alwaysinline``).

LLVM's O2 inlines bottom-up: the augmented and reverse sweeps are optimized as functions of their own,
inlined into the derivative, optimized there again, and once more after the derivative is inlined into
its caller -- every small derivative's code went through the function passes three times.  Marked
``alwaysinline``, the small ones are inlined first and optimized once, in their caller: the same code
for about 40% less O2 time on benchmarks/bench_build_scaling.py's 100 kernels.

Only functions called from exactly one place, in a function for the same target, are marked (a derivative requested at many call sites is
not copied into each), not large ones (instruction scheduling and register allocation grow faster than a
function's size), and not those that call a defined function not itself marked: the marked functions
form no cycle, so recursion stays a call.
"""
from __future__ import annotations

from collections.abc import Iterable

from ..ir import CallInst, Function
from ..ir.target_attributes import target_attributes

#: Generated functions of at most this many instructions are inlined before optimization.
INLINE_LIMIT = 2000
_ALWAYS_INLINE = "alwaysinline"
_RUNTIME_PREFIX = "__pyenzyme_"  # the tape's helpers: inlined or leaves, never recursive


def inline_small_functions(generated: Iterable[Function]) -> None:
    """Mark ``alwaysinline`` each generated function that is small and calls, among defined functions,
    only marked ones (to a fixed point: callees are marked first)."""
    candidates = [f for f in generated if f.blocks and not (f.name or "").startswith(_RUNTIME_PREFIX)
                  and _called_once(f) and sum(len(b.instructions) for b in f.blocks) <= INLINE_LIMIT]
    marked: set[Function] = set()
    changed = True
    while changed:
        changed = False
        for f in candidates:
            if f not in marked and all(_inlined_or_opaque(c, marked) for c in _callees(f)):
                marked.add(f)
                changed = True
    for f in marked:
        if _ALWAYS_INLINE not in f.suffix.split():
            f.suffix = f"{_ALWAYS_INLINE} {f.suffix}".strip()


def _called_once(f: Function) -> bool:
    """Is ``f`` used exactly once, as the callee of a call in a function compiled for the same target?
    (LLVM's always-inliner would put AVX code of a ``target("avx")`` derivative into a caller that
    cannot select it.)"""
    uses = list(f.uses)
    if len(uses) != 1:
        return False
    call = uses[0].user
    if not (isinstance(call, CallInst) and call.called_function is f and call.parent is not None):
        return False
    caller = call.parent.parent
    return isinstance(caller, Function) and target_attributes(caller) == target_attributes(f)


def _callees(f: Function) -> Iterable[Function]:
    for b in f.blocks:
        for inst in b.instructions:
            if isinstance(inst, CallInst):
                callee = inst.called_function
                if callee is not None:
                    yield callee


def _inlined_or_opaque(callee: Function, marked: set[Function]) -> bool:
    return not callee.blocks or callee in marked or (callee.name or "").startswith(_RUNTIME_PREFIX)

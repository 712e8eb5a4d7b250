"""Allocator wrappers: functions that return memory they (or their callees) just allocated.

``Mat *mat_new(int n) { Mat *m = malloc(...); m->data = malloc(...); return m; }``
takes no active argument, yet what it returns must get a shadow, exactly as a
``malloc`` written in place would: the caller stores derivatives through it
(``matmul(A, B, mat_new(n))``) or links it into shadowed memory.  So a call
of a wrapper goes through the callee's derivative even when every argument
is constant, and that derivative returns the shadow beside the pointer.

A function is a wrapper when every pointer it returns comes from an
allocation (malloc, calloc, operator new, ...), from a call of another
wrapper (recursion included), or is null -- through GEPs, casts, phis and
selects; a struct returned by value (``Mat mat_alloc(int n)``) qualifies
when every pointer in it does.  Anything else (an argument, a global, a
loaded pointer) may be constant memory, which has no shadow to return.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

from ..ir import (CallInst, CastInst, ConstantKeyword, Function, GEPInst, InsertValueInst, PhiInst, ReturnInst,
                  SelectInst, Value)
from ..ir.types import PointerType
from .aggregate_shadows import holds_pointers
from ..errors import DifferentiationError
from .common import ADContext, is_inline_asm, memory_function

_FRESH_KINDS = ("alloc", "calloc")


def returns_fresh_memory(ctx: ADContext, fn: Function) -> bool:
    """Does ``fn`` (with a body) return pointers only to memory allocated during the call (or null)?"""
    analyzed = ctx.memo.get(("allocator-analysis",))
    if ctx.allocators is None or analyzed is None or fn not in analyzed:
        # First use, or ``fn`` was made since (the direct wrapper of ``malloc`` that an indirect call's
        # dispatcher calls when malloc is the user's allocator): analyze the module as it is now.
        functions = ctx.module.functions
        ctx.allocators = _allocators(functions)
        ctx.memo[("allocator-analysis",)] = set(functions)
    return fn in ctx.allocators


def _allocators(functions: Iterable[Function]) -> set[Function]:
    """The greatest set of wrappers: assume every candidate is one, drop those returning anything else."""
    returns = {f: [i.value for i in f.instructions() if isinstance(i, ReturnInst) and i.value is not None]
               for f in functions if not f.is_declaration and holds_pointers(f.return_type)}
    wrappers = {f for f, values in returns.items() if values}
    changed = True
    while changed:
        changed = False
        for f in list(wrappers):
            if not all(_fresh(v, wrappers, set()) for v in returns[f]):
                wrappers.discard(f)
                changed = True
    return wrappers


def _fresh(v: Value, wrappers: set[Function], seen: set[Value]) -> bool:
    if v in seen:
        return True  # a phi cycle: decided by its other incoming values
    seen.add(v)
    if isinstance(v, ConstantKeyword):
        return v.keyword in ("null", "undef", "poison", "zeroinitializer")
    if isinstance(v, InsertValueInst):  # a struct returned by value: every pointer in it
        agg, val = v.operands
        return _fresh(agg, wrappers, seen) and (not holds_pointers(val.type) or _fresh(val, wrappers, seen))
    if isinstance(v, (GEPInst, CastInst)) and isinstance(v.operand(0).type, PointerType):
        return _fresh(v.operand(0), wrappers, seen)
    if isinstance(v, PhiInst):
        return all(_fresh(x, wrappers, seen) for x, _ in v.incoming)
    if isinstance(v, SelectInst):
        return _fresh(v.operand(1), wrappers, seen) and _fresh(v.operand(2), wrappers, seen)
    if isinstance(v, CallInst):
        mf = memory_function(v.callee_name or "")
        if mf is not None:
            return mf.kind.value in _FRESH_KINDS
        return v.called_function in wrappers
    return False


def is_allocator_call(ctx: ADContext, inst: CallInst) -> bool:
    """A direct call of an allocator wrapper (see the module docstring), or a call through a pointer that
    may reach an allocator (``malloc`` passed as the user's allocator): its result needs a shadow."""
    f = inst.called_function
    if f is None:
        if inst.callee_name is not None or is_inline_asm(inst) or not holds_pointers(inst.type):
            return False
        from .indirect import candidates  # the dispatcher's candidates (indirect.py imports this module's users)
        return any(returns_fresh_memory(ctx, body) for _, body in _candidates_or_none(candidates, ctx, inst))
    return memory_function(f.name or "") is None and returns_fresh_memory(ctx, f)


def _candidates_or_none(candidates: Callable[[ADContext, CallInst], list[tuple[Function, Function]]],
                        ctx: ADContext, inst: CallInst) -> list[tuple[Function, Function]]:
    try:
        return candidates(ctx, inst)
    except DifferentiationError:  # no candidate at all: nothing to allocate (the call is refused where it matters)
        return []

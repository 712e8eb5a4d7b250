"""Pointers to code: a function pointer needs no shadow.

Indirect calls find their derivative through the primal pointer (``indirect.py``), so storing a function pointer
into memory with a shadow loses nothing when the shadow gets null (``common.unshadowed_pointer_store_error``).  A
function constant is recognised there; this module recognises the parameters that always receive one, such as
``std::valarray::apply``'s ``double (*)(double)`` handed down through the constructors of libstdc++'s expression
objects (``_ValFunClos``, ``_FunBase``).
"""
from __future__ import annotations

from collections.abc import Collection

from ..ir import Argument, CallInst, ConstantExpr, Function, Value
from .common import ADContext
from .copy_types import analyzed_functions, function_contexts, points_to_no_floats


def always_function(v: Value, program: Collection[Function], depth: int = 6) -> bool:
    """Is ``v`` a parameter that every call of its function in ``program`` (the primal functions; derivatives
    generated so far mirror their calls) passes a function, or such a parameter of the caller?  False where the
    function's address is taken: it may be called from anywhere."""
    if not isinstance(v, Argument) or depth == 0 or not isinstance(v.function, Function):
        return False
    f = v.function
    calls = []
    for u in f.uses:
        c = u.user
        if not isinstance(c, CallInst) or c.callee is not f:
            return False
        if c.function in program:
            calls.append(c)
    if not calls:
        return False
    for c in calls:
        a = c.args[v.index] if v.index < len(c.args) else None
        while isinstance(a, ConstantExpr) and a.operands:
            a = a.operands[0]
        if not (isinstance(a, Function) or (a is not None and always_function(a, program, depth - 1))):
            return False
    return True


def needs_no_shadow(ctx: ADContext, fn: Function, p: Value) -> bool:
    """May the pointer ``p`` (in ``fn``) take a null shadow: type analysis knows no floating-point bytes where it
    points, or it is a code pointer?"""
    return points_to_no_floats(function_contexts(ctx, fn), p) or always_function(p, analyzed_functions(ctx))

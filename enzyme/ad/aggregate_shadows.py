"""Shadows of struct and array values that hold pointers.

A C struct returned or passed by value (``Mat view(Mat m, ...)`` with
``typedef struct { int n, stride; double *data; } Mat``) travels as an LLVM
aggregate, ``{ i64, ptr }``.  Its pointer fields need shadows just like
pointer values do, or code that follows ``v.data`` after the call would read
and write constant memory and lose the derivative without a word.  So such
an aggregate has a shadow of the same type whose pointer leaves are the
shadows of its pointers (the other leaves are zero: integers have no
derivative, and float adjoints live in the reverse sweep's adjoint slots,
float tangents in forward mode's tangent of the aggregate).

When a shadow must be made for an aggregate (or pointer) that has none, its
pointer leaves become null; ``null_shadow_error`` says whether that loses
derivatives.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator

from ..errors import DifferentiationError
from ..ir import ConstantKeyword, InsertValueInst, Instruction, StoreInst, Value
from ..ir.types import ArrayType, PointerType, StructType, Type
from .common import describe, unshadowed_pointer_store_error


def holds_pointers(t: Type) -> bool:
    """Is ``t`` a pointer, or a struct/array with a pointer somewhere inside?"""
    if isinstance(t, PointerType):
        return True
    if isinstance(t, StructType):
        return any(holds_pointers(e) for e in t.elements)
    if isinstance(t, ArrayType):
        return holds_pointers(t.element)
    return False


def pointer_paths(t: Type, prefix: tuple[int, ...] = ()) -> Iterator[tuple[int, ...]]:
    """Index paths (for extractvalue) of the pointer leaves of an aggregate type."""
    if isinstance(t, PointerType):
        yield prefix
    elif isinstance(t, StructType):
        for i, e in enumerate(t.elements):
            yield from pointer_paths(e, (*prefix, i))
    elif isinstance(t, ArrayType):
        for i in range(t.count):
            yield from pointer_paths(t.element, (*prefix, i))


def null_shadow_error(inst: Instruction, v: Value, float_free: Callable[[Value], bool]) -> DifferentiationError | None:
    """Why giving ``v`` (a pointer or an aggregate holding pointers, without a shadow) null shadows is wrong.

    None when every pointer in it is null, a constant, or points to memory
    that holds no floating-point data (``float_free``, from type analysis).
    Aggregates are followed through the ``insertvalue`` chain that built
    them; one that comes from elsewhere (loaded from constant memory,
    returned by an unseen function) cannot be checked and is refused.
    """
    if isinstance(v, ConstantKeyword):
        return None
    if isinstance(v.type, PointerType):
        error = unshadowed_pointer_store_error(inst, v, float_free)
        if error is None or isinstance(inst, StoreInst):
            return error
        return DifferentiationError(
            f"{describe(inst)}: a pointer to memory that has no shadow (constant memory: a global, an enzyme_const "
            "argument) is returned or put into a struct beside pointers that have one, so derivatives that later "
            "follow it would be lost; pass that memory as enzyme_dup (Duplicated in Python)")
    if isinstance(v, InsertValueInst):
        agg, val = v.operands
        if holds_pointers(val.type):
            error = null_shadow_error(inst, val, float_free)
            if error is not None:
                return error
        return null_shadow_error(inst, agg, float_free)
    return DifferentiationError(
        f"{describe(inst)}: a {v.type} holding pointers, with no shadow (it comes from constant memory or code "
        "that is not differentiated), meets values that have one, so derivatives that later follow its pointers "
        "would be lost; pass that memory as enzyme_dup (Duplicated in Python)")

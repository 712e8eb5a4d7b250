"""Calls of pointer-structure functions (rules.mirrored: std::map's red-black tree code): the same call on the shadows.

The primal call relinks or walks the primal nodes; the shadow call, made with the shadows of the pointer
arguments (the other arguments as they are), does the same to the shadow nodes, so the shadow structure keeps
the primal's shape and a walk's shadow result is the shadow of the primal result.  That needs a shadow for
every pointer argument: a tree whose nodes have shadows but whose header has none (or the reverse) cannot be
kept in step, and is refused.  Forward mode and the augmented sweep call; the reverse sweep does nothing.
"""
from __future__ import annotations

from collections.abc import Callable

from ..errors import DifferentiationError
from ..ir import CallInst, Value
from ..ir.builder import Builder
from ..ir.types import PointerType
from ..rules.mirrored import MIRRORED, SHADOWED_ARGUMENTS
from .common import describe, is_null_pointer, value_name


def mirror_call(inst: CallInst, ni: CallInst, b: Builder, shadow_of: Callable[[Value], Value | None],
                suffix: str) -> Value | None:
    """Emit the shadow call of ``inst`` (clone ``ni``) after it; its result, if the call returns a pointer.

    None, emitting nothing, when no pointer argument has a shadow (the structure holds nothing active)."""
    pointers = [k for k, a in enumerate(inst.args) if isinstance(a.type, PointerType)]
    pointers = list(SHADOWED_ARGUMENTS.get(inst.callee_name or "", pointers))
    shadows = {k: shadow_of(inst.args[k]) for k in pointers}
    if all(s is None for s in shadows.values()):
        return None
    c = ni.clone()
    for k in pointers:
        a, s = inst.args[k], shadows[k]
        if s is None and not is_null_pointer(a):
            raise DifferentiationError(
                f"{describe(inst)}: {MIRRORED[inst.callee_name or '']} is given nodes with shadows and argument "
                f"{k + 1} without one, so the shadow structure (where the derivatives of the values in it are "
                "kept) cannot be kept the same shape as the primal; give the whole container a shadow "
                "(enzyme_dup) or none")
        c.set_operand(k, a if s is None else s)
    call = b.insert(c, value_name(inst, suffix) if isinstance(inst.type, PointerType) else None)
    return call if isinstance(inst.type, PointerType) else None

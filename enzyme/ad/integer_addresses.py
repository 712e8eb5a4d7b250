"""Shadows of pointers made from integers (``inttoptr``), in both modes.

An integer computed from ``(uintptr_t)p`` by offsets, alignment rounding or
width changes points into p's object, so the shadow of ``inttoptr`` of it is
at the same byte offset in p's shadow.  The generated code keeps, for every
such integer ``a``, its *displacement* ``d(a)``: the distance from the primal
to the shadow address (``(uintptr_t)p' - (uintptr_t)p`` where the chain starts;
0 for a constant address such as null or a non-null "dangling" sentinel,
whose shadow is itself).  The shadow of ``inttoptr a`` is then
``inttoptr (a + d(a))``.

Each displacement is defined next to the value it belongs to (a phi of
displacements beside an address phi, a select beside a select), so it is
available wherever the address is.  Computing the shadow at the ``inttoptr``
from the origin pointer directly would not be: when the address reaches it
through a phi, e.g. ``vec![0.0; n]`` whose pointer is an allocation on one path
and a dangling constant on the other, the allocation and its shadow do not
dominate the ``inttoptr``.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import DifferentiationError
from ..ir import ConstantInt, ConstantKeyword, Instruction, PhiInst, Value
from ..ir.builder import Builder, InsertPoint
from ..ir.types import IntType
from .common import address_origins, describe, keeps_address

_WIDTH_CHANGES = frozenset({"zext", "sext", "trunc"})


class AddressDisplacements:
    """Displacements of one lane's shadows, for the integers that ``inttoptr`` instructions use.

    ``clone_of`` maps an original value to the derivative function's copy;
    ``shadow_of`` gives the shadow of an original pointer, or None;
    ``may_be_shadowed`` answers for pointers whose shadow may not be made yet
    (defined later in a loop than a phi that uses their address).
    Call :meth:`finish` once every instruction has its clone and shadows:
    it fills the incoming values of the displacement phis.
    """

    def __init__(self, clone_of: Callable[[Value], Any], shadow_of: Callable[[Value], Value | None],
                 may_be_shadowed: Callable[[Value], bool]) -> None:
        self.clone_of = clone_of
        self.shadow_of = shadow_of
        self.may_be_shadowed = may_be_shadowed
        self.memo: dict[Value, Value | None] = {}
        self.pending: list[tuple[PhiInst, PhiInst, Instruction]] = []

    def shadow(self, inttoptr: Instruction, b: Builder, name: str | None) -> Value | None:
        """The shadow of ``inttoptr`` (original), emitted with ``b`` after its clone; None without one."""
        address = inttoptr.operand(0)
        d = self.of(address, inttoptr)
        if d is None:
            return None
        moved = b.add(self.clone_of(address), d)
        return b.cast("inttoptr", moved, inttoptr.type, name=name)

    def of(self, v: Value, at: Instruction) -> Value | None:
        """``d(v)`` (a value available wherever v's clone is), or None when v does not address shadowed memory."""
        if v in self.memo:
            return self.memo[v]
        d = self._compute(v, at)
        self.memo[v] = d
        return d

    def finish(self) -> None:
        while self.pending:
            phi, dphi, at = self.pending.pop()
            kept = {blk for _, blk in self.clone_of(phi).incoming}
            for v, blk in phi.incoming:
                if self.clone_of(blk) in kept:  # (incoming from unreachable blocks are not cloned)
                    dphi.add_incoming(self._or_zero(self.of(v, at), v, phi, at), self.clone_of(blk))

    # -- building ------------------------------------------------------------------------
    def _compute(self, v: Value, at: Instruction) -> Value | None:
        if not isinstance(v, Instruction) or not isinstance(v.type, IntType):
            return None
        clone = self.clone_of(v)
        if v.opcode == "ptrtoint":
            shadow = self.shadow_of(v.operand(0))
            if shadow is None:
                return None
            b = Builder(InsertPoint.after_inst(clone))
            return b.sub(b.cast("ptrtoint", shadow, v.type), clone)
        if isinstance(v, PhiInst):
            if not address_origins(v, self.may_be_shadowed):
                return None
            dphi = Builder(InsertPoint.before_inst(clone)).phi(v.type)
            self.memo[v] = dphi  # before the incoming values: a loop leads back here
            self.pending.append((v, dphi, at))
            return dphi
        if v.opcode == "select":
            a, c = v.operand(1), v.operand(2)
            da, dc = self.of(a, at), self.of(c, at)
            if da is None and dc is None:
                return None
            b = Builder(InsertPoint.after_inst(clone))
            return b.select(self.clone_of(v.operand(0)), self._or_zero(da, a, v, at), self._or_zero(dc, c, v, at))
        if v.opcode in _WIDTH_CHANGES:
            d = self.of(v.operand(0), at)
            if d is None:
                return None
            # A displacement is a signed distance: widen it by sign.
            opcode = "trunc" if v.opcode == "trunc" else "sext"
            return Builder(InsertPoint.after_inst(clone)).cast(opcode, d, v.type)
        if keeps_address(v):  # offsets and alignment rounding: the displacement stays
            ds = [self.of(x, at) for x in v.operands]
            carrying = [i for i, d in enumerate(ds) if d is not None]
            if not carrying:
                return None
            if len(carrying) > 1:
                raise DifferentiationError(
                    f"{describe(at)}: an address computed from several pointers to memory with shadows; "
                    "its shadow is ambiguous. Use pointer arithmetic on one pointer")
            if v.opcode == "sub" and carrying != [0]:  # k - p: not an address in p's object
                raise DifferentiationError(
                    f"{describe(at)}: an address computed by subtracting the address of memory with a shadow "
                    "points outside it; its shadow is unknown. Use pointer arithmetic on one pointer")
            return ds[carrying[0]]
        return None

    def _or_zero(self, d: Value | None, v: Value, merge: Instruction, at: Instruction) -> Value:
        """``d``, or 0 for a constant address merged with shadowed ones at ``merge``."""
        if d is not None:
            return d
        if isinstance(v, (ConstantInt, ConstantKeyword)):
            return ConstantInt(v.type, 0)
        raise DifferentiationError(
            f"{describe(at)}: its address is, on some paths ({describe(merge)}), an integer that does not come "
            "from a pointer to memory with a shadow (a loaded or passed integer, or memory without a shadow); "
            "the shadow is unknown there. Keep the pointer a pointer")

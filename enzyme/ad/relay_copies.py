"""Copies through a stack temporary that only relays bytes from one place to another.

libstdc++'s ``std::pop_heap``, inlined at -O3, moves the last element out of a heap in two parts: the first
field by a load, the other bytes by ``memcpy(tmp, end - 16, 16)`` into a ``[16 x i8]`` alloca, and later
``memcpy(hole + 8, tmp, 16)``.  The temporary is never accessed with a type, and the source is addressed from
the vector's end pointer, so neither copy's bytes are typed on the temporary's side; but the bytes that leave
the temporary are those that entered it.  When an alloca is written by exactly one copy and read by exactly
one copy, both of its whole size at its start (and otherwise only has lifetime markers), the layout of one
copy is that of the other, which its far end may type (an element of an array of records at a known offset).
"""
from __future__ import annotations

from ..analysis import DataLayout
from ..ir import AllocaInst, CallInst, ConstantInt, Value


def _copy_args(inst: object) -> tuple[Value, Value, int] | None:
    """(dst, src, constant length) of an ``llvm.memcpy``/``llvm.memmove`` call, else None."""
    if not isinstance(inst, CallInst):
        return None
    callee = inst.called_function
    name = getattr(callee, "name", "") or ""
    if not name.startswith(("llvm.memcpy.", "llvm.memmove.")) or not isinstance(inst.args[2], ConstantInt):
        return None
    return inst.args[0], inst.args[1], inst.args[2].value


def relay_partner(inst: CallInst, dst: Value, src: Value, nbytes: int | None,
                  layout: DataLayout) -> tuple[CallInst, Value, Value] | None:
    """The other copy ``(call, dst, src)`` through the relay temporary that ``inst`` writes or reads, or None.

    The temporary must be an alloca of exactly ``nbytes`` bytes, whose only uses are lifetime markers, this
    copy and one other copy of the same length in the other direction, both at the alloca itself."""
    if nbytes is None:
        return None
    for tmp, writes in ((dst, True), (src, False)):
        if not isinstance(tmp, AllocaInst) or (dst is src):
            continue
        if tmp.operands or layout.alloc_size(tmp.allocated_type) != nbytes:  # an array count: not one object
            continue
        partner: tuple[CallInst, Value, Value] | None = None
        ok = True
        for use in tmp.uses:
            user = use.user
            if user is inst:
                continue
            callee_name = getattr(getattr(user, "called_function", None), "name", "") or ""
            if callee_name.startswith("llvm.lifetime."):
                continue
            args = _copy_args(user)
            if args is None or partner is not None or args[2] != nbytes:
                ok = False
                break
            other_dst, other_src, _ = args
            # this copy writes the temporary: the partner must read it (and not also write it), and the reverse
            if (other_src is tmp) != writes or (other_dst is tmp) == writes:
                ok = False
                break
            assert isinstance(user, CallInst)
            partner = (user, other_dst, other_src)
        if ok and partner is not None:
            return partner
    return None

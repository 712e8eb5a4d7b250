"""Which critical sections reverse mode can run in any order.

The reverse of a critical section is a critical section (openmp.py), entered by the threads in whatever
order they arrive, not in the reverse of the order they passed it in the augmented sweep (that order is
not recorded).  That is right when the section only adds to shared memory (``s += v``: every thread's
adjoint of ``v`` is the adjoint of ``s``, which the section leaves as it is), and wrong otherwise
(``s *= v``, ``s = fmax(s, v)``: the threads' adjoints depend on who came first).  So reverse mode accepts
a section whose floating-point stores are all sums into the location they read, and refuses the others;
``reduction(+:...)`` becomes such a section (driver/openmp_regions.py), ``reduction(max:...)`` does not.
"""
from __future__ import annotations

from ..errors import DifferentiationError
from ..ir import (AllocaInst, BinaryOperator, Block, CallInst, CastInst, GEPInst, Instruction, LoadInst, PhiInst,
                  SelectInst, StoreInst, Value)
from ..ir.types import FloatType, VectorType
from .common import describe, is_inactive_function

_ENTER = ("__kmpc_critical", "__kmpc_critical_with_hint")
_LEAVE = "__kmpc_end_critical"


def _section(enter: CallInst) -> list[Instruction]:
    """The instructions between ``enter`` and the ``__kmpc_end_critical`` calls it reaches."""
    out: list[Instruction] = []
    assert enter.parent is not None
    work: list[tuple[Block, int]] = [(enter.parent, enter.parent.instructions.index(enter) + 1)]
    seen: set[Block] = set()
    while work:
        block, start = work.pop()
        left = False
        for inst in block.instructions[start:]:
            if isinstance(inst, CallInst) and inst.callee_name == _LEAVE:
                left = True
                break
            out.append(inst)
        if not left:
            for succ in block.successors:
                if succ not in seen:
                    seen.add(succ)
                    work.append((succ, 0))
    return out


def _bases(p: Value) -> set[Value]:
    """The objects ``p`` may point into, through address arithmetic, phis and selects."""
    out: set[Value] = set()
    work, seen = [p], set()
    while work:
        q = work.pop()
        if q in seen:
            continue
        seen.add(q)
        if isinstance(q, (GEPInst, CastInst)):
            work.append(q.operand(0))
        elif isinstance(q, PhiInst):
            work.extend(v for v, _ in q.incoming)
        elif isinstance(q, SelectInst):
            work.extend(q.operands[1:])
        else:
            out.add(q)
    return out


def _reads_inside(v: Value, inside: set[Instruction], written: set[Value]) -> bool:
    """Does ``v`` depend on a load, in the section, of an object the section writes (``written``: their bases)?"""
    work, seen = [v], set()
    while work:
        x = work.pop()
        if not isinstance(x, Instruction) or x not in inside or x in seen:
            continue
        seen.add(x)
        if isinstance(x, LoadInst):
            # Only the function's own stack objects are known apart from what the section writes: arguments
            # and globals may point into the same memory.
            if any(base in written or not isinstance(base, AllocaInst) for base in _bases(x.pointer)):
                return True
            continue
        work.extend(x.operands)
    return False


def _through_precision(v: Value) -> Value:
    """``v`` without the float-to-float conversions around it (``float s; double t; s += t`` is
    ``fptrunc(fpext(s) + t)``): they change the precision of a sum, not what is summed."""
    while isinstance(v, CastInst) and v.opcode in ("fpext", "fptrunc"):
        v = v.operand(0)
    return v


def _is_sum_into(store: StoreInst, inside: set[Instruction], written: set[Value]) -> bool:
    """``store (load p) + v -> p`` (or ``v + load p``, ``load p - v``) with the load in the section and ``v``
    computed from nothing the section loads (``s = s + 0.5 * s`` scales ``s``: not a sum).  The sum and the load
    may be converted between float and double on the way."""
    v = _through_precision(store.value)
    if not isinstance(v, BinaryOperator) or v.opcode not in ("fadd", "fsub"):
        return False
    a, b = v.operands
    for old, added in ((a, b), (b, a)) if v.opcode == "fadd" else ((a, b),):
        old = _through_precision(old)
        if isinstance(old, LoadInst) and old in inside and old.pointer is store.pointer \
                and not _reads_inside(added, inside, written):
            return True
    return False


def check_summing_section(enter: CallInst) -> None:
    """Refuse (in reverse mode) a critical section that does more to shared floating-point data than add to it."""
    if enter.callee_name not in _ENTER:
        return
    body = _section(enter)
    inside = set(body)
    written = {base for i in body if isinstance(i, StoreInst) for base in _bases(i.pointer)}
    for inst in body:
        what = None
        if isinstance(inst, StoreInst) and isinstance(inst.value.type, (FloatType, VectorType)) \
                and not _is_sum_into(inst, inside, written):
            what = "stores a value that is not a sum into the location it read"
        elif isinstance(inst, CallInst) and inst.called_function is not None \
                and not inst.called_function.is_declaration and not is_inactive_function(inst.callee_name or ""):
            what = f"calls @{inst.callee_name}"
        if what is not None:
            raise DifferentiationError(
                f"{describe(inst)}: this OpenMP critical section (or reduction other than +) {what}; reverse mode "
                "differentiates critical sections that only add to shared data (s += v), since the order in "
                "which the threads passed it is not recorded")

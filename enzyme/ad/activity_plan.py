"""Which values a derivative needs: the engine's forward activity narrowed by activity analysis.

The generators decide activity forward: a value is active when an operand is
(reverse: ``_ReverseGenerator.active``; forward: a value gets a tangent when an
operand has one).  :func:`enzyme.analysis.analyze_activity` also looks
backward: a value is active only when it may reach an active output (the
active return, memory the caller owns a shadow of, an ``out`` argument's
adjoint).  A float computed from active inputs that only decides a branch, is
converted to an integer, is printed, or goes into a scratch array that nothing
reads back into the result needs no derivative, and this module says so.

Both generators keep their own forward answer and intersect it with the
analysis (a value is active when both say so), so the analysis can only
remove work.  Measured on every derivative of tests/ad/programs at -O0..-O3,
wherever the engine's forward set and the analysis's "varied" disagree the
analysis is right (rounding functions, adjoint slots of higher-order
derivatives fed only constants, placeholder tangents of float phis).  Only
float values are pruned: integers holding float bits and pointers' shadows
stay as the generators decide (shadows mirror memory, and an adjoint may flow
through one where no float flows at that instruction).

``enzyme opt --print-activity`` prints the same :class:`ActivityResult`, made by
:func:`activity_of` for the printed function taken as a request's function.
"""
from __future__ import annotations

from collections.abc import Sequence

from ..analysis.activity import ActivityResult, analyze_activity, normalize_activity
from ..ir import (AllocaInst, BinaryOperator, CallInst, CastInst, ExtractElementInst, ExtractValueInst, FreezeInst,
                  Function, GEPInst, InsertElementInst, InsertValueInst, Instruction, LoadInst, PhiInst, SelectInst,
                  ShuffleVectorInst, StoreInst, UnaryOperator, Value)
from ..rules import lookup
from .aggregate_shadows import holds_pointers
from .common import ADContext, carries_float
from .copy_types import function_contexts
from .custom import custom_rules

#: Instructions whose only derivative code is for their float result: pruning them loses nothing else.
_PURE = (BinaryOperator, UnaryOperator, CastInst, PhiInst, SelectInst, ExtractValueInst, InsertValueInst,
         ExtractElementInst, InsertElementInst, ShuffleVectorInst, FreezeInst, LoadInst)


def activity_of(ctx: ADContext, fn: Function, activities: Sequence[str], ret_active: bool) -> ActivityResult:
    """The analysis of ``fn`` with the engine's facts: its type analyses (every calling context of the
    module's requests), the globals given a shadow (``enzyme_shadow``) and the functions with registered
    derivatives; memoized per request.  What ``fn`` stores into memory of const arguments counts as read
    back by the caller: a callee gets ``const`` for memory without a shadow that its caller may use, and the
    generators refuse active data stored there, which pruning must not hide.

    ``enzyme opt --print-activity`` prints this very result.
    """
    acts = tuple(normalize_activity(a) for a in activities)
    key = ("activity", fn, acts, ret_active)
    got = ctx.memo.get(key)
    if got is None:
        rules = custom_rules(ctx.module)
        got = ctx.memo[key] = analyze_activity(ctx.module, fn, acts, ret_active, types=function_contexts(ctx, fn),
                                               shadowed_globals=rules.shadows,
                                               rule_functions=[*rules.forwards, *rules.gradients],
                                               const_memory_read_back=True)
    return got


class ActivityPlan:
    """What the analysis lets one derivative of ``fn`` skip."""

    def __init__(self, ctx: ADContext, fn: Function, activities: Sequence[str], ret_active: bool) -> None:
        # A variadic function gets more activities than it has parameters: the generators refuse it themselves.
        self.result = activity_of(ctx, fn, activities, ret_active) \
            if len(activities) == len(fn.args) and not fn.function_type.vararg else None
        self.pruned: set[Value] = set()  # values and stores the analysis lets the derivative skip

    def _constant_float(self, v: Value) -> bool:
        """Is ``v`` a float value (no pointer) the analysis proves constant, away from float bits in integers?

        Type analysis may call integers that are a type pun of active floats (``memcpy`` of a double into a
        ``uint64_t``) integers; the generators refuse such puns, so the floats at either end of one stay as the
        generators see them.
        """
        if self.result is None or not isinstance(v, Instruction) or not carries_float(v.type) \
                or holds_pointers(v.type) or _next_to_bits(v):
            return False
        return self.result.is_constant_value(v)

    def inactive_allocation(self, inst: Instruction) -> bool:
        """Is ``inst`` a stack object or a heap block allocated here (``alloca``, ``malloc``, ``new``) that the
        analysis proves holds no derivative data (a stream, a ``char`` buffer handed to a library, a scratch
        array nothing reads back into the result)?  It needs no shadow: nothing it holds reaches an active
        output, and no pointer to active memory is kept in it (memory holding such a pointer is active
        itself)."""
        r = self.result
        if r is None or not isinstance(inst, (AllocaInst, CallInst)):
            return False
        targets = r.points_to(inst)
        return bool(targets) and not any(r.is_active_memory(o) for o in targets) and r.is_constant_value(inst) \
            and not self._address_kept_in_active_memory(inst)

    def _address_kept_in_active_memory(self, alloc: Instruction) -> bool:
        """Is the address of ``alloc`` (or one computed from it), or a pointer loaded from it, stored into memory
        that may be active (a Fortran descriptor of a scratch array, a descriptor copied field by field)?  The
        pointer needs a shadow there, which must come from ``alloc``'s."""
        def stored_outside(start: Value, loads: bool) -> bool:
            seen: set[Value] = set()
            work: list[Value] = [start]
            while work:
                v = work.pop()
                if v in seen:
                    continue
                seen.add(v)
                for use in v.uses:
                    user = use.user
                    if isinstance(user, StoreInst) and user.value is v and not self.inactive_memory(user.pointer):
                        return True
                    if isinstance(user, (CastInst, PhiInst, SelectInst, FreezeInst)) or \
                            (isinstance(user, GEPInst) and use.index == 0):
                        work.append(user)
                    elif loads and isinstance(user, LoadInst) and holds_pointers(user.type) and \
                            stored_outside(user, False):
                        return True
            return False
        return stored_outside(alloc, True)

    def inactive_memory(self, ptr: Value) -> bool:
        """Does ``ptr`` point only into memory the analysis proves inactive (a value active elsewhere is also
        stored or copied there, to be printed, say)?  Nothing read back from there reaches an output, and no
        pointer to active memory is kept there."""
        r = self.result
        if r is None:
            return False
        targets = r.points_to(ptr)
        return bool(targets) and not any(r.is_active_memory(o) for o in targets)

    def prune(self, active: set[Value]) -> None:
        """Reverse mode: drop from ``active`` the float values the analysis proves constant.

        Arguments stay (an ``out`` argument's adjoint is returned even when it is zero), and so do integers
        holding float bits.
        """
        dead = [v for v in active if self._constant_float(v)]
        active.difference_update(dead)
        self.pruned.update(dead)

    def needs_no_tangent(self, inst: Instruction) -> bool:
        """Forward mode: may ``inst`` get no tangent at all?  Only for a float result the analysis proves
        constant, of an instruction that has no other derivative code (no shadow, no memory written)."""
        if not (isinstance(inst, _PURE) or (isinstance(inst, CallInst) and inst.callee_name is not None
                                             and lookup(inst.callee_name) is not None)):
            return False
        if not (self._constant_float(inst) and self.result is not None and self.result.is_constant_instruction(inst)):
            return False
        self.pruned.add(inst)
        return True

    def skips_store(self, inst: Instruction) -> bool:
        """Reverse mode: may the reverse sweep skip a store?  Where it writes memory the analysis proves
        constant (a scratch array nothing reads back into the result), the shadow there never holds an adjoint
        that reaches an output, so there is nothing to take from it or to zero."""
        r = self.result
        if r is None or not isinstance(inst, StoreInst) or not carries_float(inst.value.type) \
                or holds_pointers(inst.value.type):
            return False
        targets = r.points_to(inst.pointer)
        if not targets or any(r.is_active_memory(o) for o in targets):
            return False
        if not (r.is_constant_instruction(inst) and self._constant_float(inst.value)):
            return False
        self.pruned.add(inst)
        return True


def _next_to_bits(v: Instruction) -> bool:
    """Is ``v`` made from an integer's bits, or reinterpreted as an integer?"""
    if isinstance(v, CastInst) and v.opcode == "bitcast" and not carries_float(v.operand(0).type):
        return True
    return any(isinstance(u, CastInst) and u.opcode == "bitcast" and not carries_float(u.type) for u in v.users)

"""Tapes nothing is pushed on: a derivative whose sweeps never touch their tape argument needs none.

``diffe<f>`` (and the other callers that own a tape) allocate a tape, take the parked block
(``__pyenzyme_tape_reuse``), pass the tape to the augmented and reverse sweeps and release it afterwards.  When
neither sweep uses its tape parameter (every value the reverse needs is recomputed or recovered in closed form,
as in most small kernels), that is two calls per gradient with an atomic exchange each, and, inlined, a loop
over the deferred frees: run-time cost for nothing, and LLVM spends a third of its post-AD time on a module of
100 such kernels optimizing it.  Dropping the tape there changes nothing else: nothing was pushed, nothing
deferred, and the parked block stays parked for the next call that needs it.

The tape helpers left without a caller go too (LLVM would delete them, after parsing them).

Once the tape is gone, the augmented sweep's call goes too where nothing reads its result and the sweep has no
effect but computing it: loads, arithmetic, branches and libm calls of numbers, whose only effect is ``errno``
(which LLVM must keep, so it could not delete the sweep itself: every gradient ran the whole primal loop
again).  The reverse sweep recomputes what it needs from the same memory, which the augmented sweep did not
change.  (A sweep is a copy of the primal code: were one of its loops endless, so would the primal be, and
the reverse sweep runs the same loops.)
"""
from __future__ import annotations

from collections.abc import Iterable

from ..ad.tape import TAPE_PUSH, TAPE_REUSE, TAPE_STRUCT
from ..analysis.known_functions import call_kind
from ..ir import CallInst, Function, Module
from ..ir.instructions import (AllocaInst, BinaryOperator, BranchInst, CastInst, CmpInst, ExtractElementInst,
                               ExtractValueInst, FreezeInst, GEPInst, InsertElementInst, InsertValueInst,
                               LoadInst, PhiInst, ReturnInst, SelectInst, ShuffleVectorInst, StoreInst, SwitchInst,
                               UnaryOperator)
from ..ir.types import PTR, FloatType, IntType, Type, VectorType
from ..ir.values import ConstantKeyword, GlobalVariable, Value

_RELEASE = "__pyenzyme_tape_release"
# Callers first: a helper is removed once nothing calls it.
_HELPERS = (_RELEASE, "__pyenzyme_tape_park", TAPE_REUSE, TAPE_PUSH, "__pyenzyme_tape_pop")
_SPARE = "__pyenzyme_spare_tape"
# libm functions that also set a global besides errno (signgam).
_SETS_GLOBALS = ("lgamma", "gamma", "__lgamma")
# Instructions without an effect beyond their result (loads: plain ones only, see _effect_free).
_PURE = (BinaryOperator, UnaryOperator, CastInst, CmpInst, SelectInst, PhiInst, GEPInst, ExtractValueInst,
         InsertValueInst, ExtractElementInst, InsertElementInst, ShuffleVectorInst, FreezeInst, BranchInst,
         SwitchInst, ReturnInst, LoadInst)


def drop_unused_tapes(module: Module, generated: Iterable[Function]) -> int:
    """Remove the tapes of ``generated`` functions that no sweep uses; returns how many went."""
    dropped = 0
    for fn in generated:
        if fn.is_declaration or fn.module is not module:
            continue
        for inst in list(fn.entry.instructions):
            if isinstance(inst, AllocaInst) and inst.allocated_type == TAPE_STRUCT and not inst.operands \
                    and _unused(inst):
                _drop(module, inst)
                dropped += 1
    if dropped:
        _remove_unused_helpers(module)
    return dropped


def _unused(tape: AllocaInst) -> bool:
    """Is every use of ``tape`` its zero initialization, the reuse and release calls, or an argument no callee
    body reads?"""
    for use in tape.uses:
        user = use.user
        if isinstance(user, StoreInst):
            if use.index != 1 or not (isinstance(user.value, ConstantKeyword)
                                      and user.value.keyword == "zeroinitializer"):
                return False
        elif isinstance(user, CallInst) and type(user) is CallInst:
            callee = user.called_function
            if callee is None or use.index >= user.n_args:
                return False
            if callee.name in (TAPE_REUSE, _RELEASE) and user.n_args == 1:
                continue
            if callee.is_declaration or use.index >= len(callee.args) or callee.args[use.index].has_uses:
                return False
        else:
            return False
    return True


def _drop(module: Module, tape: AllocaInst) -> None:
    null: Value = ConstantKeyword(PTR, "null")
    sweeps: list[CallInst] = []
    for use in list(tape.uses):
        user = use.user
        if isinstance(user, StoreInst) or (isinstance(user, CallInst) and user.called_function is not None
                                           and user.called_function.name in (TAPE_REUSE, _RELEASE)):
            if user.parent is not None:
                user.drop_operands()
                user.remove_from_parent()
        else:
            assert isinstance(user, CallInst)
            user.set_operand(use.index, null)
            sweeps.append(user)
    tape.erase()
    for call in sweeps:
        callee = call.called_function
        if callee is not None and not call.has_uses and call.parent is not None and _effect_free(callee):
            call.drop_operands()
            call.remove_from_parent()
            if not callee.has_uses and callee.module is module:
                _delete(module, callee)


def _effect_free(fn: Function) -> bool:
    """Does ``fn`` (a sweep) do nothing but compute its result: plain loads, arithmetic, control flow and libm
    calls on numbers (no pointer operands: their only effect is errno)?"""
    for inst in fn.instructions():
        if isinstance(inst, LoadInst):
            if inst.volatile or inst.atomic:
                return False
        elif isinstance(inst, CallInst):
            if not _numeric_library_call(inst):
                return False
        elif not isinstance(inst, _PURE):
            return False
    return True


def _numeric_library_call(call: CallInst) -> bool:
    callee = call.called_function if type(call) is CallInst else None
    return (callee is not None and callee.is_declaration and not call.bundles
            and not (callee.name or "").startswith(_SETS_GLOBALS)
            and call_kind(callee.name) == "rule" and _numeric(call.type)
            and all(_numeric(a.type) for a in call.args))


def _numeric(t: Type) -> bool:
    if isinstance(t, VectorType):
        t = t.element
    return isinstance(t, (FloatType, IntType))


def _delete(module: Module, fn: Function) -> None:
    for inst in list(fn.instructions()):
        inst.drop_operands()
    _remove(module, fn)


def _remove_unused_helpers(module: Module) -> None:
    for name in _HELPERS:
        helper = module.get_function(name)
        if helper is not None and not helper.is_declaration and not helper.has_uses:
            _delete(module, helper)
    spare = module.get(_SPARE)
    if isinstance(spare, GlobalVariable) and not spare.has_uses:
        _remove(module, spare)


def _remove(module: Module, g: Function | GlobalVariable) -> None:
    del module.globals[g.name or ""]
    module.entities.remove(g)
    g.module = None

"""``enzyme_dupnoneed`` pointer arguments of ``__enzyme_fwddiff``: the primal memory is not written.

Only the shadow of such an argument is wanted, so the caller may pass a pointer to nothing (upstream's
sparse-Jacobian tests pass ``nullptr`` or ``(double*)0x1``): the forward derivative's writes through the
primal pointer are dropped (in a copy of each function they happen in: a derivative may be shared with a
request that wants them).  Reads that only fed those writes go with them; a function that still reads
memory through the pointer after a write was dropped would read what it did not write.  Where the writes cannot
be left out safely (such a read, a use pyenzyme cannot follow) they are kept, as for ``enzyme_dup``: right
whenever the caller passed memory; a caller that visibly passed none (a null or integer constant) is refused.
"""
from __future__ import annotations

from ..analysis.debuginfo import describe
from ..errors import DifferentiationError
from ..ir import (BinaryOperator, CallInst, CastInst, CmpInst, ConstantExpr, ConstantKeyword, DebugRecord, Function,
                  GEPInst, Instruction, LoadInst, Module, PhiInst, SelectInst, StoreInst, UnaryOperator, Value)
from ..ir.function_copy import copy_function

_PURE = (BinaryOperator, UnaryOperator, CastInst, CmpInst, GEPInst, LoadInst, SelectInst)
_HARMLESS_CALLS = ("llvm.lifetime.", "llvm.prefetch", "llvm.assume")
_WRITES = ("llvm.memset.",)


def drop_unneeded_primal_writes(module: Module, call: CallInst, positions: list[int]) -> None:
    """In ``call`` (of a forward derivative), drop the writes through the primal arguments at ``positions``
    (keep them where that cannot be done safely and the caller passed memory)."""
    original = call.called_function
    pruner = _Pruner(module)
    try:
        for k in positions:
            pruner.specialize(call, k)
        pruner.finish()
    except DifferentiationError:
        if original is None or any(_no_memory(call.args[k]) for k in positions):
            raise
        call.set_operand(call._callee_index(), original)  # the clones stay unused (internal: LLVM drops them)


def _no_memory(v: Value) -> bool:
    """Is ``v`` visibly no buffer (``nullptr``, ``(double*)0x1``)?"""
    if isinstance(v, ConstantKeyword):
        return v.keyword in ("null", "undef", "poison")
    return isinstance(v, ConstantExpr) and v.opcode == "inttoptr"


class _Pruner:
    def __init__(self, module: Module) -> None:
        self.module = module
        self.clones: dict[tuple[int, int], Function] = {}
        self.loads: list[tuple[LoadInst, Function]] = []
        self.dropped: set[int] = set()  # functions (by clone id) whose argument lost a write
        self.values: list[Value] = []  # what the dropped writes wrote

    def specialize(self, call: CallInst, k: int) -> None:
        callee = call.called_function
        if callee is None or callee.is_declaration:
            raise DifferentiationError(f"{describe(call)}: an enzyme_dupnoneed pointer is passed to a function "
                                       "pyenzyme cannot see into")
        key = (id(callee), k)
        clone = self.clones.get(key)
        if clone is None:
            clone = copy_function(self.module, callee, f"{callee.name}.nowrite")
            self.clones[key] = clone
            self._prune(clone, clone.args[k])
        call.set_operand(call._callee_index(), clone)

    def _prune(self, fn: Function, arg: Value) -> None:
        work = [arg]
        derived: set[int] = {id(arg)}
        merges: list[Instruction] = []
        while work:
            p = work.pop()
            for use in list(p.uses):
                user = use.user
                if isinstance(user, DebugRecord):
                    continue
                if isinstance(user, (PhiInst, SelectInst)) and user.type == p.type and \
                        not (isinstance(user, SelectInst) and use.index == 0):
                    if id(user) not in derived:  # a loop's moving pointer: every value it merges is checked below
                        derived.add(id(user))
                        merges.append(user)
                        work.append(user)
                elif isinstance(user, GEPInst) and use.index == 0:
                    derived.add(id(user))
                    work.append(user)
                elif isinstance(user, StoreInst) and user.pointer is p and user.value is not p:
                    self.values.append(user.value)
                    user.erase()
                    self.dropped.add(id(fn))
                elif isinstance(user, LoadInst):
                    self.loads.append((user, fn))
                elif isinstance(user, CmpInst):
                    continue
                elif isinstance(user, CallInst) and (user.callee_name or "").startswith(_HARMLESS_CALLS):
                    continue
                elif isinstance(user, CallInst) and (user.callee_name or "").startswith(_WRITES) and use.index == 0:
                    user.erase()
                    self.dropped.add(id(fn))
                elif isinstance(user, CallInst) and user.opcode == "call" and user.callee is not p \
                        and use.index < len(user.args):
                    self.specialize(user, use.index)
                else:
                    assert isinstance(user, Instruction)
                    raise DifferentiationError(
                        f"{describe(user)}: the primal of an enzyme_dupnoneed argument is used in a way pyenzyme "
                        "cannot follow (it leaves the memory of such an argument unwritten); pass it as enzyme_dup")
        for merge in merges:
            for k, v in enumerate(merge.operands):
                if v.type != merge.type or (isinstance(merge, SelectInst) and k == 0) or id(v) in derived \
                        or isinstance(v, ConstantKeyword):
                    continue
                raise DifferentiationError(
                    f"{describe(merge)}: merges the primal of an enzyme_dupnoneed argument with another pointer, "
                    "whose writes pyenzyme cannot leave out; pass it as enzyme_dup")

    def finish(self) -> None:
        for v in self.values:
            if isinstance(v, Instruction):
                _erase_if_dead(v)
        for load, _ in self.loads:
            _erase_if_dead(load)
        for load, fn in self.loads:
            if load.parent is not None and id(fn) in self.dropped:
                raise DifferentiationError(
                    f"{describe(load)}: reads memory of an enzyme_dupnoneed argument whose writes the forward "
                    "derivative leaves out (its primal is not needed); pass it as enzyme_dup")


def _erase_if_dead(inst: Instruction) -> None:
    work = [inst]
    while work:
        i = work.pop()
        if i.parent is None or i.has_uses or not isinstance(i, _PURE):
            continue
        ops = [v for v in i.operands if isinstance(v, Instruction)]
        i.erase()
        work += ops

"""OpenMP parallel regions seen as calls while derivatives are made (enzyme/ad/openmp.py says why).

:func:`lower_parallel_regions` rewrites each ``__kmpc_fork_call(ident, n, outlined, captured...)`` into
``outlined(@__pyenzyme_omp_parallel, ident, captured...)``, so type and activity analysis follow the
captured pointers into the region as into any callee, and rewrites the region's reductions into a
critical section every thread passes (the runtime's tree reduction calls a combiner the derivative
would never see).  :func:`raise_parallel_regions` turns the direct calls still marked back into forks.
"""
from __future__ import annotations

from ..ad.openmp import FORK, PARALLEL_MARKER, fork, is_parallel_region
from ..ir import (AllocaInst, BranchInst, CallInst, ConstantInt, ConstantKeyword, Function, FunctionType, Instruction,
                  LoadInst, Module, StoreInst, SwitchInst, Value)
from ..ir.builder import Builder, InsertPoint, const_int
from ..ir.splice import add_helper_functions
from ..ir.types import I32, PTR, VOID

_REDUCE = {"__kmpc_reduce_nowait": False, "__kmpc_reduce": True}  # name -> ends with a barrier
_END_REDUCE = ("__kmpc_end_reduce_nowait", "__kmpc_end_reduce")


def lower_parallel_regions(module: Module) -> int:
    """Make every fork of a defined outlined function a marked direct call; returns how many."""
    forks = [inst for f in module.functions for inst in f.instructions()
             if type(inst) is CallInst and inst.callee_name == FORK and len(inst.args) >= 3
             and isinstance(inst.args[2], Function) and not inst.args[2].is_declaration]
    if not forks:
        return 0
    if module.get(PARALLEL_MARKER) is None:
        add_helper_functions(module, f"@{PARALLEL_MARKER} = internal constant i32 0\n")
    marker = module.get(PARALLEL_MARKER)
    assert marker is not None
    sites: dict[Function, list[CallInst]] = {}
    for inst in forks:
        outlined = inst.args[2]
        assert isinstance(outlined, Function)
        captured = inst.args[3:]
        if len(outlined.args) != len(captured) + 2:
            continue  # not clang's shape: left a fork, which the engine refuses where it matters
        b = Builder(InsertPoint.before_inst(inst))
        call = b.call(outlined, [marker, inst.args[0], *captured])
        call.metadata = list(inst.metadata)
        inst.erase()
        sites.setdefault(outlined, []).append(call)
    for outlined, calls in sites.items():
        _reductions_as_critical_sections(module, outlined)
        _pointers_by_value(outlined, calls)
    return len(forks)


def _pointers_by_value(outlined: Function, calls: list[CallInst]) -> None:
    """A pointer variable the region only reads is captured by reference (``&a``, a slot in the caller's
    frame); pass the pointer itself.  A slot holding a pointer to constant memory would need a shadow
    (it holds pointers) and could only get a null one, which reverse mode refuses."""
    for k, param in enumerate(outlined.args[2:], start=2):
        uses = [u.user for u in param.uses]
        if not uses or not all(isinstance(u, LoadInst) and u.type == PTR and not u.volatile and not u.atomic
                               and u.pointer is param for u in uses):
            continue
        for call in calls:
            call.set_operand(k, _value_in_slot(call, call.args[k]))
        for load in uses:
            assert isinstance(load, LoadInst)
            load.replace_all_uses_with(param)
            load.erase()


def _value_in_slot(call: CallInst, slot: Value) -> Value:
    """The pointer ``slot`` holds at ``call``: the value of its only store when that is all the slot is for
    (the slot then goes), else a load before the call."""
    if isinstance(slot, AllocaInst):
        users = [u.user for u in slot.uses]
        stores = [u for u in users if isinstance(u, StoreInst) and u.pointer is slot and u.value is not slot]
        others = [u for u in users if u is not call and u not in stores and not (
            isinstance(u, CallInst) and (u.callee_name or "").startswith("llvm.lifetime."))]
        block = call.parent
        entry = block.parent.entry if block is not None and block.parent is not None else None
        # The only store runs before the call: earlier in its block, or in the entry block (which dominates all).
        before = bool(stores) and block is not None and (
            (stores[0].parent is block and block.instructions.index(stores[0]) < block.instructions.index(call))
            or (stores[0].parent is entry and block is not entry))
        if len(stores) == 1 and not others and before and sum(1 for u in slot.uses if u.user is call) == 1:
            value = stores[0].value
            for u in users:
                if u is not call and isinstance(u, Instruction):
                    u.erase()
            return value
    return Builder(InsertPoint.before_inst(call)).load(PTR, slot, align=8)


def raise_parallel_regions(module: Module) -> None:
    """Turn the marked direct calls left in ``module`` back into ``__kmpc_fork_call``."""
    for f in module.functions:
        for inst in list(f.instructions()):
            if type(inst) is CallInst and is_parallel_region(inst):
                b = Builder(InsertPoint.before_inst(inst))
                call = fork(module, b, inst.args[1], inst.callee, inst.args[2:])
                call.metadata = list(inst.metadata)
                inst.erase()


def _reductions_as_critical_sections(module: Module, fn: Function) -> None:
    """``switch (__kmpc_reduce(...)) case 1: combine`` becomes ``__kmpc_critical; combine; __kmpc_end_critical``
    for every thread (the same sum, without the runtime combining partials behind the derivative's back)."""
    critical = module.declare_function("__kmpc_critical", FunctionType(VOID, (PTR, I32, PTR)))
    end_critical = module.declare_function("__kmpc_end_critical", FunctionType(VOID, (PTR, I32, PTR)))
    barrier = module.declare_function("__kmpc_barrier", FunctionType(VOID, (PTR, I32)))
    changed = False
    for inst in list(fn.instructions()):
        if type(inst) is not CallInst:
            continue
        name = inst.callee_name
        b = Builder(InsertPoint.before_inst(inst))
        if name in _REDUCE:
            ident, gtid, lock = inst.args[0], inst.args[1], inst.args[6]
            b.call(critical, [ident, gtid, lock])
            inst.replace_all_uses_with(const_int(I32, 1))
            inst.erase()
            changed = True
        elif name in _END_REDUCE:
            ident, gtid, lock = inst.args[0], inst.args[1], inst.args[2]
            b.call(end_critical, [ident, gtid, lock])
            if name == "__kmpc_end_reduce":
                b.call(barrier, [ident, gtid])
            inst.erase()
    if changed:
        _fold_constant_switches(fn)


def _fold_constant_switches(fn: Function) -> None:
    for blk in list(fn.blocks):
        term = blk.terminator
        if not isinstance(term, SwitchInst) or not isinstance(term.operand(0), ConstantInt):
            continue
        value = term.operand(0)
        assert isinstance(value, ConstantInt)
        dest = next((d for c, d in term.cases if isinstance(c, ConstantInt) and c.value == value.value),
                    term.operand(1))
        for succ in set(blk.successors):
            if succ is not dest:
                for phi in succ.phis():
                    phi.remove_incoming(blk)
        term.erase()
        blk.append(BranchInst(dest))
    reachable = set()
    work = [fn.entry]
    while work:
        blk = work.pop()
        if blk not in reachable:
            reachable.add(blk)
            work.extend(blk.successors)
    dead = [blk for blk in fn.blocks if blk not in reachable]
    for blk in dead:
        for succ in set(blk.successors):
            if succ in reachable:
                for phi in succ.phis():
                    phi.remove_incoming(blk)
    for blk in dead:
        for inst in blk.instructions:
            if inst.has_uses:
                inst.replace_all_uses_with(ConstantKeyword(inst.type, "poison"))
    for blk in dead:
        for inst in blk.instructions:
            inst.drop_operands()
    for blk in dead:
        blk.erase()

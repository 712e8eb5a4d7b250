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
    done: set[Function] = set()
    for outlined in sites:
        work = [outlined]  # the region and what it calls (its -g body .omp_outlined_debug__ holds the reduction)
        while work:
            fn = work.pop()
            if fn not in done and not fn.is_declaration:
                done.add(fn)
                _reductions_as_critical_sections(module, fn)
                work += [i.callee for i in fn.instructions()
                         if isinstance(i, CallInst) and isinstance(i.callee, Function)]
        _pointers_by_value(outlined)
    return len(forks)


def _pointers_by_value(outlined: Function) -> None:
    """A pointer variable the region only reads is captured by reference (``&a``, a slot in the caller's
    frame); pass the pointer itself.  A slot holding a pointer to constant memory would need a shadow
    (it holds pointers) and could only get a null one, which reverse mode refuses.  Every call of the
    region changes with it (forks, and the direct call of an ``if`` clause's serialized branch), so the
    region must be used by calls only."""
    calls = [u.user for u in outlined.uses]
    if not all(isinstance(c, CallInst) and c.callee is outlined and outlined not in c.args for c in calls):
        return
    for k, param in enumerate(outlined.args[2:], start=2):
        if not _only_read(outlined, k, set()):
            continue
        for slot in dict.fromkeys(c.args[k] for c in calls if isinstance(c, CallInst)):
            sites = [c for c in calls if isinstance(c, CallInst) and c.args[k] is slot]
            value = _only_value(slot, sites)
            for call in sites:
                call.set_operand(k, value if value is not None else
                                 Builder(InsertPoint.before_inst(call)).load(PTR, slot, align=8))
        _read_directly(outlined, k)


def _forwarded_to(inst: Instruction, param: Value) -> tuple[Function, int] | None:
    """``inst`` passes ``param`` once to an internal function called from nowhere else (clang's
    ``.omp_outlined_debug__`` body of a region compiled with -g): that function and the position."""
    if not isinstance(inst, CallInst) or not isinstance(inst.callee, Function) or inst.callee.is_declaration:
        return None
    g = inst.callee
    positions = [i for i, a in enumerate(inst.args) if a is param]
    if len(positions) != 1 or len(g.uses) != 1 or not g.prefix.strip().startswith(("internal", "private")):
        return None
    return g, positions[0]


def _only_read(fn: Function, k: int, seen: set[Function]) -> bool:
    """Is parameter ``k`` of ``fn`` only loaded from as a pointer (in ``fn`` or a body it forwards it to)?"""
    if fn in seen:
        return False
    seen.add(fn)
    param = fn.args[k]
    uses = [u.user for u in param.uses if isinstance(u.user, Instruction)]  # debug records may stay
    for u in uses:
        if isinstance(u, LoadInst) and u.type == PTR and not u.volatile and not u.atomic and u.pointer is param:
            continue
        forwarded = _forwarded_to(u, param)
        if forwarded is None or not _only_read(*forwarded, seen):
            return False
    return bool(uses)


def _read_directly(fn: Function, k: int) -> None:
    """Parameter ``k`` of ``fn`` is now the pointer itself, not its slot (see :func:`_only_read`)."""
    param = fn.args[k]
    for u in [u.user for u in param.uses if isinstance(u.user, Instruction)]:
        if isinstance(u, LoadInst):
            u.replace_all_uses_with(param)
            u.erase()
        else:
            forwarded = _forwarded_to(u, param)
            assert forwarded is not None
            _read_directly(*forwarded)


def _only_value(slot: Value, calls: list[CallInst]) -> Value | None:
    """The value ``slot`` holds at each of ``calls`` when it is a stack slot written once, before them all,
    and used for nothing else (the slot then goes); else None."""
    if not isinstance(slot, AllocaInst):
        return None
    users = [u.user for u in slot.uses]
    stores = [u for u in users if isinstance(u, StoreInst) and u.pointer is slot and u.value is not slot]
    others = [u for u in users if u not in calls and u not in stores and isinstance(u, Instruction) and not (
        isinstance(u, CallInst) and (u.callee_name or "").startswith("llvm.lifetime."))]  # debug records may stay
    if len(stores) != 1 or others or any(sum(1 for a in c.args if a is slot) != 1 for c in calls):
        return None
    store = stores[0]
    entry = store.parent.parent.entry if store.parent is not None and store.parent.parent is not None else None
    for call in calls:
        # The store runs first: earlier in the call's block, or in the entry block (which dominates all).
        block = call.parent
        if block is None or not ((store.parent is block and block.instructions.index(store) <
                                  block.instructions.index(call)) or (store.parent is entry and block is not entry)):
            return None
    value = store.value
    for u in users:
        if u not in calls and isinstance(u, Instruction):
            u.erase()
    return value


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

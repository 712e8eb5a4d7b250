"""OpenMP parallel regions seen as calls while derivatives are made (enzyme/ad/openmp.py says why).

:func:`lower_parallel_regions` rewrites each ``__kmpc_fork_call(ident, n, outlined, captured...)`` into
``outlined(@__pyenzyme_omp_parallel, ident, captured...)``, so type and activity analysis follow the
captured pointers into the region as into any callee, and rewrites the region's reductions into a
critical section every thread passes (the runtime's tree reduction calls a combiner the derivative
would never see).  :func:`raise_parallel_regions` turns the direct calls still marked back into forks.
"""
from __future__ import annotations

import struct

from ..ad.openmp import FORK, PARALLEL_MARKER, fork, is_parallel_region
from ..ir import (AllocaInst, BranchInst, CallInst, CastInst, ConstantFP, ConstantInt, ConstantKeyword, Function, FunctionType,
                  Instruction, LoadInst, Module, StoreInst, SwitchInst, Value)
from ..ir.builder import Builder, InsertPoint, const_int
from ..ir.splice import add_helper_functions
from ..ir.types import I32, PTR, VOID, FloatType, IntType, Type

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
        _floats_by_reference(outlined)
    return len(forks)


def _float_behind(v: Value) -> Value | None:
    """The floating-point value a caller passes as integer bits (clang's by-value capture of a ``firstprivate``
    double or float): ``bitcast double %x to i64``, or at -O0 ``load i64`` of a slot only ``%x`` is stored in."""
    if isinstance(v, CastInst) and v.opcode == "zext":  # a float in the low half of an i64
        v = v.operand(0)
    if isinstance(v, CastInst) and v.opcode == "bitcast" and isinstance(v.operand(0).type, FloatType):
        return v.operand(0)
    if isinstance(v, LoadInst) and isinstance(v.pointer, AllocaInst):
        stores = [u.user for u in v.pointer.uses if isinstance(u.user, StoreInst)]
        others = [u.user for u in v.pointer.uses if not isinstance(u.user, (StoreInst, LoadInst))]
        if len(stores) == 1 and not others and stores[0].pointer is v.pointer \
                and isinstance(stores[0].value.type, FloatType) and stores[0].parent is v.parent:
            return stores[0].value
    return None


def _floats_by_reference(outlined: Function) -> None:
    """A floating-point variable captured by value (``firstprivate``) reaches the region as integer bits, which
    carry no derivative; pass the address of a caller's slot holding it instead, from which every thread
    initializes its private copy.  Its derivative is then the sum over the threads of their copies' initial
    derivatives, as for any shared value the threads read.  Applied only when every call passes the bits of a
    value of the same type and the region only reinterprets the parameter (``bitcast``) or stores it to memory."""
    calls = [u.user for u in outlined.uses]
    if not calls or not all(isinstance(c, CallInst) and c.callee is outlined and outlined not in c.args
                            for c in calls):
        return
    for k, param in enumerate(outlined.args[2:], start=2):
        if not isinstance(param.type, IntType) or param.type.bits not in (32, 64):
            continue
        floats = [_float_behind(c.args[k]) for c in calls if isinstance(c, CallInst)]
        kinds = {f.type for f in floats if f is not None}
        if len(kinds) != 1:
            continue
        ftype: Type = kinds.pop()
        if getattr(ftype, "bits", 0) > param.type.bits:
            continue
        # a constant's bits (clang folded `bitcast double 1.5 to i64` where the region was inlined)
        floats = [f if f is not None else _constant_float(c.args[k], ftype)
                  for f, c in zip(floats, calls) if isinstance(c, CallInst)]
        if None in floats:
            continue
        uses = [u.user for u in param.uses if isinstance(u.user, Instruction)]
        if not uses or not all(_reads_float_bits(u, param, ftype) for u in uses):
            continue
        for call, value in zip(calls, floats):
            assert isinstance(call, CallInst) and value is not None
            caller = call.function
            assert caller is not None
            slot = Builder(InsertPoint.before_inst(caller.entry.instructions[0])).alloca(ftype, name="omp.shared")
            Builder(InsertPoint.before_inst(call)).store(value, slot)
            call.set_operand(k, slot)
        param.type = PTR
        outlined.function_type = FunctionType(outlined.function_type.ret,
                                              tuple(a.type for a in outlined.args), outlined.function_type.vararg)
        for u in uses:
            b = Builder(InsertPoint.before_inst(u))
            if isinstance(u, StoreInst):
                b.store(b.load(ftype, param), u.pointer)
            elif u.type == ftype:
                u.replace_all_uses_with(b.load(ftype, param))
            else:  # trunc to the float's width, then bitcasts
                for c in [x.user for x in u.uses]:
                    assert isinstance(c, Instruction)
                    c.replace_all_uses_with(Builder(InsertPoint.before_inst(c)).load(ftype, param))
                    c.erase()
            u.erase()


def _constant_float(v: Value, ftype: Type) -> Value | None:
    """The ``ftype`` constant whose bits the integer constant ``v`` holds (in its low bits), or None."""
    if not isinstance(v, ConstantInt) or not isinstance(ftype, FloatType) or ftype.kind not in ("double", "float"):
        return None
    bits = v.value & ((1 << ftype.bits) - 1)
    fmt = ("<Q", "<d") if ftype.kind == "double" else ("<I", "<f")
    return ConstantFP.of(ftype, struct.unpack(fmt[1], struct.pack(fmt[0], bits))[0])


def _reads_float_bits(u: Instruction, param: Value, ftype: Type) -> bool:
    """Does ``u`` only turn the integer ``param`` back into the ``ftype`` value (``bitcast``, ``trunc`` then
    ``bitcast``) or store it to memory (read back as ``ftype`` there)?"""
    if isinstance(u, StoreInst):
        if u.value is not param or u.pointer is param:
            return False
        if getattr(ftype, "bits", 0) == getattr(param.type, "bits", -1):
            return True
        # a float stored as i64 into a local slot (-O0) that is only read back, or written, as a float
        slot = u.pointer
        return isinstance(slot, AllocaInst) and all(
            x.user is u or (isinstance(x.user, LoadInst) and x.user.type == ftype)
            or (isinstance(x.user, StoreInst) and x.user.pointer is slot and x.user.value.type == ftype)
            for x in slot.uses)
    if isinstance(u, CastInst) and u.opcode == "bitcast":
        return u.type == ftype
    if isinstance(u, CastInst) and u.opcode == "trunc" and getattr(u.type, "bits", 0) == getattr(ftype, "bits", -1):
        return all(isinstance(c.user, CastInst) and c.user.opcode == "bitcast" and c.user.type == ftype
                   for c in u.uses)
    return False


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

"""Loops marked as fixed points from inside: ``__enzyme_set_fixed_point(reduction, max_iters, control,
state, bytes, ...)`` in a loop body (what a Fortran ``!DIR$ ENZYME FIXED_POINT`` directive lowers to).

One iteration of the loop is outlined into a step function ``int step(int64_t i, slots..., captures...)``
and the loop replaced by ``__enzyme_fixed_point``'s loop function (enzyme.driver.fixed_points), so its
derivative is the converged state's (enzyme.ad.fixed_point).  The values the loop carries from one
iteration to the next (its header's phis) and those used after it live in slots (allocas of the caller),
which the step reads and writes; the values it uses from before the loop are the step's other arguments.

The loop must have one latch and leave from its header (``while``) or its latch (``do ... while``) to one
exit block.  A loop tested in its header is entered as before (the test runs once before the first
iteration); the step then runs the body and the next test, so the derivative's passes run the body even
where the loop's own test would stop it, as they must at the converged state.  A negative reduction or
max_iters, or a null control, select the defaults; the options must be constants.  What does not fit is
refused with one line.
"""
from __future__ import annotations

from ..ad.fixed_point import FixedPoint
from ..errors import DifferentiationError
from ..ir import (AllocaInst, Argument, BranchInst, CallInst, Constant, ConstantFP, ConstantInt, ConstantKeyword, Function,
                  FunctionType, Instruction, Module, PhiInst, Value, strip_pointer_casts)
from ..ir.blocks import Block
from ..ir.builder import Builder, InsertPoint
from ..ir.cfg import DominatorTree, Loop, LoopInfo
from ..ir.types import I32, I64, PTR, IntType, PointerType
from .fixed_points import fixed_point_call
from .replace import erase_call
from .requests import calls_named, where

MARKER = "__enzyme_set_fixed_point"


def outline_marked_loops(module: Module) -> int:
    """Outline every marked loop; returns how many."""
    calls = calls_named(module.functions, MARKER)
    for call in calls:
        _outline(module, call)
    return len(calls)


def _fail(site: str, why: str) -> DifferentiationError:
    return DifferentiationError(f"{site}: {why}")


def _options(site: str, call: CallInst) -> tuple[float, int, Function | None, list[Value], list[int]]:
    args = list(call.args)
    if len(args) < 5 or (len(args) - 3) % 2:
        raise _fail(site, "takes (reduction, max_iters, control, state, bytes, ...)")
    red, its, ctl = args[:3]
    if not isinstance(red, ConstantFP) or not isinstance(its, ConstantInt):
        raise _fail(site, "the reduction and max_iters must be constants here (passed by value)")
    reduction = red.value if red.value >= 0 else 1e-12
    max_iters = its.value if its.value >= 0 else 1000
    named = strip_pointer_casts(ctl)
    control: Function | None = None
    if isinstance(named, Function):
        control = named
    elif not (isinstance(named, ConstantKeyword) and named.keyword == "null"):
        raise _fail(site, "the control must be a function known at compile time, or null")
    states: list[Value] = []
    sizes: list[int] = []
    for k in range(3, len(args), 2):
        st, n = args[k], args[k + 1]
        if not isinstance(st.type, PointerType) or not isinstance(n, ConstantInt):
            raise _fail(site, "each state is its address and a constant number of bytes")
        if n.value <= 0 or n.value % 8:
            raise _fail(site, f"the state is {n.value} bytes; states of doubles are supported")
        states.append(st)
        sizes.append(n.value)
    return reduction, max_iters, control, states, sizes


def _outline(module: Module, call: CallInst) -> None:
    site = f"{MARKER} {where(call)}"
    f = call.function
    assert f is not None
    reduction, max_iters, control, states, sizes = _options(site, call)
    loop = LoopInfo(f).loop_of(call.parent) if call.parent is not None else None
    if loop is None:
        raise _fail(site, "the marker is not inside a loop (a loop of a constant trip count may have been "
                          "unrolled: build at -O0, or make the trip count unknown at compile time)")
    if any(isinstance(st, Instruction) and st.parent in loop.blocks for st in states):
        raise _fail(site, "the state's address must be computed before the loop")
    erase_call(call)
    header = loop.header
    if len(loop.latches) != 1:
        raise _fail(site, "the marked loop has several latches; one is supported")
    latch = loop.latches[0]
    exiting, exits = loop.exiting_blocks, loop.exit_blocks
    if len(exiting) != 1 or exiting[0] not in (header, latch) or len(exits) != 1:
        raise _fail(site, "the marked loop must leave from its header or its latch, to one block")
    exit_block = exits[0]
    outside = [p for p in header.predecessors if p not in loop.blocks]
    if len(outside) != 1 or any(p not in loop.blocks and p is not exiting[0] for p in exit_block.predecessors):
        raise _fail(site, "the marked loop must be entered from one block and its exit reached only from it")
    pre = outside[0]
    tested_in_header = exiting[0] is header and header is not latch
    phis = list(header.phis())
    for phi in phis:
        if len(phi.incoming) != 2:
            raise _fail(site, "a value the loop carries has more than two sources")
    dom = DominatorTree(f)
    order = loop.ordered_blocks()
    inside = {i for b in order for i in b.instructions}
    used: list[Value] = list(dict.fromkeys(
        op for i in inside for op in i.operands
        if isinstance(op, (Argument, Instruction)) and op not in inside))
    # Scratch memory of the iteration (an alloca only the loop uses) belongs to the step; the rest is passed.
    scratch = [a for a in used if isinstance(a, AllocaInst) and all(
        isinstance(u.user, Instruction) and u.user.parent in loop.blocks for u in a.uses)]
    captures = [c for c in used if c not in scratch]
    for c in captures:
        if not isinstance(c.type, (PointerType, IntType)):
            raise _fail(site, f"the loop uses a {c.type} computed before it; pass it through memory")
    live_out = [i for i in inside if any(getattr(u.user, "parent", None) not in loop.blocks for u in i.uses)]
    for v in live_out:
        if tested_in_header and v.parent is header and not isinstance(v, PhiInst):
            raise _fail(site, "a value the loop's test computes is used after the loop")
        if not (tested_in_header and isinstance(v, PhiInst) and v.parent is header) \
                and not dom.dominates(v.parent, latch):  # type: ignore[arg-type]
            raise _fail(site, "a value used after the loop is not computed in every iteration")

    # Slots in the caller: one per carried value, one per other value used after the loop.
    entry_b = Builder(InsertPoint.before_inst(f.blocks[0].instructions[0]))
    phi_slot = {phi: entry_b.alloca(phi.type, name=f"{phi.name or 'carried'}.slot") for phi in phis}
    out_slot = {v: (phi_slot[v] if tested_in_header and v in phi_slot else entry_b.alloca(v.type))
                for v in live_out}
    slots = list(phi_slot.values()) + [s for v, s in out_slot.items() if s not in phi_slot.values()]

    step = _step_function(module, f, site, loop, order, header, latch, exiting[0], tested_in_header, phis,
                          phi_slot, out_slot, slots, captures, scratch)
    spec = FixedPoint(step, sizes, reduction, max_iters, control, site)

    # The caller: initial values into the slots, (the first test,) the fixed point, the loop's results.
    pre_term = pre.terminator
    assert pre_term is not None
    b = Builder(InsertPoint.before_inst(pre_term))
    for phi in phis:
        b.store(phi.value_for(pre), phi_slot[phi])
    run = f.append_block("fixed_point.run")
    rb = Builder(run)
    fixed_point_call(rb, spec, states, [*slots, *captures])
    loaded = {v: rb.load(v.type, s) for v, s in out_slot.items()}
    rb.br(exit_block)
    first = run
    test_values: dict[Value, Value] = {}
    if tested_in_header:
        first = f.append_block("fixed_point.first_test")
        tb = Builder(first)
        test_values = {phi: phi.value_for(pre) for phi in phis}
        cont = _clone_test(tb, header, test_values, loop)
        tb.cond_br(cont, run, exit_block)
    _retarget(pre_term, header, first)
    # Uses after the loop.
    for phi in exit_block.phis():
        for value, blk in list(phi.incoming):
            if blk is exiting[0]:
                phi.remove_incoming(blk)
                phi.add_incoming(loaded.get(value, value) if isinstance(value, Instruction) else value, run)
                if tested_in_header:
                    phi.add_incoming(test_values.get(value, value), first)
    for v in live_out:
        for use in list(v.uses):
            user = use.user
            if isinstance(user, Instruction) and user.parent not in loop.blocks:
                if isinstance(user, PhiInst) and user.parent is exit_block:
                    continue
                if tested_in_header:
                    raise _fail(site, "a value of the loop is used after it outside its exit block's phis")
                user.set_operand(use.index, loaded[v])
    _delete_loop(order)


def _retarget(term: Instruction, old: Block, new: Block) -> None:
    for use in list(term.operand_uses):
        if use.value is old:
            term.set_operand(use.index, new)


def _clone_test(b: Builder, header: Block, vmap: dict[Value, Value], loop: Loop) -> Value:
    """The header's instructions after its phis, with ``vmap`` for them; returns whether to iterate again."""
    term = header.terminator
    assert isinstance(term, BranchInst) and term.is_conditional
    for inst in header.instructions:
        if isinstance(inst, PhiInst) or inst is term:
            continue
        ni = inst.clone(lambda v: vmap.get(v, v))
        b.insert(ni, inst.name)
        vmap[inst] = ni
    cond = vmap.get(term.condition, term.condition)
    t = term.operands[1]
    if t in loop.blocks:
        return cond
    return b.binop("xor", cond, ConstantInt(cond.type, 1))


def _step_function(module: Module, f: Function, site: str, loop: Loop, order: list[Block], header: Block,
                   latch: Block, exiting: Block, tested_in_header: bool, phis: list[PhiInst],
                   phi_slot: dict[PhiInst, Value], out_slot: dict[Instruction, Value], slots: list[Value],
                   captures: list[Value], scratch: list[AllocaInst]) -> Function:
    """``i32 step(i64 i, slots..., captures...)``: one iteration; returns whether to iterate again."""
    params = (I64, *[PTR] * len(slots), *[c.type for c in captures])
    step = Function(module.unique_name(f"{f.name}.fixed_point_step"), FunctionType(I32, params),
                    prefix="internal")
    module.add(step)
    vmap: dict[Value, Value] = {}
    slot_arg = dict(zip(slots, step.args[1:1 + len(slots)]))
    for c, a in zip(captures, step.args[1 + len(slots):]):
        vmap[c] = a
    entry = step.append_block("entry")
    eb = Builder(entry)
    for alloca in scratch:
        na = alloca.clone()
        na.name = alloca.name
        entry.append(na)
        vmap[alloca] = na
    for phi in phis:
        vmap[phi] = eb.load(phi.type, slot_arg[phi_slot[phi]])
    for blk in order:
        vmap[blk] = step.append_block(blk.name)
    eb.br(vmap[header])  # type: ignore[arg-type]
    clones: list[tuple[Instruction, Instruction]] = []
    for blk in order:
        nb = vmap[blk]
        assert isinstance(nb, Block)
        for inst in blk.instructions:
            if blk is header and isinstance(inst, PhiInst):
                continue
            if inst is blk.terminator and blk in (header, latch):
                continue  # rebuilt below
            if isinstance(inst, CallInst) and (inst.callee_name or "").startswith("llvm.lifetime.") and \
                    not isinstance(vmap.get(inst.args[-1], inst.args[-1]), AllocaInst):
                continue  # memory the caller passes: its lifetime is the caller's
            ni = inst.clone()
            ni.name = inst.name
            nb.append(ni)
            vmap[inst] = ni
            clones.append((inst, ni))
    for _, ni in clones:
        for use in ni.operand_uses:
            mapped = vmap.get(use.value)
            if mapped is not None:
                ni.set_operand(use.index, mapped)
            elif not isinstance(use.value, Constant):
                raise _fail(site, "the loop uses a value this outlining cannot reach")
    # The header's terminator: into the body (a header test is taken by the caller before the first
    # iteration, and after each iteration below).
    hterm = header.terminator
    assert hterm is not None
    hb = Builder(vmap[header])  # type: ignore[arg-type]
    if header is not latch:
        if tested_in_header:
            inside = [s for s in hterm.successor_blocks() if s in loop.blocks]
            hb.br(vmap[inside[0]])  # type: ignore[arg-type]
        else:
            hterm2 = hterm.clone(lambda v: vmap.get(v, v))
            hb.insert(hterm2)
    # The latch: the carried values and the results into the slots, then the test.
    lb = Builder(vmap[latch])  # type: ignore[arg-type]
    nxt = {phi: vmap.get(phi.value_for(latch), phi.value_for(latch)) for phi in phis}
    for v, s in out_slot.items():
        if not (tested_in_header and v in phi_slot):
            lb.store(vmap[v], slot_arg[s])
    for phi in phis:
        lb.store(nxt[phi], slot_arg[phi_slot[phi]])
    lterm = latch.terminator
    assert isinstance(lterm, BranchInst)
    if tested_in_header:
        test_map: dict[Value, Value] = {c: vmap[c] for c in captures}
        test_map.update({phi: v for phi, v in nxt.items()})
        cont = _clone_test(lb, header, test_map, loop)
    elif lterm.is_conditional:
        cond = vmap.get(lterm.condition, lterm.condition)
        cont = cond if lterm.operands[1] is header else lb.binop("xor", cond, ConstantInt(cond.type, 1))
    else:
        raise _fail(site, "the marked loop never leaves from its latch")
    lb.ret(lb.cast("zext", cont, I32))
    return step


def _delete_loop(order: list[Block]) -> None:
    """Remove the loop's blocks (every use from outside has been rewired)."""
    for blk in order:
        for inst in blk.instructions:
            if not inst.type.is_void:
                inst.replace_all_uses_with(ConstantKeyword(inst.type, "poison"))
    for blk in order:
        for inst in list(blk.instructions):
            inst.drop_operands()
    for blk in order:
        blk.erase()

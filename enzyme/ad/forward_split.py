"""Forward split mode: ``__enzyme_fwdsplit`` computes tangents from the tape of ``__enzyme_augmentfwd``.

The augmented call runs the primal; the forward-split call later computes
the tangents of that run without running the primal again: the primal
memory may have changed in between (or, as in upstream's examples, the
primal pointers passed to it may be null), so every primal value it needs
comes from the tape.

When a module asks for the forward split derivative of ``f``,
``__enzyme_augmentfwd`` of ``f`` runs ``logged_<f>``: ``f`` itself, writing
to the tape (tape.py's values stack, used first in first out here), in the
order it executes them, its arguments, every value it reads from memory or gets from a
call that is not a pure math function, and the condition of every branch;
a function with a body it calls is ``logged_<g>``, writing to the same log.
``fwdsplit_<f>`` runs ``replay_<f>``: ``f``'s forward derivative in which
each of those reads and calls is replaced by the next value of the tape
(the branches take the logged conditions, so the replay follows the run's
path), and the primal's stores, copies, fills, frees and other calls are
not done; arithmetic is recomputed from the logged values.  Tangent code
is forward mode's, unchanged, on the shadows the call passes; callees' derivatives are their replays,
which take the tape and the read position last (``ForwardState.passed_on``).

The log depends only on ``f`` (not on the activities), so any activities
of the augmented call serve.  Its tag (split.py) says it is such a log: a
reverse sweep given it, or this sweep given a reverse tape, traps, as does
reading past its end or stopping before it.  A module that needs both
kinds of tape from ``__enzyme_augmentfwd`` of the same function is refused,
as are functions whose replay needs more than these (recursion, atomics,
registered derivatives, exception handlers, ...): each refusal names the
instruction.
"""
from __future__ import annotations

import zlib
from collections.abc import Iterable

from ..analysis.layout import DataLayout
from ..errors import DifferentiationError
from ..ir import (AtomicRMWInst, BranchInst, CallInst, CmpXchgInst, ConstantKeyword, FenceInst, Function, FunctionType,
                  Instruction, InvokeInst, LandingPadInst, LoadInst, OpaqueInst, ResumeInst, StoreInst, SwitchInst,
                  VAArgInst, Value)
from ..ir.builder import Builder, InsertPoint, const_int
from ..ir.splice import add_helper_functions
from ..ir.target_attributes import inherit_target_attributes
from ..ir.types import I64, PTR, VOID, PointerType
from ..rules.memory import MemoryKind
from .call_kinds import CallKind, classify_call, is_libm_sincos
from .common import ADContext, clone_body, describe, differentiable_order
from .forward import forward_derivative_unshared
from .modes import Activity, Mode
from .split_tapes import CALLER_OWNED, TAPE_BYTES, trap_unless
from .tape import TAPE_STRUCT, release_tape, slot_size, tape_functions

#: How ``f``'s instructions take part: their result is logged and read back ("value"), they are not
#: replayed ("effect"), both, the condition of the branch is logged ("condition"), or a function with a body
#: is called ("call": its logged and replayed versions are, in the same order).
VALUE, EFFECT, CONDITION, CALL = 1, 2, 4, 8
_READ = "__pyenzyme_replay_slot"
_HELPERS = """
declare void @llvm.trap()

define internal ptr @__pyenzyme_replay_slot(ptr %tape, ptr %cursor, i64 %size) alwaysinline {
entry:
  %cur = load i64, ptr %cursor, align 8
  %next = add i64 %cur, %size
  %topp = getelementptr inbounds i8, ptr %tape, i64 8
  %top = load i64, ptr %topp, align 8
  %over = icmp ugt i64 %next, %top
  br i1 %over, label %bad, label %ok, !prof !{!"branch_weights", i32 1, i32 2000}
bad:
  call void @llvm.trap()
  unreachable
ok:
  store i64 %next, ptr %cursor, align 8
  %base = load ptr, ptr %tape, align 8
  %slot = getelementptr inbounds i8, ptr %base, i64 %cur
  ret ptr %slot
}

define internal void @__pyenzyme_replay_done(ptr %tape, ptr %cursor) alwaysinline {
entry:
  %cur = load i64, ptr %cursor, align 8
  %topp = getelementptr inbounds i8, ptr %tape, i64 8
  %top = load i64, ptr %topp, align 8
  %same = icmp eq i64 %cur, %top
  br i1 %same, label %ok, label %bad, !prof !{!"branch_weights", i32 2000, i32 1}
bad:
  call void @llvm.trap()
  unreachable
ok:
  ret void
}
"""


def forward_split_tag(fn: Function) -> int:
    """The tag of a tape holding ``logged_<fn>``'s log (split.py's tags name reverse tapes; bit 32 differs)."""
    return zlib.crc32(f"{fn.name}|forward split log".encode()) | 0x5B00000000


def replay_plan(ctx: ADContext, fn: Function) -> dict[Instruction, int]:
    """What each instruction of ``fn`` is in the log and the replay (see the module docstring); refuses what
    the replay cannot do."""
    plan: dict[Instruction, int] = {}
    for block in differentiable_order(fn):
        for inst in block.instructions:
            what = _part(ctx, fn, inst)
            if what:
                plan[inst] = what
    return plan


def _refuse(inst: Instruction, why: str) -> DifferentiationError:
    return DifferentiationError(f"__enzyme_fwdsplit: {describe(inst)}: {why}; forward split mode replays only "
                                "code whose memory reads, calls and branches it can log (use __enzyme_fwddiff)")


def _part(ctx: ADContext, fn: Function, inst: Instruction) -> int:
    if isinstance(inst, (LoadInst, StoreInst)):
        if inst.atomic or inst.volatile:
            raise _refuse(inst, "an atomic or volatile memory access")
        return VALUE | EFFECT if isinstance(inst, LoadInst) else EFFECT
    if isinstance(inst, (AtomicRMWInst, CmpXchgInst, FenceInst, VAArgInst, LandingPadInst, ResumeInst,
                         OpaqueInst)):
        raise _refuse(inst, f"{inst.opcode} is not supported in forward split mode")
    if isinstance(inst, BranchInst):
        return CONDITION if inst.is_conditional else 0
    if isinstance(inst, SwitchInst):
        return CONDITION
    if isinstance(inst, CallInst):
        return _call_part(ctx, inst)
    return 0


def _call_part(ctx: ADContext, inst: CallInst) -> int:
    site = classify_call(ctx.module, inst, Mode.FORWARD)
    value = 0 if inst.type.is_void else VALUE
    pointers = any(isinstance(a.type, PointerType) for a in inst.args)
    if site.kind is CallKind.LIFETIME:
        return 0
    if site.kind in (CallKind.MATH, CallKind.STRUCT_MATH, CallKind.REDUCTION, CallKind.COMPLEX) and not pointers \
            and not is_libm_sincos(site.name or ""):
        return 0  # a pure function of its operands: recomputed
    if site.kind is CallKind.INACTIVE:
        return value | EFFECT
    if site.kind is CallKind.MEMORY and site.memory is not None and site.memory.kind in (
            MemoryKind.COPY, MemoryKind.MOVE, MemoryKind.SET, MemoryKind.ALLOC, MemoryKind.CALLOC, MemoryKind.FREE):
        return value | EFFECT
    if site.kind is CallKind.DEFINED and not isinstance(inst, InvokeInst):
        return CALL
    what = {CallKind.DEFINED: "an invoke of a function that may throw",
            CallKind.CUSTOM: "a call of a function with a registered derivative",
            CallKind.MEMORY: "this memory function"}.get(site.kind, f"a call of kind '{site.kind.value}'")
    raise _refuse(inst, f"{what} (@{site.name or '?'}) is not supported in forward split mode")


def logged_primal(ctx: ADContext, fn: Function) -> Function:
    """``logged_<fn>(args..., ptr tape)``: ``fn``, writing the values of its plan to the tape (memoized)."""
    key = ("forward split log", fn)
    got = ctx.memo.get(key)
    if got is not None:
        return got
    plan = replay_plan(ctx, fn)
    m = ctx.module
    push, _ = tape_functions(m)
    layout = DataLayout.of_module(m)
    d = Function(m.unique_name(f"logged_{fn.name}"),
                 FunctionType(fn.return_type, (*fn.function_type.params, PTR)),
                 arg_names=[*(a.name for a in fn.args), "tape"], prefix="internal")
    m.add(d)
    inherit_target_attributes(fn, d)
    ctx.memo[key] = d
    vmap: dict[Value, Value] = dict(zip(fn.args, d.args))
    tape = d.args[-1]
    for orig, new in clone_body(differentiable_order(fn), d, vmap):
        what = plan.get(orig, 0)
        if what & CALL:
            assert isinstance(orig, CallInst) and isinstance(new, CallInst) and orig.called_function is not None
            call = Builder(InsertPoint.before_inst(new)).call(logged_primal(ctx, orig.called_function),
                                                               [*new.args, tape])
            call.name = new.name
            new.replace_all_uses_with(call)
            new.erase()
        elif what & VALUE:
            b = Builder(InsertPoint.after_inst(new))
            b.store(new, b.call(push, [tape, const_int(I64, slot_size(new.type, layout))]))
        elif what & CONDITION:
            b = Builder(InsertPoint.before_inst(new))
            cond = new.operand(0)
            b.store(cond, b.call(push, [tape, const_int(I64, slot_size(cond.type, layout))]))
    # The arguments first: the replay computes with these, not with what the split call passes (null pointers).
    b = Builder(InsertPoint.before_inst(d.blocks[0].instructions[0]))
    for a in d.args[:-1]:
        b.store(a, b.call(push, [tape, const_int(I64, slot_size(a.type, layout))]))
    return d


def replay_derivative(ctx: ADContext, fn: Function, activities: Iterable[str], width: int) -> Function:
    """``replay_<fn>(args, shadows, ptr tape, ptr cursor)``: the forward derivative reading ``fn``'s log from
    ``*cursor`` on (memoized)."""
    acts = tuple(Activity(a) for a in activities)
    key = ("forward split replay", fn, acts, width)
    got = ctx.memo.get(key)
    if got is not None:
        return got
    if ("forward split replaying", fn) in ctx.memo:
        raise DifferentiationError(f"__enzyme_fwdsplit: @{fn.name} calls itself (recursively); forward split "
                                   "mode does not replay recursion yet (use __enzyme_fwddiff)")
    ctx.memo[("forward split replaying", fn)] = True
    plan = replay_plan(ctx, fn)
    m = ctx.module
    if m.get_function(_READ) is None:
        add_helper_functions(m, _HELPERS)
    read = m.get_function(_READ)
    assert read is not None
    layout = DataLayout.of_module(m)
    d, vmap = forward_derivative_unshared(ctx, fn, acts, width, ((PTR, "tape"), (PTR, "log.cursor")), "replay_",
                                          lambda g, callee_acts: replay_derivative(ctx, g, callee_acts, width))
    del ctx.memo[("forward split replaying", fn)]
    ctx.memo[key] = d
    tape, cursor = d.args[-2], d.args[-1]

    def next_value(before: Instruction, v: Value) -> Value:
        b = Builder(InsertPoint.before_inst(before))
        return b.load(v.type, b.call(read, [tape, cursor, const_int(I64, slot_size(v.type, layout))]))

    for orig, what in plan.items():
        new = vmap.get(orig)
        if not isinstance(new, Instruction):
            continue
        if what & CALL:  # the walk called the callee's replay in its place (gone), or left the primal call
            assert isinstance(orig, CallInst) and orig.called_function is not None
            if new.parent is not None and isinstance(new, CallInst) and new.called_function is orig.called_function:
                # No tangent flows through this call, so forward mode left the primal call: its replay instead.
                _replay_inactive_call(ctx, new, orig.called_function, width, tape, cursor)
            continue
        if new.parent is None:
            raise _refuse(orig, "its forward derivative replaced it")
        if what & CONDITION:
            new.set_operand(0, next_value(new, new.operand(0)))
            continue
        if what & VALUE:
            new.replace_all_uses_with(next_value(new, new))
        if what & EFFECT:
            if new.has_uses:
                raise _refuse(orig, "its result is used but not logged")
            new.erase()
    first = d.blocks[0].instructions[0]
    for a in fn.args:
        primal = vmap[a]
        primal.replace_all_uses_with(next_value(first, primal))
    return d


def _replay_inactive_call(ctx: ADContext, call: CallInst, callee: Function, width: int, tape: Value,
                          cursor: Value) -> None:
    """``call`` of ``callee`` replaced by its replay with every argument constant (it reads the callee's log)."""
    replay = replay_derivative(ctx, callee, [Activity.CONST] * len(callee.args), width)
    b = Builder(InsertPoint.before_inst(call))
    res = b.call(replay, [*call.args, tape, cursor])
    if not call.type.is_void:
        primal = res if replay.return_type == call.type else b.extractvalue(res, [0])
        call.replace_all_uses_with(primal)
    call.erase()


def forward_split(ctx: ADContext, fn: Function, activities: tuple[str, ...], caller_tape: bool,
                  width: int, keep: bool = False) -> Function:
    """``fwdsplit_<fn>(args, shadows, tape[, i64 bytes])`` (memoized): checks the tape's tag, replays, then
    frees the log (and the tape, unless the caller's memory holds it); with ``keep`` (enzyme_nofree) the tape
    stays as it is, for more calls (reading it changes nothing)."""
    key = ("fwdsplit", fn, activities, caller_tape, width, keep)
    got = ctx.memo.get(key)
    if got is not None:
        return got
    replay = replay_derivative(ctx, fn, activities, width)
    m = ctx.module
    params = list(replay.function_type.params)[:-1] + ([I64] if caller_tape else [])
    names = [a.name for a in replay.args][:-1] + (["tape_bytes"] if caller_tape else [])
    d = Function(m.unique_name(f"fwdsplit_{fn.name}"), FunctionType(replay.return_type, tuple(params)),
                 arg_names=names, prefix="internal")
    m.add(d)
    inherit_target_attributes(fn, d)
    ctx.memo[key] = d
    b = Builder(d.append_block("entry"))
    tape = d.args[-2] if caller_tape else d.args[-1]
    if caller_tape:
        b = trap_unless(m, d, b, b.icmp("uge", d.args[-1], const_int(I64, TAPE_BYTES)))
    b = trap_unless(m, d, b, b.icmp("ne", tape, ConstantKeyword(PTR, "null")))
    tag_at = b.gep(TAPE_STRUCT, tape, [1])
    tag = b.load(I64, tag_at, name="tag")
    owner = b.binop("and", tag, const_int(I64, CALLER_OWNED), name="owner")
    # A tape of the reverse sweeps (or of another function) holds no log of this function: stop.
    b = trap_unless(m, d, b, b.icmp("eq", b.binop("xor", tag, owner), const_int(I64, forward_split_tag(fn))))
    cursor = b.alloca(I64, name="log.cursor")
    b.store(const_int(I64, 0), cursor, 8)
    res = b.call(replay, [*d.args[:len(replay.args) - 1], cursor])
    done = m.get_function("__pyenzyme_replay_done")
    assert done is not None
    b.call(done, [tape, cursor])  # the whole log was read: the tape was made for this function
    if keep:
        b.ret(None if replay.return_type.is_void else res)
        return d
    release_tape(m, b, tape)
    b.store(const_int(I64, 0), tag_at, 8)  # used up: a second __enzyme_fwdsplit with this tape traps
    finish, heap = d.append_block("done"), d.append_block("free_heap_tape")
    b.cond_br(b.icmp("eq", owner, const_int(I64, 0)), heap, finish)
    hb = Builder(heap)
    hb.call(m.declare_function("free", FunctionType(VOID, (PTR,))), [tape])
    hb.br(finish)
    Builder(finish).ret(None if replay.return_type.is_void else res)
    return d

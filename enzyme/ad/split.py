"""Split reverse mode: ``__enzyme_augmentfwd`` and ``__enzyme_reverse`` as two separate calls.

``augmentfwd_<f>(args, shadows) -> {ptr tape, T primal}`` (just ``ptr tape``
when f returns void) runs the augmented forward sweep on a tape it allocates
on the heap; ``reversesplit_<f>(args, shadows, [dret], tape)`` runs the
reverse sweep, returns the adjoints of the ``out`` arguments like
``__enzyme_autodiff`` and frees the tape.  The sweeps are generated with
``top_level=False``: the caller may change memory between the two calls, so
the tape keeps everything the reverse sweep reads.

The tape is the sweeps' (tape.py: the values stack and the stack of
deferred frees) followed by an ``i64`` tag naming the function and
activities it was made for: a tape given to the reverse sweep of something
else would be read with the wrong layout, so that traps at run time instead
of returning wrong adjoints.
"""
from __future__ import annotations

import zlib

from ..ir.target_attributes import inherit_target_attributes
from ..ir import ConstantKeyword, Function, FunctionType, StructType, Type, Value
from ..ir.builder import Builder, const_int
from ..ir.types import I64, PTR, VOID
from .common import ADContext, primal_and_shadow_params
from .forward_split import forward_split_tag, logged_primal
from .split_tapes import CALLER_OWNED, TAPE_BYTES, trap_unless
from .modes import Activity
from .reverse import sweeps
from .reverse_state import returned_adjoints
from .tape import TAPE_STRUCT, release_tape



def augmented_result_type(fn: Function) -> Type:
    """What ``__enzyme_augmentfwd`` returns for ``fn``: ``{ptr, T}``, or ``ptr`` when fn returns void."""
    return PTR if fn.return_type.is_void else StructType((PTR, fn.return_type))


def split_augmented(ctx: ADContext, fn: Function, activities: tuple[str, ...], caller_tape: bool = False,
                    width: int = 1) -> Function:
    """``augmentfwd_<fn>`` (memoized); with ``caller_tape`` it takes ``ptr tape, i64 bytes`` last.

    Batch width W: each dup argument has W shadows; the primal result is returned once."""
    key = ("augmentfwd", fn, activities, caller_tape, width)
    got = ctx.memo.get(key)
    if got is not None:
        return got
    logged = fn in ctx.forward_split  # the tape is a log for __enzyme_fwdsplit (forward_split.py)
    pair = None if logged else sweeps(ctx, fn, activities, top_level=False, width=width)
    m = ctx.module
    params, names = primal_and_shadow_params(fn, activities, width)
    if caller_tape:
        params += [PTR, I64]
        names += ["tape", "tape_bytes"]
    ret = fn.return_type if caller_tape else augmented_result_type(fn)
    d = Function(m.unique_name(f"augmentfwd_{fn.name}"), FunctionType(ret, tuple(params)), arg_names=names,
                 prefix="internal")
    m.add(d)
    inherit_target_attributes(fn, d)
    ctx.memo[key] = d
    b = Builder(d.append_block("entry"))
    if caller_tape:
        tape: Value = d.args[-2]
        b = trap_unless(m, d, b, b.icmp("uge", d.args[-1], const_int(I64, TAPE_BYTES)))
    else:
        malloc = m.declare_function("malloc", FunctionType(PTR, (I64,)))
        tape = b.call(malloc, [const_int(I64, TAPE_BYTES)], name="tape")
    b.store(ConstantKeyword(TAPE_STRUCT, "zeroinitializer"), tape)
    tag = forward_split_tag(fn) if logged else _tag(fn, activities, width)
    b.store(const_int(I64, tag | (CALLER_OWNED if caller_tape else 0)), b.gep(TAPE_STRUCT, tape, [1], name="tag"))
    if pair is None:
        primals = [d.args[i] for i in _primal_positions(activities, width)]
        res: Value = b.call(logged_primal(ctx, fn), [*primals, tape])
    else:
        res = b.call(pair.augmented, [*d.args[:len(d.args) - 2 * caller_tape], tape])
    if fn.return_type.is_void:
        b.ret(None if caller_tape else tape)
        return d
    primal = b.extractvalue(res, [0]) if pair is not None and pair.returns_shadow else res
    if caller_tape:
        b.ret(primal)
        return d
    agg = b.insertvalue(ConstantKeyword(ret, "undef"), tape, [0])
    b.ret(b.insertvalue(agg, primal, [1]))
    return d


def split_reverse(ctx: ADContext, fn: Function, activities: tuple[str, ...], caller_tape: bool = False,
                  width: int = 1) -> tuple[Function, tuple[Type, ...], bool]:
    """``reversesplit_<fn>`` (memoized): (function, types of the returned adjoints, whether it takes dret).

    With ``caller_tape`` it takes ``ptr tape, i64 bytes`` last and leaves the tape memory to the caller.
    Batch width W: W shadows per dup argument, W drets, each adjoint ``[W x T]``."""
    pair = sweeps(ctx, fn, activities, top_level=False, width=width)
    key = ("reversesplit", fn, activities, caller_tape, width)
    got = ctx.memo.get(key)
    if got is not None:
        return got, pair.out_types, pair.returns_adjoint
    m = ctx.module
    params, names = primal_and_shadow_params(fn, activities, width)
    if pair.returns_adjoint:
        assert pair.dret_type is not None
        params += [pair.dret_type] * width
        names += ["dret"] if width == 1 else [f"dret{j}" for j in range(width)]
    params.append(PTR)
    names.append("tape")
    if caller_tape:
        params.append(I64)
        names.append("tape_bytes")
    ret = StructType(pair.out_types) if pair.out_types else VOID
    d = Function(m.unique_name(f"reversesplit_{fn.name}"), FunctionType(ret, tuple(params)), arg_names=names,
                 prefix="internal")
    m.add(d)
    inherit_target_attributes(fn, d)
    ctx.memo[key] = d
    entry = d.append_block("entry")
    run = d.append_block("run")
    bad = d.append_block("wrong_tape")
    b = Builder(entry)
    tape = d.args[-2] if caller_tape else d.args[-1]
    if caller_tape:
        b = trap_unless(m, d, b, b.icmp("uge", d.args[-1], const_int(I64, TAPE_BYTES)))
    tag = b.load(I64, b.gep(TAPE_STRUCT, tape, [1]), name="tag")
    owner = b.binop("and", tag, const_int(I64, CALLER_OWNED), name="owner")
    b.cond_br(b.icmp("eq", b.binop("xor", tag, owner), const_int(I64, _tag(fn, activities, width))), run, bad)
    bb = Builder(bad)
    # A tape made for another function or other activities: its layout differs, so stop.
    bb.call(m.declare_function("llvm.trap", FunctionType(VOID, ())), [])
    bb.unreachable()
    b = Builder(run)
    res = b.call(pair.reverse, list(d.args[:-1] if caller_tape else d.args))
    release_tape(m, b, tape)
    # Whoever made the tape says who owns it: a heap tape is freed here, the caller's memory never.
    done, heap = d.append_block("done"), d.append_block("free_heap_tape")
    b.cond_br(b.icmp("eq", owner, const_int(I64, 0)), heap, done)
    hb = Builder(heap)
    hb.call(m.declare_function("free", FunctionType(VOID, (PTR,))), [tape])
    hb.br(done)
    db = Builder(done)
    db.ret(returned_adjoints(db, res) if pair.out_types else None)
    return d, pair.out_types, pair.returns_adjoint


def _primal_positions(activities: tuple[str, ...], width: int) -> list[int]:
    """Where each primal argument is among a derivative's parameters (each dup one is followed by its shadows)."""
    out, k = [], 0
    for act in activities:
        out.append(k)
        k += 1 + (width if Activity(act).has_shadow else 0)
    return out


def _tag(fn: Function, activities: tuple[str, ...], width: int) -> int:
    """A number naming (function, activities, width); the same in every run of the compiler."""
    return zlib.crc32(f"{fn.name}|{','.join(activities)}|{width}".encode()) | 0x5A00000000

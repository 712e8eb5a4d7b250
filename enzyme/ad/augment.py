"""The augmented sweep of non-call instructions: shadow pointers, heap-moved stack objects, guards.

In reverse mode the augmented sweep runs the primal and computes the
shadows of pointers (floats get adjoints only in the reverse sweep).  Each
instruction class has one handler in :data:`AUGMENT`; a handler runs once
per batch lane (``st.lane`` is the lane, ``st.shadow`` its shadows) unless
its entry says ``once``: then it runs at lane 0 and visits the lanes itself.
Calls are augment_calls.py's.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from ..errors import DifferentiationError
from ..ir import (AllocaInst, CastInst, ConstantKeyword, ExtractValueInst, GEPInst, InsertValueInst, Instruction,
                  IntType, LoadInst, ReturnInst, SelectInst, StoreInst, Value)
from ..ir.builder import Builder, InsertPoint, const_int
from ..ir.types import I8, I64, PointerType
from .aggregate_shadows import holds_pointers, pointer_paths
from .common import carries_float, describe, underlying_global, unshadowed_store_error, value_name, zero, zero_fill
from .copy_types import function_contexts
from .custom import custom_rules
from .float_bits import only_integer_uses
from .lanes import pack
from .reverse_state import ReverseState

AugmentFn = Callable[[ReverseState, Instruction, Instruction, Builder], None]


class Handler(NamedTuple):
    run: AugmentFn
    once: bool = False  # run at lane 0 only; the handler covers every lane itself


def _shadow_name(st: ReverseState, inst: Instruction) -> str | None:
    return value_name(inst, st.lane_suffix("'"))


def _address(st: ReverseState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    """GEPs and pointer casts: the same address computation on the shadow."""
    s = st.shadow.get(inst.operand(0))
    if s is not None:
        g = ni.clone()
        g.set_operand(0, s)
        st.shadow[inst] = b.insert(g, _shadow_name(st, inst))


def _cast(st: ReverseState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    assert isinstance(inst, CastInst)
    if isinstance(inst.type, PointerType) and inst.opcode in ("bitcast", "addrspacecast"):
        _address(st, inst, ni, b)
    elif inst.opcode == "inttoptr":
        s = st.displacements[st.lane].shadow(inst, b, _shadow_name(st, inst))
        if s is not None:
            st.shadow[inst] = s
    elif inst.opcode == "bitcast" and inst.operand(0) in st.active and not carries_float(inst.type) \
            and inst not in st.float_bits and not only_integer_uses(st.ctx, st.fn, inst):
        # e.g. bitcast double -> i64: the value's derivative would travel as integer bits.
        raise DifferentiationError(
            f"{describe(inst)}: reinterprets an active {inst.operand(0).type} value as {inst.type}; its "
            "derivative cannot follow integer bits in reverse mode yet")


def _alloca(st: ReverseState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    # Stack memory would die when the augmented sweep returns, but the reverse sweep still needs it: both
    # the primal and the shadow live on the heap until the reverse sweep passes the allocation.
    assert isinstance(inst, AllocaInst)
    if st.lane == 0:  # the primal moves once
        nbytes: Value = const_int(I64, st.layout.alloc_size(inst.allocated_type))
        bb = Builder(InsertPoint.before_inst(ni))
        if inst.count is not None:
            cnt = ni.operand(0)
            if cnt.type != I64:
                cnt = bb.cast("zext", cnt, I64)
            nbytes = bb.mul(cnt, nbytes)
        heap = st.heap_alloc(bb, nbytes, inst.align or 16, inst.name)
        ni.replace_all_uses_with(heap)
        st.fwd[inst] = heap
        ni.erase()
        st.alloca_bytes[inst] = nbytes
    nbytes = st.alloca_bytes[inst]
    shadow = st.heap_alloc(b, nbytes, inst.align or 16, _shadow_name(st, inst))
    zero_fill(st.m, b, shadow, nbytes)
    st.shadow[inst] = shadow


def _load(st: ReverseState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    assert isinstance(inst, LoadInst)
    s = st.shadow.get(inst.pointer)
    if s is not None and holds_pointers(inst.type):
        st.shadow[inst] = b.load(inst.type, s, _shadow_name(st, inst), inst.align)


def _extractvalue(st: ReverseState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    assert isinstance(inst, ExtractValueInst)
    s = st.shadow.get(inst.operand(0))
    if s is not None and holds_pointers(inst.type):
        st.shadow[inst] = b.extractvalue(s, inst.indices, _shadow_name(st, inst))


def _insertvalue(st: ReverseState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    assert isinstance(inst, InsertValueInst)
    agg, val = inst.operands
    if holds_pointers(inst.type) and (agg in st.shadow or val in st.shadow):
        sv = st.shadow_or_null(inst, val) if holds_pointers(val.type) else zero(val.type)
        st.shadow[inst] = b.insertvalue(st.shadow_or_null(inst, agg), sv, inst.indices, _shadow_name(st, inst))


def _select(st: ReverseState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    if not holds_pointers(inst.type):
        return
    sa, sb = st.shadow_or_none(inst.operand(1)), st.shadow_or_none(inst.operand(2))
    if sa is not None and sb is not None:
        st.shadow[inst] = b.select(ni.operand(0), sa, sb, _shadow_name(st, inst))
    elif sa is not None or sb is not None:
        raise DifferentiationError(f"{describe(inst)}: selects between a shadowed and an unshadowed "
                                   "pointer; not supported yet")


def _store(st: ReverseState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    assert isinstance(inst, StoreInst)
    v, p = inst.value, inst.pointer
    sp = st.shadow.get(p)
    if isinstance(v.type, PointerType) and sp is not None:
        b.store(st.shadow_or_null(inst, v), sp, inst.align)
    elif holds_pointers(v.type) and sp is not None:
        # A struct holding pointers: their shadows go to their places in the shadow memory (the float
        # fields' shadow bytes hold adjoints, which the reverse sweep takes care of).
        sv = st.shadow_or_null(inst, v)
        for path in pointer_paths(v.type):
            at = b.gep(I8, sp, [const_int(I64, st.offset_of(v.type, path))])
            b.store(b.extractvalue(sv, list(path)), at, 1)
    elif sp is None and (v in st.active or (holds_pointers(v.type) and v in st.shadow)) \
            and not custom_rules(st.m).is_inactive_global(underlying_global(p)):
        # A pointer to memory with a shadow, stored where no shadow keeps its shadow: whoever loads it back
        # would see constant memory and lose the derivatives through it.  (Not into a global declared
        # inactive: there the derivative is dropped on purpose.)
        raise unshadowed_store_error(inst, p)
    elif sp is not None and isinstance(v.type, IntType) and isinstance(v, LoadInst) \
            and v.pointer in st.shadow and v not in st.float_bits \
            and not all(info.is_integer(v) for info in function_contexts(st.ctx, st.fn)):
        raise DifferentiationError(f"{describe(inst)}: copies memory through an integer ({v.type}); "
                                   "if it holds floating-point data the derivative would be lost. "
                                   "Not supported yet in reverse mode")


def _return(st: ReverseState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    """A returned pointer comes back with the shadows of all lanes."""
    assert isinstance(inst, ReturnInst)
    if not st.returns_shadow:
        return
    v = inst.value
    assert v is not None
    svs = [st.shadow_or_null(inst, v) for _ in st.lanes()]
    rb = Builder(InsertPoint.before_inst(ni))
    agg = rb.insertvalue(ConstantKeyword(st.aug.return_type, "undef"), ni.operand(0), [0])
    ni.set_operand(0, rb.insertvalue(agg, pack(rb, svs), [1]))


#: Instruction class -> its augmented handler.  Classes not listed need no augmented code.
AUGMENT: dict[type, Handler] = {
    GEPInst: Handler(_address),
    CastInst: Handler(_cast),
    AllocaInst: Handler(_alloca),
    LoadInst: Handler(_load),
    ExtractValueInst: Handler(_extractvalue),
    InsertValueInst: Handler(_insertvalue),
    SelectInst: Handler(_select),
    StoreInst: Handler(_store),
    ReturnInst: Handler(_return, once=True),
}

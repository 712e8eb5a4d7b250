"""Memory instructions (load, store, alloca, getelementptr): forward, augmented and reverse code side by side.

Pointers carry shadows: memory that mirrors the primal memory and holds
tangents (forward mode) or adjoints (reverse mode).  A load of active
memory loads the tangent, or in reverse adds its adjoint into the shadow;
a store stores the tangent, or in reverse takes the shadow's adjoint and
zeroes it.  In reverse mode stack objects move to the heap for the augmented
sweep, since the reverse sweep still reads them (freed when it passes the
allocation).
"""
from __future__ import annotations

from collections.abc import Callable

from .hash_tables import bucket_integer_field, hashing_code
from ..analysis.layout import DataLayout
from ..analysis.tbaa import access_tree, no_float_extent
from ..analysis.type_offsets import gep_offset, is_array_descriptor
from ..analysis.type_tree import INTEGER
from ..errors import DifferentiationError
from ..ir import (AllocaInst, CastInst, ConstantKeyword, GEPInst, GlobalVariable, Instruction, IntType, LoadInst, StoreInst,
                  Value)
from ..ir.builder import Builder, InsertPoint, const_int
from ..ir.types import I8, I64, ArrayType, PointerType, StructType, Type
from .access_layout import loaded_integer
from .aggregate_shadows import holds_pointers, pointer_paths
from .common import (address_origins, carries_float, describe, underlying_global, unshadowed_store_error, value_name,
                     zero, zero_fill)
from .code_pointers import into_abi_table, needs_no_shadow, own_shadow
from .copy_records import integer_element_copy
from .declared_objects import declared_integers, declared_pointer_word
from .memcopy import string_characters
from .constant_shadows import zero_shadow_of_constant
from .copy_types import function_contexts, points_to_no_floats
from .custom import custom_rules
from .forward_state import ForwardState
from .integer_addresses import AddressDisplacements
from .integer_elements import integer_element
from .device import accumulate_into
from .openmp import needs_atomic_adjoint
from .openmp_runtime import atomic_add
from .pointer_words import pointer_word
from .reverse_state import ReverseState, fadd_deep


def has_tangent(t: Type) -> bool:
    """Values of type ``t`` carry a tangent: floats, or a shadow: pointers (and aggregates of them)."""
    return carries_float(t) or holds_pointers(t)


def shadow_name(st: ReverseState, inst: Instruction) -> str | None:
    return value_name(inst, st.lane_suffix("'"))


# -- forward -----------------------------------------------------------------------------------------------------


def forward_load(st: ForwardState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    assert isinstance(inst, LoadInst)
    s = st.tangent(inst.pointer)
    if s is not None:
        st.tan[inst] = b.load(inst.type, s, value_name(inst, "'"), inst.align)


def forward_store(st: ForwardState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    assert isinstance(inst, StoreInst)
    v, p = inst.value, inst.pointer
    s = st.tangent(p)
    if s is not None and store_integer_address(st.displacements[st.lane], inst, ni, b, s,
                                               lambda q: st.tangent(q) is not None):
        return
    if s is not None and isinstance(v.type, PointerType) and st.tangent(v) is None \
            and not isinstance(v, ConstantKeyword) and own_shadow(st.ctx, st.fn, v):
        b.store(ni.operand(0), s, inst.align)  # read-only integer data mirrors itself (code_pointers.own_shadow)
    elif s is not None:
        text = zero_shadow_of_constant(st.ctx.module, v) if st.tangent(v) is None else None
        if text is None:  # (a string literal's shadow: zeroed text, never null; constant_shadows.py)
            st.check_null_shadow(inst, v)
        b.store(text or st.t(v), s, inst.align)
    elif st.tangent(v) is not None and has_tangent(v.type) \
            and not custom_rules(st.ctx.module).is_inactive_global(underlying_global(p)) \
            and not string_characters(v) \
            and not (isinstance(v.type, PointerType) and needs_no_shadow(st.ctx, st.fn, v)):
        # A pointer's tangent (shadow) would be lost as well.  A global declared inactive drops it on purpose.
        raise unshadowed_store_error(inst, p)


def forward_address(st: ForwardState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    assert isinstance(inst, GEPInst)
    s = st.tangent(inst.pointer)
    if s is not None:
        g = ni.clone()
        g.set_operand(0, s)
        st.tan[inst] = b.insert(g, value_name(inst, "'"))


def forward_alloca(st: ForwardState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    assert isinstance(inst, AllocaInst)
    shadow = b.insert(ni.clone(), value_name(inst, "'"))
    st.tan[inst] = shadow
    # Zeroed, as upstream does: bytes nothing differentiated writes (an inactive call's output, say) have no
    # tangent.  LLVM drops the memset where stores overwrite everything anyway.
    nbytes: Value = const_int(I64, DataLayout.of_module(st.ctx.module).alloc_size(inst.allocated_type))
    if inst.count is not None:
        count = ni.operand(0)
        nbytes = b.mul(count if count.type == I64 else b.cast("zext", count, I64), nbytes)
    zero_fill(st.ctx.module, b, shadow, nbytes)


# -- augmented ----------------------------------------------------------------------------------------------------


def _is_null(v: Value) -> bool:
    return isinstance(v, ConstantKeyword) and v.keyword == "null"


def augment_load(st: ReverseState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    assert isinstance(inst, LoadInst)
    s = st.shadow.get(inst.pointer)
    if s is not None and (holds_pointers(inst.type) or _loads_a_pointer_as_integer(st, inst)):
        st.shadow[inst] = b.load(inst.type, s, shadow_name(st, inst), inst.align)


def _loads_a_pointer_as_integer(st: ReverseState, inst: LoadInst) -> bool:
    """An integer load of a pointer: made a pointer again (``inttoptr``), or known to type analysis as a pointer
    in every calling context (``load i64`` of a ``unique_ptr``'s slot, to be stored elsewhere), or the pointer
    field of a stack object by its declared type (``declared_objects.declared_pointer_word``).  Its shadow is
    the shadow slot's integer: the shadow's address, which stores of integer addresses put there."""
    if not isinstance(inst.type, IntType) or inst.type.bits != 64 or inst in st.float_bits:
        return False
    if any(isinstance(u.user, CastInst) and u.user.opcode == "inttoptr" for u in inst.uses):
        return True
    if declared_pointer_word(inst.pointer, 8, st.layout):
        return True
    infos = function_contexts(st.ctx, st.fn)
    return all(info.is_pointer(inst) for info in infos) or pointer_word(st.ctx, st.fn, infos, inst)


def augment_store(st: ReverseState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    assert isinstance(inst, StoreInst)
    v, p = inst.value, inst.pointer
    sp = st.shadow.get(p)
    if sp is not None and store_integer_address(st.displacements[st.lane], inst, ni, b, sp,
                                                st.maybe_shadowed):
        return
    if isinstance(v.type, PointerType) and sp is not None and v not in st.shadow \
            and into_abi_table(v):
        b.store(ni.operand(0), sp, inst.align)  # a vtable mirrors itself (code_pointers.into_abi_table)
    elif isinstance(v.type, PointerType) and sp is not None:
        b.store(st.shadow_or_null(inst, v), sp, inst.align)
    elif isinstance(v.type, IntType) and sp is not None and v in st.shadow:  # a pointer moved as an integer
        b.store(st.shadow[v], sp, inst.align)
    elif holds_pointers(v.type) and sp is not None:
        # A struct holding pointers: their shadows go to their places in the shadow memory (the float
        # fields' shadow bytes hold adjoints, which the reverse sweep takes care of).
        sv = st.shadow_or_null(inst, v)
        for path in pointer_paths(v.type):
            at = b.gep(I8, sp, [const_int(I64, st.offset_of(v.type, path))])
            b.store(b.extractvalue(sv, list(path)), at, 1)
    elif sp is None and (v in st.active or (holds_pointers(v.type) and v in st.shadow)) \
            and not custom_rules(st.m).is_inactive_global(underlying_global(p)) \
            and not st.plan.inactive_memory(p) and not string_characters(v) \
            and not (isinstance(v.type, PointerType) and needs_no_shadow(st.ctx, st.fn, v)):
        # A pointer to memory with a shadow, stored where no shadow keeps its shadow: whoever loads it back
        # would see constant memory and lose the derivatives through it.  (Not into a global declared
        # inactive: there the derivative is dropped on purpose; nor a pointer to memory without floats, a
        # string's characters.)
        raise unshadowed_store_error(inst, p)
    elif sp is not None and isinstance(v.type, IntType) and isinstance(v, LoadInst) \
            and v.pointer in st.shadow and v not in st.float_bits and not read_as_integer(v) \
            and not all(info.is_integer(v) for info in function_contexts(st.ctx, st.fn)) \
            and no_float_extent(v.pointer, st.layout) < st.layout.store_size(v.type) \
            and not _known_integer_word(st, inst, v, p):
        raise DifferentiationError(f"{describe(inst)}: copies memory through an integer ({v.type}); "
                                   "if it holds floating-point data the derivative would be lost. "
                                   "Not supported yet in reverse mode")


def _known_integer_word(st: ReverseState, inst: Instruction, v: LoadInst, p: Value) -> bool:
    """Is the word ``v`` that ``inst`` copies to ``p`` known to hold no float bits?  Read from a known library
    object holding no floats -- a std::string's buffer union, or the characters its data pointer points to, as a
    one-character string is copied -- it holds none; nor does a word stored with an integer access tag, a word of
    a flang descriptor, a libstdc++ copy or fill of integers, hashing code or a hash table entry's integer field,
    a constructor moving its class's int fields, or a word the program itself uses as an integer."""
    size = st.layout.store_size(v.type)
    return _tagged_integer(inst, size) \
        or any(descriptor_word(st.layout, q, v.type) for q in (v.pointer, p)) \
        or string_characters(v.pointer) or string_characters(p) \
        or integer_element_copy(st.fn) or integer_element(v.pointer) or integer_element(p) \
        or hashing_code(st.fn) \
        or bucket_integer_field(st.fn, p, size, st.layout) \
        or declared_integers(st.fn, v.pointer, size, st.layout, st.m) \
        or loaded_integer(v, st.layout, lambda g: function_contexts(st.ctx, g))


def store_integer_address(displacements: AddressDisplacements, inst: Instruction, ni: Instruction, b: Builder,
                          shadow_slot: Value, has_shadow: Callable[[Value], bool]) -> bool:
    """A pointer stored as an integer (``store i64 (ptrtoint p)``, LLVM's form of moving a ``unique_ptr``)
    into memory with a shadow: the shadow slot gets the shadow's address, as a pointer store would give it.
    False when the stored value is no address of memory with a shadow."""
    assert isinstance(inst, StoreInst) and isinstance(ni, StoreInst)
    v = inst.value
    if not isinstance(v.type, IntType) or not address_origins(v, has_shadow):
        return False
    d = displacements.of(v, inst)
    if d is None:
        raise DifferentiationError(f"{describe(inst)}: the address of memory with a shadow is stored as an "
                                   "integer whose shadow is unknown here. Keep it a pointer")
    b.store(b.add(ni.value, d), shadow_slot, inst.align)
    return True


def augment_address(st: ReverseState, inst: Instruction, ni: Instruction, b: Builder) -> None:
    """GEPs and pointer casts: the same address computation on the shadow.  An address computed from null
    (the end of an empty range, ``null + n``) is its own shadow: it points nowhere in either memory, and
    phis that merge it with real addresses (``begin + size`` of a vector that may be empty) get a shadow."""
    base = inst.operand(0)
    s = base if _is_null(base) else st.shadow.get(base)
    if s is not None:
        g = ni.clone()
        g.set_operand(0, s)
        st.shadow[inst] = b.insert(g, shadow_name(st, inst))


def augment_alloca(st: ReverseState, inst: Instruction, ni: Instruction, b: Builder) -> None:
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
    if inst in st.inactive_locals:
        return
    nbytes = st.alloca_bytes[inst]
    shadow = st.heap_alloc(b, nbytes, inst.align or 16, shadow_name(st, inst))
    zero_fill(st.m, b, shadow, nbytes)
    st.shadow[inst] = shadow


# -- reverse -----------------------------------------------------------------------------------------------------


def reverse_load(st: ReverseState, b: Builder, inst: Instruction) -> None:
    assert isinstance(inst, LoadInst)
    if inst in st.active and inst.pointer in st.shadow:
        if holds_pointers(inst.type):
            raise DifferentiationError(f"{describe(inst)}: loads a {inst.type} mixing pointers and "
                                       "floating-point values; not supported in reverse mode yet")
        d = st.take_adjoint(b, inst)
        sp = st.available(st.shadow[inst.pointer])
        if needs_atomic_adjoint(st.ctx, st.fn, inst.pointer):  # threads of a parallel region meet here
            atomic_add(st.m, b, sp, d, inst)
            return
        accumulate_into(st.m, b, sp, d, inst.align, fadd_deep)  # atomic in GPU device code


def reverse_store(st: ReverseState, b: Builder, inst: Instruction) -> None:
    assert isinstance(inst, StoreInst)
    v, p = inst.value, inst.pointer
    if p not in st.shadow or isinstance(v.type, PointerType) or st.plan.skips_store(inst):
        return
    sp = st.available(st.shadow[p])
    if carries_float(v.type) or v in st.float_bits:
        if holds_pointers(v.type):
            raise DifferentiationError(f"{describe(inst)}: stores a {v.type} mixing pointers and "
                                       "floating-point values; not supported in reverse mode yet")
        t = st.adjoint_type(v)
        d = b.load(t, sp, align=inst.align)
        b.store(zero(t), sp, inst.align)
        st.add_adjoint(b, v, d)
    elif not points_to_no_floats(function_contexts(st.ctx, st.fn), p):
        # Overwritten bytes that may have held floats: their adjoints die here.  (Memory that type
        # analysis knows holds no floats has no adjoints to drop, and its shadow may be null: a char
        # buffer that an inactive library call allocated, whose pointer got a null shadow.)
        b.store(zero(v.type), sp, inst.align)


def reverse_alloca(st: ReverseState, b: Builder, inst: Instruction) -> None:
    st.free_both(b, inst)  # the stack object moved to the heap, and its shadows


def descriptor_word(layout: DataLayout, p: Value, t: Type) -> bool:
    """Does ``p`` point, at a constant offset into a stack object or global of known type, to an integer word of a
    flang array descriptor (element length, version and flags, bounds, extents, strides: every field but the base
    address)?  flang copies descriptors whole, and SROA splits such copies into integer loads and stores."""
    offset = 0
    while isinstance(p, GEPInst):
        const, strides = gep_offset(layout, p.source_type, list(p.operands[1:]))
        if strides:
            return False
        offset += const
        p = p.pointer
    ty = p.allocated_type if isinstance(p, AllocaInst) else p.value_type if isinstance(p, GlobalVariable) else None
    size = layout.store_size(t)
    while ty is not None:
        if is_array_descriptor(ty):
            return offset >= 8 and offset + size <= layout.alloc_size(ty)
        if isinstance(ty, StructType):
            k = next((i for i, o in reversed(list(enumerate(layout.struct_offsets(ty)))) if o <= offset), None)
            if k is None:
                return False
            start, ty = layout.element_offset(ty, k)
            offset -= start
        elif isinstance(ty, ArrayType) and layout.alloc_size(ty.element) > 0:
            offset %= layout.alloc_size(ty.element)
            ty = ty.element
        else:
            return False
    return False


def read_as_integer(load: LoadInst) -> bool:
    """Does the load's TBAA tag say it reads an integer (clang's ``long``, flang's descriptor fields)?  Under
    strict aliasing such bytes cannot be a floating-point value, whatever type analysis merged for them."""
    tree = access_tree(load, 1)
    return tree is not None and tree.at(0) == INTEGER


def _tagged_integer(store: Instruction, size: int) -> bool:
    """Does the store's own access tag say it writes an integer (a ``size_t`` field, tagged at -O0 by
    driver/field_tags.py)?  Then the word it copies holds no float bits."""
    tree = access_tree(store, size)
    first = tree.first_level() if tree is not None else {}
    return bool(first) and all(t.is_integer for t in first.values())

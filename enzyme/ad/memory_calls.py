"""Memory functions (rules.memory: allocation, free, realloc, copy, move, fill, input) in every mode.

Forward mode performs the same operation on the shadows (a copy copies the
tangents, a new block gets a zeroed shadow block).  In reverse mode the augmented sweep gives new blocks zeroed shadows, defers frees until
the reverse sweep is done (it still reads the blocks), and copies pointer
shadows along with copied pointers; the reverse sweep moves the adjoints
of copied floats back from the destination to the source and zeroes the
adjoints of overwritten bytes.  realloc's reverse mode is realloc.py's.
"""
from __future__ import annotations

from ..analysis.tbaa import no_float_extent, struct_copy
from ..errors import DifferentiationError
from ..analysis.layout import DataLayout
from ..ir import BinaryOperator, CallInst, ConstantInt, Instruction, IntType, Module, Value
from ..ir.builder import Builder, const_int
from ..ir.types import I8, I64, PTR, PointerType
from ..rules.memory import MemoryFunction
from ..rules.names import proxy_parts
from .hash_tables import bucket_copy_layout, control_byte_copy, control_byte_source
from .common import constant_pointer_copy_error, describe, underlying_global, value_name, zero, zero_fill
from .access_layout import accessed_object_layout
from .closure_copies import closure_copy_layout
from .declared_objects import declared_object_layout
from .copy_records import integer_element_copy, template_element, template_moves_pointers
from .copy_types import (CopyLayout, analyzed_functions, copy_layout, declared_copy_layout, emit_leaf_adjoints, emit_pointer_shadow_copies,
                         function_contexts, may_copy_pointers, sorted_element_layout)
from .code_pointers import needs_no_shadow
from .custom import custom_rules
from .input_calls import augment_input_call, forward_input_call, reverse_input_call
from .openmp import needs_atomic_adjoint, refuse_in_parallel
from .openmp_runtime import atomic_add
from .memcopy import (copied_element_type, copy_adjoint_function, declared_without_floats, record_adjoint_function,
                      record_returned_shadow, stored_as_non_float, string_characters)
from .relay_copies import relay_partner
from .realloc import augment_realloc, released_in_function, reverse_realloc, zero_usable
from .value_insts import stop_unless
from .forward_state import ForwardState
from .reverse_state import ReverseState


def forward_memory_call(st: ForwardState, inst: CallInst, ni: CallInst, b: Builder, mf: MemoryFunction) -> None:
    """Tangent (shadow) code of a call of the memory function ``mf``, for the current lane."""
    args, nargs = inst.args, ni.args
    kind = mf.kind.value
    if kind == "input":
        forward_input_call(st, inst, ni, b, mf)
        return
    if kind in ("copy", "move", "set"):
        assert mf.dst is not None
        sd = st.tangent(args[mf.dst])
        if sd is None:
            if mf.src is not None and st.tangent(args[mf.src]) is not None \
                    and not custom_rules(st.ctx.module).is_inactive_global(underlying_global(args[mf.dst])) \
                    and not any(string_characters(args[i]) for i in (mf.src, mf.dst)) \
                    and not needs_no_shadow(st.ctx, st.fn, args[mf.src]):  # (characters: nothing is lost)
                raise DifferentiationError(f"{describe(inst)}: copies active memory into memory that has no "
                                           "shadow; pass the destination as enzyme_dup")
            return
        if mf.src is not None and mf.size is not None and control_byte_source(st.fn, args[mf.dst], args[mf.src], args[mf.size]):
            zero_fill(st.ctx.module, b, sd, nargs[mf.size])  # hashbrown's control bytes: no tangent to copy
            return
        c = ni.clone()
        c.set_operand(mf.dst, sd)
        if mf.src is not None:
            ss = st.tangent(args[mf.src])
            if ss is None and may_copy_pointers(function_contexts(st.ctx, st.fn), args[mf.dst], args[mf.src],
                                                copied_element_type(st.fn, [args[mf.dst], args[mf.src]])) \
                    and not copy_within_strings(st.ctx.module, b, inst, args[mf.dst], args[mf.src],
                                                nargs[mf.size] if mf.size is not None else None,
                                                DataLayout.of_module(st.ctx.module)):
                raise constant_pointer_copy_error(inst)
            if ss is None:  # copying constant data: the destination's tangent becomes zero
                assert mf.size is not None
                zero_fill(st.ctx.module, b, sd, nargs[mf.size])
                return
            c.set_operand(mf.src, ss)
        elif mf.value is not None:
            c.set_operand(mf.value, zero(args[mf.value].type))
        _record_returned_shadow(st, inst, b.insert(c), mf)
    elif kind in ("alloc", "calloc", "realloc"):
        c = ni.clone()
        if kind == "realloc":
            assert mf.ptr is not None
            c.set_operand(mf.ptr, st.t(args[mf.ptr]))
        if mf.out is not None:  # posix_memalign: the shadow block goes into the shadow of *out
            out_shadow = st.tangent(args[mf.out])
            if out_shadow is None:
                return  # nothing reads the block through a shadow: it carries no derivatives
            c.set_operand(mf.out, out_shadow)
            b.insert(c)
            s = b.load(PTR, out_shadow, value_name(inst, "'"))
        else:
            s = b.insert(c, value_name(inst, "'"))
            st.tan[inst] = s
        if kind == "alloc":  # zero the shadow so untouched bytes have zero tangent
            assert mf.size is not None
            zero_fill(st.ctx.module, b, s, nargs[mf.size])
    elif kind == "free":
        assert mf.ptr is not None
        shadow = st.tangent(args[mf.ptr])
        if shadow is not None:
            c = ni.clone()
            c.set_operand(mf.ptr, shadow)
            b.insert(c)


def _record_returned_shadow(st: ForwardState, inst: CallInst, shadow_call: Instruction, mf: MemoryFunction) -> None:
    """libc memcpy/memset return their destination: the shadow call returns the shadow's."""
    if mf.returns.value in ("dst", "dst_end") and isinstance(inst.type, PointerType):
        st.tan[inst] = shadow_call


def augment_memory_call(st: ReverseState, inst: CallInst, ni: CallInst, b: Builder, mf: MemoryFunction) -> None:
    """The augmented code of a call of the memory function ``mf``, for the current lane."""
    name = inst.callee_name or mf.name
    kind = mf.kind.value
    if kind == "input":
        augment_input_call(st, ni, b, mf)
        return
    if kind in ("alloc", "calloc"):
        if inst in st.inactive_locals:
            return  # a block that never holds derivative data (a stream buffer): no shadow
        c = ni.clone()
        if mf.out is not None:  # posix_memalign: the shadow block goes into the shadow of *out
            out = inst.args[mf.out]
            if out not in st.shadow:
                return  # nothing reads the block through a shadow: it carries no derivatives
            c.set_operand(mf.out, st.shadow[out])
            b.insert(c)
            s = b.load(PTR, st.shadow[out], value_name(inst, st.lane_suffix("'")))
        else:
            s = b.insert(c, value_name(inst, st.lane_suffix("'")))
            st.shadow[inst] = s
        # malloc_usable_size knows only malloc's blocks, not those of an allocation_like allocator.
        if st.zero_usable and custom_rules(st.m).allocation(inst) is None:
            zero_usable(st.m, b, s)
        elif kind == "alloc":
            assert mf.size is not None
            zero_fill(st.m, b, s, ni.args[mf.size])
        return
    if kind == "realloc":
        st.refuse_batch(inst, "realloc")
        augment_realloc(st, inst, ni, b)
        return
    if kind == "free":
        # The reverse sweep still reads the block and its shadow, back to where it was allocated
        # (maybe in a caller): both are freed once the whole reverse sweep is done (tape.py).  A block of
        # an allocation_like allocator goes back to its own deallocator when the reverse sweep passes its
        # allocation instead (the deferred frees call free()); one freed elsewhere is left to leak.
        if st.lane == 0:
            assert mf.ptr is not None
            if proxy_parts(name) is None:
                st.free_after_reverse(b, inst.args[mf.ptr], ni.args[mf.ptr])
            ni.erase()
        return
    record_returned_shadow(st.shadow, b, mf, inst, ni)  # memcpy, mempcpy, memset return (a pointer into) dst
    if kind == "set":
        return  # the shadow is zeroed in the reverse sweep
    if kind in ("copy", "move") and mf.dst is not None and mf.src is not None \
            and mf.size is not None:
        dst, src = inst.args[mf.dst], inst.args[mf.src]
        if dst not in st.shadow and src not in st.shadow:
            return
        if control_byte_source(st.fn, dst, src, inst.args[mf.size]):
            return  # hashbrown's control bytes: no adjoint, and an empty table's shadow control pointer is null
        if dst not in st.shadow:
            if custom_rules(st.m).is_inactive_global(underlying_global(dst)):
                return  # into a global declared inactive: the derivative is dropped on purpose
            if st.plan.inactive_memory(dst) or string_characters(dst) or string_characters(src):
                return  # into memory nothing reads back into the result (activity analysis), or characters
            raise DifferentiationError(f"{describe(inst)}: copies memory that may hold active values into "
                                       "memory that has no shadow; pass the destination as enzyme_dup")
        if src not in st.shadow and may_copy_pointers(function_contexts(st.ctx, st.fn), dst, src,
                                                        copied_element_type(st.fn, [dst, src])):
            if not copy_within_strings(st.m, b, inst, dst, src, ni.args[mf.size], st.layout):
                raise constant_pointer_copy_error(inst)
        layout = copy_layout_of(st, inst, dst, src, inst.args[mf.size]) if src in st.shadow else None
        if src in st.shadow and layout is None:
            raise DifferentiationError(
                f"{describe(inst)}: {name} of memory that may hold active values, but type analysis cannot tell "
                "which copied bytes are floating-point data (some are never accessed with a type, or with "
                "several), so their adjoints cannot be moved safely; copy the fields one by one with their "
                "types")
        # Float adjoints move back in the reverse sweep; copied pointers take their shadows now.
        if layout is not None and layout.max_bytes is not None:
            n = ni.args[mf.size]
            stop_unless(st.m, b, b.icmp("ule", n, const_int(n.type, layout.max_bytes)),
                        f"pyenzyme: {describe(inst)}: copies more than the {layout.max_bytes} bytes known to hold no "
                        "floating-point data; the derivative through the rest cannot be kept")
        if layout is not None and layout.no_floats:
            c = ni.clone()
            c.set_operand(mf.dst, st.shadow[dst])
            c.set_operand(mf.src, st.shadow[src])
            b.insert(c)
        elif layout is not None and layout.pointers:
            emit_pointer_shadow_copies(b, st.shadow[dst], st.shadow[src], layout.pointers)
        return
    if any(a in st.shadow for a in inst.args):
        raise DifferentiationError(f"{describe(inst)}: {name} of memory that may hold active values is "
                                   "not supported in reverse mode yet")


def copy_within_strings(m: Module, b: Builder, inst: CallInst, dst: Value, src: Value, n: Value | None,
                        layout: DataLayout) -> bool:
    """May ``inst`` copy from memory without a shadow into memory with one, both within known library objects
    holding characters (a std::string's short-string buffer, filled from a string a function without a body
    returned)?  Nothing copied is a pointer, as long as the copy stays there: checked at run time (inserted)."""
    extent = min(no_float_extent(dst, layout), no_float_extent(src, layout))
    if not extent or n is None or not isinstance(n.type, IntType):
        return False
    stop_unless(m, b, b.icmp("ule", n, const_int(n.type, extent)),
                f"pyenzyme: {describe(inst)}: copies more than the {extent} bytes known to hold characters from "
                "memory without a shadow; pointers in the rest would lose their shadows")
    return True


def reverse_memory_call(st: ReverseState, b: Builder, inst: CallInst, mf: MemoryFunction) -> None:
    """The reverse of a call of the memory function ``mf``, for the current lane."""
    name = inst.callee_name or mf.name
    kind = mf.kind.value
    if kind in ("alloc", "calloc") and proxy_parts(name) is not None and released_in_function(inst):
        if st.lane == 0:
            st.release_custom_allocation(b, inst)
    elif kind == "realloc":
        reverse_realloc(st, b, inst)
    elif kind == "input":
        reverse_input_call(st, b, inst, mf)
    elif kind == "set" and mf.dst is not None and mf.size is not None and inst.args[mf.dst] in st.shadow:
        # The overwritten bytes' adjoints are consumed: zero them.
        zero_fill(st.m, b, st.available(st.shadow[inst.args[mf.dst]]),
                  st.primal(inst.args[mf.size]))
    elif kind in ("copy", "move") and mf.dst is not None and mf.src is not None and mf.size is not None \
            and inst.args[mf.dst] in st.shadow \
            and not control_byte_source(st.fn, inst.args[mf.dst], inst.args[mf.src], inst.args[mf.size]):  # (no adjoint there)
        reverse_copy(st, b, inst, kind == "move", inst.args[mf.dst], inst.args[mf.src],
                           inst.args[mf.size])


def reverse_copy(st: ReverseState, b: Builder, inst: CallInst, overlapping: bool, dst: Value, src: Value,
                  size: Value) -> None:
    layout = copy_layout_of(st, inst, dst, src, size) if src in st.shadow else None
    if layout is not None and layout.element is None and not layout.leaves:
        return  # no floating-point data was copied (a struct of integers and pointers)
    sd = st.available(st.shadow[dst])
    nbytes = st.primal(size)
    if nbytes.type != I64:
        nbytes = b.cast("zext", nbytes, I64)
    if src not in st.shadow:  # constant data was copied: the overwritten adjoints are dropped
        zero_fill(st.m, b, sd, nbytes)
        return
    assert layout is not None  # checked in the augmented sweep
    ss = st.available(st.shadow[src])
    if layout.stride is None and layout.element is None and needs_atomic_adjoint(st.ctx, st.fn, src) \
            and not needs_atomic_adjoint(st.ctx, st.fn, dst):
        # A thread's private copy of a shared struct (firstprivate): its fields' adjoints go back atomically.
        taken = []
        for off, t in layout.leaves:
            p = b.gep(I8, sd, [const_int(I64, off)])
            taken.append((off, b.load(t, p, align=1)))
            b.store(zero(t), p, 1)
        for off, d in taken:
            atomic_add(st.m, b, b.gep(I8, ss, [const_int(I64, off)]), d, inst)
        return
    refuse_in_parallel(st.ctx, st.fn, inst, "copies floating-point data out of", src)
    if layout.stride is not None:
        b.call(record_adjoint_function(st.m, layout.leaves, layout.stride, overlapping), [sd, ss, nbytes])
        return
    if layout.element is None:
        emit_leaf_adjoints(b, sd, ss, layout.leaves)
        return
    helper = copy_adjoint_function(st.m, layout.element, overlapping)
    b.call(helper, [sd, ss, nbytes])


def element_multiple(size: Value) -> int | None:
    """``C`` when a copy's length is a count times the constant ``C`` (``mul n, C`` or ``shl n, k``)."""
    if isinstance(size, BinaryOperator) and isinstance(size.operands[1], ConstantInt):
        c = size.operands[1].value
        if size.opcode == "mul" and c > 0:
            return c
        if size.opcode == "shl" and 0 <= c < 16:
            return 1 << c
    return None


def copy_layout_of(st: ReverseState, inst: CallInst, dst: Value, src: Value, size: Value,
                   relayed: bool = False) -> CopyLayout | None:
    """What a copy moves, from type analysis, how this function accesses the memory and the copy's own
    ``!tbaa.struct`` (its field types are in type analysis; the bytes it lists no field for are padding)."""
    accessed = copied_element_type(st.fn, [dst, src]) or template_element(st.fn)
    nbytes = size.value if isinstance(size, ConstantInt) else None
    fields = struct_copy(inst, nbytes) if nbytes is not None else None
    infos = function_contexts(st.ctx, st.fn)
    types = st.ctx.types
    assert types is not None  # function_contexts made it
    if integer_element_copy(st.fn) or template_moves_pointers(st.fn) or \
            any(declared_without_floats(p, nbytes, st.layout) or string_characters(p) for p in (dst, src)) or \
            control_byte_copy(st.fn, dst, src):
        return CopyLayout(no_floats=True)  # a struct of pointers and integers, a std::string's characters
    found = copy_layout(infos, dst, src, nbytes, st.layout, analyzed_functions(st.ctx), accessed, types.contexts,
                        fields.padding if fields is not None else frozenset(), list(st.m.struct_types.values()),
                        count_of=element_multiple(size))
    if found is None:  # one entry of a Rust HashMap moved between buckets
        found = bucket_copy_layout(st.fn, dst, src, nbytes, st.layout)
    if found is None and fields is not None and nbytes is not None:
        # The copy's own !tbaa.struct names every field (the C/C++ type clang copied): it decides where type
        # analysis merged contexts into conflicts, unless a fact it holds contradicts a field.
        found = declared_copy_layout(infos, dst, src, nbytes, st.layout, fields.tree, fields.padding)
    if found is None and nbytes is not None:  # a whole stack object of a declared struct type (-O0 temporaries)
        found = declared_object_layout(infos, dst, src, nbytes, st.layout, list(st.m.struct_types.values()))
    if found is None and nbytes is not None:  # a Rust move out of a stack slot whose every write is known
        found = accessed_object_layout(infos, dst, src, nbytes, st.layout, lambda g: function_contexts(st.ctx, g),
                                       analyzed_functions(st.ctx))
    if found is None and nbytes is not None:  # std::function cloning a lambda's closure
        found = closure_copy_layout(infos, dst, src, nbytes, st.layout, lambda g: function_contexts(st.ctx, g))
    if found is None:  # one element of an array a caller sorts, in pyenzyme's qsort body
        found = sorted_element_layout(st.fn, size, st.layout, analyzed_functions(st.ctx), types.contexts)
    if found is None and not relayed:  # through a stack temporary that only relays the bytes (std::pop_heap)
        partner = relay_partner(inst, dst, src, nbytes, st.layout)
        if partner is not None:
            found = copy_layout_of(st, partner[0], partner[1], partner[2], size, relayed=True)
    if found is None and nbytes is None:
        # Within known library objects holding no floats on both sides (a std::string's short-string buffer
        # moved with its run-time length): no floats, as long as the copy stays there (checked at run time).
        extent = min(no_float_extent(dst, st.layout), no_float_extent(src, st.layout))
        if extent:
            found = CopyLayout(no_floats=True, max_bytes=extent)
    if found is not None and found.element is not None and \
            stored_as_non_float(st.fn, [dst, src], nbytes, found.element, inst):
        return None  # "floats throughout", yet this function puts integers or pointers there: contradictory
    return found

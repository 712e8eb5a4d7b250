"""Automatic shadows of globals that hold heap blocks: Fortran allocatable module arrays, C pointers to malloc'd work.

A module variable ``real(8), allocatable :: h(:, :)`` is a global flang array descriptor
(``{ ptr, i64, i32, i8, i8, i8, i8, [r x [3 x i64]] }``), and ``static double *work`` that a C solver allocates on
its first call (``if (!work) work = malloc(...)``) is a global pointer.  Their automatic shadows
(enzyme.driver.active_globals) would be zeroed, describing no block: where the array is already allocated when the
derivative is called (an earlier primal call allocated it, and a reallocating assignment ``h = ...`` of the same
shape, or ``if (!work)``, reuses the block), the derivative would then store through a null shadow.  So at each
top-level derivative call site the shadow is set up like the global: the descriptor's words copied and, when the
array is allocated, a zeroed block of the array's size as its base address; for a C pointer that only ever holds
what malloc/calloc/realloc/aligned_alloc returned (or null), a zeroed block of the block's malloc_usable_size (the
tangent or adjoint of the values set before the call is zero).  After the call the block the shadow then holds
(that one, or the one a reallocation inside the call made) is freed and the shadow zeroed.  A file-scope
``std::vector`` (three pointers: begin, end, capacity end) is set up the same way: a zeroed block of the primal
block's usable size, with end and capacity at the primal's offsets.  Pointer arrays
(POINTER attribute) and C pointers that may point elsewhere keep the zeroed shadow: what they point to is not
known here.
"""
from __future__ import annotations

from ..analysis.type_offsets import is_array_descriptor
from ..ir import (ArrayType, CallInst, CmpInst, Function, FunctionType, GEPInst, GlobalVariable, LoadInst, Module,
                  PhiInst, PointerType, SelectInst, StoreInst, StructType, Value)
from ..ir.builder import Builder, const_int
from ..ir.types import I1, I8, I64, PTR, VOID
from ..ir.values import ConstantKeyword

ATTRIBUTE_ALLOCATABLE = 2
_ENTER, _LEAVE = "__pyenzyme_descriptor_shadow_enter", "__pyenzyme_descriptor_shadow_leave"


def is_descriptor_global(g: GlobalVariable) -> bool:
    return is_array_descriptor(g.value_type)


def is_heap_pointer_global(module: Module, g: GlobalVariable) -> bool:
    """A plain pointer global into which the program stores only what the C allocator returned, or null, and that
    owns those blocks: each allocation is stored there and nowhere else, and freed through the global only.  A
    global that points to a block something else owns (``keys = ps->w`` after inlining ``ps->w = malloc(...)``)
    is left alone: its shadow would be the owner's, freed with it."""
    from .context_shadows import holds_only_allocations
    if not isinstance(g.value_type, PointerType) or not holds_only_allocations(module, g):
        return False
    for use in g.uses:
        store = use.user
        if isinstance(store, StoreInst) and isinstance(store.value, CallInst) and not _owned_by(store.value, store):
            return False
    return True


def _owned_by(block: Value, store: StoreInst) -> bool:
    """Is the allocation ``block`` only stored by ``store``, and otherwise only addressed, compared or filled (not
    stored elsewhere, freed directly or passed on)?"""
    seen: set[Value] = set()
    work = [block]
    while work:
        v = work.pop()
        if v in seen:
            continue
        seen.add(v)
        for u in v.users:
            if u is store or isinstance(u, (CmpInst, LoadInst)):
                continue
            if isinstance(u, StoreInst) and u.value is not v:
                continue  # stores through it
            if isinstance(u, (PhiInst, SelectInst, GEPInst)):
                work.append(u)
                continue
            if isinstance(u, CallInst) and (u.callee_name or "").startswith(("llvm.memset", "llvm.memcpy",
                                                                             "llvm.memmove", "llvm.lifetime")):
                continue
            return False
    return True


def enter_heap_pointer(module: Module, b: Builder, primal: GlobalVariable, shadow: GlobalVariable) -> None:
    """``shadow = primal ? calloc(1, malloc_usable_size(primal)) : null``."""
    _, _, calloc, _ = _memory(module)
    usable = module.declare_function("malloc_usable_size", FunctionType(I64, (PTR,)))
    block = b.load(PTR, primal)
    null = ConstantKeyword(PTR, "null")
    fresh = b.call(calloc, [const_int(I64, 1), b.call(usable, [block])])  # malloc_usable_size(NULL) is 0
    is_null = b.icmp("eq", block, null)
    b.call(_memory(module)[3], [b.select(is_null, fresh, null)])  # the block asked for a null primal goes back
    b.store(b.select(is_null, null, fresh), shadow)


def leave_heap_pointer(module: Module, b: Builder, shadow: GlobalVariable) -> None:
    b.call(_memory(module)[3], [b.load(PTR, shadow)])
    b.store(ConstantKeyword(PTR, "null"), shadow)


def is_vector_global(g: GlobalVariable) -> bool:
    """A file-scope ``std::vector`` (libstdc++: begin, end and capacity-end pointers), which owns its block."""
    t = g.value_type
    leaves: list[object] = []
    stack = [t]
    while stack:
        u = stack.pop()
        if isinstance(u, StructType):
            stack.extend(u.elements)
        else:
            leaves.append(u)
    return (getattr(t, "name", "") or "").startswith("class.std::vector") and len(leaves) == 3 \
        and all(isinstance(u, PointerType) for u in leaves)


def enter_vector(module: Module, b: Builder, primal: GlobalVariable, shadow: GlobalVariable) -> None:
    """The shadow vector as the primal: a zeroed block of the primal block's usable size (null for a null
    block), its end and capacity at the primal's offsets."""
    enter_heap_pointer(module, b, primal, shadow)
    block = b.cast("ptrtoint", b.load(PTR, primal), I64)
    fresh = b.load(PTR, shadow)
    for at in (8, 16):
        offset = b.sub(b.cast("ptrtoint", b.load(PTR, b.gep(I8, primal, [const_int(I64, at)])), I64), block)
        b.store(b.gep(I8, fresh, [offset]), b.gep(I8, shadow, [const_int(I64, at)]))


def leave_vector(module: Module, b: Builder, shadow: GlobalVariable) -> None:
    b.call(_leave(module), [shadow, const_int(I64, 24)])


def descriptor_bytes(g: GlobalVariable) -> int:
    t = g.value_type
    assert isinstance(t, StructType)
    rest = t.elements[7:]
    rank = rest[0].count if rest and isinstance(rest[0], ArrayType) else 0
    return 24 + 24 * rank


def enter(module: Module, b: Builder, primal: GlobalVariable, shadow: GlobalVariable) -> None:
    b.call(_enter(module), [primal, shadow, const_int(I64, descriptor_bytes(primal))])


def leave(module: Module, b: Builder, shadow: GlobalVariable) -> None:
    b.call(_leave(module), [shadow, const_int(I64, descriptor_bytes(shadow))])


def _memory(module: Module) -> tuple[Function, Function, Function, Function]:
    memcpy = module.declare_function("llvm.memcpy.p0.p0.i64", FunctionType(VOID, (PTR, PTR, I64, I1)))
    memset = module.declare_function("llvm.memset.p0.i64", FunctionType(VOID, (PTR, I8, I64, I1)))
    calloc = module.declare_function("calloc", FunctionType(PTR, (I64, I64)))
    free = module.declare_function("free", FunctionType(VOID, (PTR,)))
    return memcpy, memset, calloc, free


def _enter(module: Module) -> Function:
    """``void enter(desc *primal, desc *shadow, i64 bytes)``: the shadow descriptor as the primal's, with a zeroed
    block of the array's size when the primal is an allocated allocatable."""
    got = module.get_function(_ENTER)
    if got is not None:
        return got
    memcpy, _, calloc, _ = _memory(module)
    f = Function(_ENTER, FunctionType(VOID, (PTR, PTR, I64)), prefix="internal")
    module.add(f)
    primal, shadow, nbytes = f.args
    entry, alloc, loop, done, out = (f.append_block(n) for n in ("entry", "alloc", "loop", "done", "out"))
    b = Builder(entry)
    b.call(memcpy, [shadow, primal, nbytes, const_int(I1, 0)])
    base = b.load(PTR, primal)
    attribute = b.load(I8, b.gep(I8, primal, [const_int(I64, 22)]))
    rank = b.cast("zext", b.load(I8, b.gep(I8, primal, [const_int(I64, 20)])), I64)
    owned = b.binop("and", b.icmp("ne", base, ConstantKeyword(PTR, "null")),
                    b.icmp("eq", attribute, const_int(I8, ATTRIBUTE_ALLOCATABLE)))
    b.cond_br(owned, alloc, out)
    b = Builder(alloc)
    elem = b.load(I64, b.gep(I8, primal, [const_int(I64, 8)]))
    b.cond_br(b.icmp("sgt", rank, const_int(I64, 0)), loop, done)
    b = Builder(loop)
    k, size = b.phi(I64), b.phi(I64)
    extent = b.load(I64, b.gep(I8, primal, [b.add(const_int(I64, 32), b.mul(k, const_int(I64, 24)))]))
    positive = b.select(b.icmp("sgt", extent, const_int(I64, 0)), extent, const_int(I64, 0))
    size2, k2 = b.mul(size, positive), b.add(k, const_int(I64, 1))
    b.cond_br(b.icmp("slt", k2, rank), loop, done)
    k.add_incoming(const_int(I64, 0), alloc)
    k.add_incoming(k2, loop)
    size.add_incoming(elem, alloc)
    size.add_incoming(size2, loop)
    b = Builder(done)
    total = b.phi(I64)
    total.add_incoming(elem, alloc)
    total.add_incoming(size2, loop)
    nonzero = b.select(b.icmp("sgt", total, const_int(I64, 0)), total, const_int(I64, 1))
    b.store(b.call(calloc, [const_int(I64, 1), nonzero]), shadow)
    b.ret()
    b = Builder(out)
    b.store(ConstantKeyword(PTR, "null"), shadow)
    b.ret()
    return f


def _leave(module: Module) -> Function:
    """``void leave(desc *shadow, i64 bytes)``: frees the block the shadow holds and zeroes the descriptor."""
    got = module.get_function(_LEAVE)
    if got is not None:
        return got
    _, memset, _, free = _memory(module)
    f = Function(_LEAVE, FunctionType(VOID, (PTR, I64)), prefix="internal")
    module.add(f)
    shadow, nbytes = f.args
    b = Builder(f.append_block("entry"))
    b.call(free, [b.load(PTR, shadow)])
    b.call(memset, [shadow, const_int(I8, 0), nbytes, const_int(I1, 0)])
    b.ret()
    return f

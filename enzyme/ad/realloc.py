"""realloc in reverse mode.

``q = realloc(p, n)`` frees ``p`` once it has copied it, but the reverse sweep
still needs ``p`` and its shadow: it has to move the adjoints of the copied
bytes from ``q``'s shadow back to ``p``'s (``q[i] = p[i]`` has the adjoint
``dp[i] += dq[i]``), and the reverse of the code before the realloc reads
``p``'s shadow.  So the augmented sweep turns the call into what realloc does,
minus the free:

* ``q = malloc(n)`` and a zero-filled shadow ``dq = malloc(n)`` (zeroed over
  its whole usable size: a later realloc copies usable bytes, see below);
* copy ``c = min(usable(p), n)`` bytes ``p -> q`` and ``min(c, usable(dp))``
  bytes ``dp -> dq`` (pointers stored in the buffer have shadows that must
  move with it; ``usable(NULL) == 0`` makes ``realloc(NULL, n)`` a malloc);
* leave ``p`` and ``dp`` alive until the reverse sweep is done (deferred
  frees, tape.py), like any block the program frees.

realloc does not know how many bytes of ``p`` were requested, only glibc's
``malloc_usable_size`` (>= the request); copying those extra bytes is what
realloc itself may do, and they are never read before written by a correct
program.  Their shadow bytes must be zero, which is why shadows of heap
blocks in a module that reallocs are zeroed over their usable size.

The reverse sweep, at the realloc, adds ``dq``'s adjoints of the copied
prefix into ``dp`` (the memcpy adjoint of memcopy.py, with the element type
inferred from how the buffer is accessed).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..analysis import DataLayout
from ..errors import DifferentiationError
from ..ir import (
    CallInst,
    CastInst,
    CmpInst,
    Constant,
    DebugRecord,
    Function,
    GEPInst,
    Instruction,
    LoadInst,
    Module,
    PhiInst,
    ReturnInst,
    SelectInst,
    StoreInst,
    Type,
    Value,
)
from ..ir.splice import add_helper_functions
from ..ir.types import DOUBLE, I8, FloatType, IntType, PointerType, VectorType
from ..rules.names import rust_shim_name
from .common import describe, is_inactive_function, memory_function, value_name
from .copy_types import CopyLayout
from .memcopy import copy_adjoint_function, record_adjoint_function
from .realloc_mixed import floats_among_integers
from .tape import TAPE_PUSH

if TYPE_CHECKING:
    from ..ir.builder import Builder
    from .reverse_state import ReverseState as _Generator

AUGMENTED_REALLOC = "__pyenzyme_realloc_augmented"
USABLE_SIZE = "malloc_usable_size"

_HELPER = """
declare ptr @malloc(i64)
declare i64 @malloc_usable_size(ptr)
declare void @abort()
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare i64 @llvm.umin.i64(i64, i64)

define internal { ptr, ptr, i64 } @__pyenzyme_realloc_augmented(ptr %p, ptr %dp, i64 %n) alwaysinline {
entry:
  %q = call ptr @malloc(i64 %n)
  %dq = call ptr @malloc(i64 %n)
  %qnull = icmp eq ptr %q, null
  %dqnull = icmp eq ptr %dq, null
  %either = or i1 %qnull, %dqnull
  %nonzero = icmp ne i64 %n, 0
  %failed = and i1 %either, %nonzero
  br i1 %failed, label %oom, label %copy
oom:
  call void @abort()
  unreachable
copy:
  %udq = call i64 @malloc_usable_size(ptr %dq)
  call void @llvm.memset.p0.i64(ptr %dq, i8 0, i64 %udq, i1 false)
  %up = call i64 @malloc_usable_size(ptr %p)
  %c = call i64 @llvm.umin.i64(i64 %up, i64 %n)
  call void @llvm.memcpy.p0.p0.i64(ptr %q, ptr %p, i64 %c, i1 false)
  %udp = call i64 @malloc_usable_size(ptr %dp)
  %cs = call i64 @llvm.umin.i64(i64 %c, i64 %udp)
  call void @llvm.memcpy.p0.p0.i64(ptr %dq, ptr %dp, i64 %cs, i1 false)
  %r0 = insertvalue { ptr, ptr, i64 } undef, ptr %q, 0
  %r1 = insertvalue { ptr, ptr, i64 } %r0, ptr %dq, 1
  %r2 = insertvalue { ptr, ptr, i64 } %r1, i64 %cs, 2
  ret { ptr, ptr, i64 } %r2
}
"""


# Rust's __rust_realloc(p, old_size, align, new_size) knows the old size: exactly that many bytes (of the block
# and of its shadow, zeroed over its requested size when allocated) are copied.  Rust's default global allocator
# hands out malloc blocks (aligned_alloc beyond 16-byte alignment) and frees them with free(), as this does.
AUGMENTED_RUST_REALLOC = "__pyenzyme_rust_realloc_augmented"

_RUST_HELPER = """
declare ptr @malloc(i64)
declare ptr @aligned_alloc(i64, i64)
declare void @abort()
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare i64 @llvm.umin.i64(i64, i64)

define internal ptr @__pyenzyme_rust_block(i64 %n, i64 %align) alwaysinline {
entry:
  %small = icmp ule i64 %align, 16
  br i1 %small, label %plain, label %aligned
plain:
  %m = call ptr @malloc(i64 %n)
  ret ptr %m
aligned:
  %a1 = sub i64 %align, 1
  %up = add i64 %n, %a1
  %mask = sub i64 0, %align
  %rounded = and i64 %up, %mask
  %a = call ptr @aligned_alloc(i64 %align, i64 %rounded)
  ret ptr %a
}

define internal { ptr, ptr, i64 } @__pyenzyme_rust_realloc_augmented(ptr %p, ptr %dp, i64 %old, i64 %align, i64 %n) alwaysinline {
entry:
  %q = call ptr @__pyenzyme_rust_block(i64 %n, i64 %align)
  %dq = call ptr @__pyenzyme_rust_block(i64 %n, i64 %align)
  %qnull = icmp eq ptr %q, null
  %dqnull = icmp eq ptr %dq, null
  %either = or i1 %qnull, %dqnull
  br i1 %either, label %oom, label %copy
oom:
  call void @abort()
  unreachable
copy:
  call void @llvm.memset.p0.i64(ptr %dq, i8 0, i64 %n, i1 false)
  %c = call i64 @llvm.umin.i64(i64 %old, i64 %n)
  call void @llvm.memcpy.p0.p0.i64(ptr %q, ptr %p, i64 %c, i1 false)
  %dpnull = icmp eq ptr %dp, null
  %cs = select i1 %dpnull, i64 0, i64 %c
  call void @llvm.memcpy.p0.p0.i64(ptr %dq, ptr %dp, i64 %cs, i1 false)
  %r0 = insertvalue { ptr, ptr, i64 } undef, ptr %q, 0
  %r1 = insertvalue { ptr, ptr, i64 } %r0, ptr %dq, 1
  %r2 = insertvalue { ptr, ptr, i64 } %r1, i64 %cs, 2
  ret { ptr, ptr, i64 } %r2
}
"""


def augmented_realloc_function(module: Module, *, rust: bool = False) -> Function:
    """``{q, dq, shadow bytes copied} (p, dp, n)``: realloc without freeing ``p`` (see the module doc)."""
    name, helper = (AUGMENTED_RUST_REALLOC, _RUST_HELPER) if rust else (AUGMENTED_REALLOC, _HELPER)
    f = module.get_function(name)
    if f is None:
        add_helper_functions(module, helper)
        f = module.get_function(name)
    assert f is not None
    return f


def module_reallocs(module: Module) -> bool:
    """Does any function of the program (not our helpers) call C realloc?"""
    f = module.get_function("realloc")
    if f is None:
        return False
    for user in f.users:
        fn = user.parent.parent if isinstance(user, CallInst) and user.parent is not None else None
        if fn is not None and not (fn.name or "").startswith("__pyenzyme"):
            return True
    return False


def zero_usable(module: Module, b: Builder, block: Value) -> None:
    """Zero a heap block over its whole usable size (glibc's ``malloc_usable_size``)."""
    from ..ir import FunctionType
    from ..ir.types import I64, PTR
    from .common import zero_fill
    usable = module.declare_function(USABLE_SIZE, FunctionType(I64, (PTR,)))
    zero_fill(module, b, block, b.call(usable, [block]))


def released_in_function(alloc: Value) -> bool:
    """Is this heap block freed or reallocated in its function (directly, or through casts, phis, selects)?"""
    work, seen = [alloc], set()
    while work:
        v = work.pop()
        if v in seen:
            continue
        seen.add(v)
        for user in v.users:
            if isinstance(user, CallInst) and user.callee_name:
                mf = memory_function(user.callee_name)
                if mf is not None and mf.kind.value in ("free", "realloc") and mf.ptr is not None \
                        and user.args[mf.ptr] is v:
                    return True
            elif isinstance(user, (CastInst, PhiInst, SelectInst)):
                work.append(user)
    return False


class _Unknown(Exception):
    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


@dataclass
class _Family:
    """What the pointers of one reallocated buffer show about it."""

    types: set[Type] = field(default_factory=set)        # loaded and stored through them
    indexed_as: set[Type] = field(default_factory=set)   # GEP element types (arrays of them)
    hidden: list[str] = field(default_factory=list)      # why some accesses are out of sight
    stored_integers: list[Value] = field(default_factory=list)  # integers stored through them
    float_align: int = 1 << 12  # the least alignment floats are accessed with (small in packed structs)


def buffer_element_type(gen: _Generator, inst: CallInst) -> Type | None:
    """The one floating-point type a reallocated buffer holds, or None when it holds no floats.

    The buffer is every pointer connected to the realloc's operand and result
    through GEPs, casts, phis, selects and other reallocs (in both directions),
    followed into defined callees.  Loads and stores through them give the
    types; a mix of floats with anything else, or an unknown callee, is
    refused (the adjoints could not be moved without knowing where floats are).
    When the buffer's address is stored in memory, returned or copied with
    memcpy, accesses happen out of sight of that walk; then the element types
    it indexes with and type analysis must agree on one float type for every
    byte (or on no floats at all), else the realloc is refused.
    """
    mf = memory_function(inst.callee_name or "")
    assert mf is not None and mf.ptr is not None
    if inst.function is not None and inst.function.name == TAPE_PUSH:
        # Our own tape, differentiated when derivatives are nested: 8-byte slots of doubles, integers and
        # pointers.  Only double slots carry adjoints (the old block's are still zero when the reverse sweep
        # adds the new block's back), and reverse sweeps read no pointer or integer shadows from it.
        return DOUBLE
    family = _Family()
    try:
        _walk_family([inst, inst.args[mf.ptr]], set(), family, 0)
    except _Unknown as e:
        raise _refusal(inst, e.why) from None
    scalars = {t.element if isinstance(t, VectorType) else t for t in family.types}
    if family.hidden:
        scalars |= _indexed_and_analysed_types(gen, inst, family)
        if not scalars:
            raise _refusal(inst, f"its address is {family.hidden[0]} and what it holds is not known")
    floats = {t for t in scalars if isinstance(t, FloatType)}
    if not floats:
        return None
    if len(scalars) > 1:
        names = ", ".join(sorted({"integer" if isinstance(t, IntType) else str(t) for t in scalars}))
        raise MixedBufferError(f"{describe(inst)}: realloc of a buffer accessed as several types ({names}); "
                               "its adjoints cannot be moved safely, not supported in reverse mode yet",
                               scalars, family)
    (t,) = floats
    return t


class MixedBufferError(DifferentiationError):
    """The buffer holds floats and other data: only an array of records with a known layout is supported."""

    def __init__(self, message: str, scalars: set[Type] | None = None, family: _Family | None = None) -> None:
        super().__init__(message)
        self.scalars = scalars or set()
        self.family = family


def buffer_layout(gen: _Generator, inst: CallInst) -> Type | CopyLayout | None:
    """:func:`buffer_element_type`, or for a buffer of records mixing floats with other fields (a growable
    array of ``struct Particle {double x[3], v[3]; int cell; double m;}``) the float leaves of one record
    and its size, from type analysis and the struct type the buffer is indexed with (copy_types.py)."""
    try:
        return buffer_element_type(gen, inst)
    except MixedBufferError:
        from .copy_types import analyzed_functions, copy_layout, function_contexts
        mf = memory_function(inst.callee_name or "")
        assert mf is not None and mf.ptr is not None
        infos = function_contexts(gen.ctx, gen.fn)
        assert gen.ctx.types is not None  # function_contexts made it
        found = copy_layout(infos, inst, inst.args[mf.ptr], None, DataLayout.of_module(gen.m),
                            analyzed_functions(gen.ctx), None, gen.ctx.types.contexts)
        if found is not None and found.stride is not None:
            return found
        e = _mixed_error(gen, inst)
        if e is not None and e.family is not None and not e.family.hidden:
            among = floats_among_integers(gen, inst, e.scalars, e.family.indexed_as, e.family.stored_integers,
                                          e.family.float_align)
            if among is not None:
                return among
        raise


def _mixed_error(gen: _Generator, inst: CallInst) -> MixedBufferError | None:
    try:
        buffer_element_type(gen, inst)
    except MixedBufferError as e:
        return e
    return None


def _refusal(inst: CallInst, why: str) -> DifferentiationError:
    return DifferentiationError(f"{describe(inst)}: realloc of memory that may hold active values, but {why}; "
                                "its adjoints cannot be moved safely, not supported in reverse mode yet")


def _indexed_and_analysed_types(gen: _Generator, inst: CallInst, family: _Family) -> set[Type]:
    """Scalar types of the buffer's bytes from the element types it is indexed with and type analysis."""
    from .copy_types import function_contexts
    layout = DataLayout.of_module(gen.m)
    found: set[Type] = set()
    for t in family.indexed_as:
        found.update(leaf for _, leaf in layout.scalar_leaves(t, max_offset=4096))
    mf = memory_function(inst.callee_name or "")
    assert mf is not None and mf.ptr is not None
    for info in function_contexts(gen.ctx, gen.fn):
        for ptr in (inst, inst.args[mf.ptr]):
            for _, fact in info.pointee_tree(ptr):
                if fact.is_anything:
                    raise MixedBufferError(str(_refusal(inst, "type analysis finds bytes of several types in it")))
                if fact.is_float:
                    found.add(FloatType(fact.float_kind))  # type: ignore[arg-type]
                elif fact.is_pointer:
                    found.add(PointerType())
                else:
                    found.add(I8)  # integer bytes (of some width: only "not a float" matters here)
    return found


def _walk_family(start: list[Value], seen: set[Value], family: _Family, depth: int) -> None:
    work = list(start)
    while work:
        v = work.pop()
        if v in seen or not isinstance(v.type, PointerType):
            continue
        seen.add(v)
        # Upwards: where the pointer comes from (within the buffer).
        if isinstance(v, GEPInst):
            work.append(v.operand(0))
            if not isinstance(v.source_type, IntType):  # i8 GEPs are byte offsets, no type
                family.indexed_as.add(v.source_type)
        elif isinstance(v, CastInst):
            work.append(v.operand(0))
        elif isinstance(v, PhiInst):
            work.extend(x for x, _ in v.incoming)
        elif isinstance(v, SelectInst):
            work.extend(v.operands[1:])
        elif isinstance(v, CallInst) and v.callee_name:
            mf = memory_function(v.callee_name)
            if mf is not None and mf.kind.value == "realloc" and mf.ptr is not None:
                work.append(v.args[mf.ptr])
        # Downwards: every use of it.
        for use in v.uses:
            user = use.user
            if isinstance(user, (GEPInst, PhiInst, SelectInst)) or isinstance(user, CastInst) and \
                    isinstance(user.type, PointerType):
                work.append(user)
            elif isinstance(user, LoadInst):
                family.types.add(user.type)
                _note_alignment(family, user.type, user.align)
            elif isinstance(user, StoreInst):
                if user.pointer is v:
                    family.types.add(user.value.type)
                    _note_alignment(family, user.value.type, user.align)
                    if isinstance(user.value.type, IntType):
                        family.stored_integers.append(user.value)
                else:
                    family.hidden.append("stored in memory")  # loaded back and used elsewhere
            elif isinstance(user, CallInst):
                _call_use(user, v, seen, family, depth)
            elif isinstance(user, ReturnInst) and _callers(user.function) is not None and depth < 8:
                for c in _callers(user.function) or ():  # returned: the callers' results are the buffer too
                    _walk_family([c], seen, family, depth + 1)
            elif isinstance(user, Instruction) and not isinstance(user, (CmpInst, DebugRecord)):
                family.hidden.append(f"used by `{user.opcode}`")  # returned, made an integer, ...


def _note_alignment(family: _Family, t: Type, align: int | None) -> None:
    if isinstance(t.element if isinstance(t, VectorType) else t, FloatType):
        family.float_align = min(family.float_align, align or 1)


def _callers(f: Function | None) -> list[CallInst] | None:
    """The calls of ``f``, or None where its address is taken (it may be called from anywhere)."""
    if f is None:
        return None
    calls = [u.user for u in f.uses if isinstance(u.user, CallInst) and u.user.callee is f]
    return calls if len(calls) == len(f.uses) else None


def _call_use(call: CallInst, v: Value, seen: set[Value], family: _Family, depth: int) -> None:
    name = call.callee_name or ""
    mf = memory_function(name) if name else None
    if mf is not None:
        if mf.kind.value == "realloc":
            seen.discard(call)  # its result is part of the family
            _walk_family([call], seen, family, depth)
        elif mf.kind.value in ("copy", "move"):
            family.hidden.append(f"copied with {name}")  # the bytes' types come from the other side
        return  # alloc/free/set: the bytes' types come from the accesses
    if name and (is_inactive_function(name) or name.startswith("llvm.")):
        return
    f = call.called_function
    if f is None or f.is_declaration or depth > 8:
        raise _Unknown(f"it is passed to {'@' + name if name else 'an indirect call'}, whose accesses are unknown")
    for i, a in enumerate(call.args):
        if a is v and i < len(f.args):
            _walk_family([f.args[i]], seen, family, depth + 1)


def check_realloc(gen: _Generator, inst: CallInst) -> None:
    """Refuse reallocs the reverse sweep cannot handle (before anything is generated)."""
    name = inst.callee_name or ""
    if name != "realloc" and not _is_rust_realloc(inst):
        raise DifferentiationError(f"{describe(inst)}: {name} of memory that may hold active values is not "
                                   "supported in reverse mode yet (only C realloc and __rust_realloc are)")
    if _is_rust_realloc(inst) and any("__rg_alloc" in (f.name or "") for f in gen.m.functions):
        raise DifferentiationError(f"{describe(inst)}: __rust_realloc with a #[global_allocator]: the reverse sweep "
                                   "keeps the old block alive and allocates with malloc, which only Rust's default "
                                   "allocator is compatible with")
    buffer_layout(gen, inst)


def _is_rust_realloc(inst: CallInst) -> bool:
    return rust_shim_name(inst.callee_name or "") == "__rust_realloc"


def augment_realloc(gen: _Generator, inst: CallInst, ni: CallInst, b: Builder) -> None:
    """Replace the cloned realloc ``ni`` by the deferred-free form (see the module doc)."""
    from ..ir import ConstantKeyword
    from ..ir.types import I64, PTR
    check_realloc(gen, inst)
    mf = memory_function(inst.callee_name or "")
    assert mf is not None and mf.ptr is not None and mf.size is not None
    dp = gen.shadow_or_none(inst.args[mf.ptr])
    n = ni.args[mf.size]
    if n.type != I64:
        n = b.cast("zext", n, I64)
    old_shadow = dp if dp is not None else ConstantKeyword(PTR, "null")
    if _is_rust_realloc(inst):
        assert mf.old_size is not None and mf.align is not None
        res = b.call(augmented_realloc_function(gen.m, rust=True),
                     [ni.args[mf.ptr], old_shadow, ni.args[mf.old_size], ni.args[mf.align], n])
    else:
        res = b.call(augmented_realloc_function(gen.m), [ni.args[mf.ptr], old_shadow, n])
    q = b.extractvalue(res, [0])
    gen.shadow[inst] = b.extractvalue(res, [1], value_name(inst, "'"))
    gen.realloc_copied[inst] = b.extractvalue(res, [2])
    ni.replace_all_uses_with(q)
    q.name = ni.name
    gen.fwd[inst] = q
    gen.free_after_reverse(b, inst.args[mf.ptr], ni.args[mf.ptr])  # what realloc frees, once the reverse sweep is done
    ni.erase()


def reverse_realloc(gen: _Generator, b: Builder, inst: CallInst) -> None:
    """Move the copied prefix's adjoints back into the old shadow."""
    mf = memory_function(inst.callee_name or "")
    assert mf is not None and mf.ptr is not None
    t = buffer_layout(gen, inst)
    dp = gen.shadow_or_none(inst.args[mf.ptr])
    if t is not None and dp is not None and not isinstance(dp, Constant):
        if isinstance(t, CopyLayout):
            assert t.stride is not None
            helper = record_adjoint_function(gen.m, t.leaves, t.stride, overlapping=False)
        else:
            helper = copy_adjoint_function(gen.m, t, overlapping=False)
        b.call(helper, [gen.available(gen.shadow[inst]), gen.available(dp),
                        gen.available(gen.realloc_copied[inst])])

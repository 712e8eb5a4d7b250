"""Upstream Enzyme's global-shadow API: ``__enzyme_context``, ``__enzyme_shadow``, ``__enzyme_zero_shadows``.

A program asks for the shadow of a global (``__enzyme_shadow(ctx, &g, lane)``
or the query form ``__enzyme_shadow(&g, width, lane)``), seeds or reads it,
clears every shadow it asked for with ``__enzyme_zero_shadows(ctx)``, and
passes ``enzyme_context, ctx`` to ``__enzyme_autodiff``/``__enzyme_fwddiff``.
Those shadows belong to the program: the derivatives accumulate adjoints into
them and read tangents from them, and nothing zeroes them around the calls
(unlike the shadows enzyme.driver.active_globals makes on its own).

As upstream, a context's shadows serve the calls that pass it and the query
form's (upstream's implicit shadows) the calls that pass none; a call reaching a
global whose shadow was asked for in the other form is refused, and so is a
global asked for in both forms (upstream keeps two shadows, here there is one).

Each ``__enzyme_context(width)`` call is a context of its own: a private constant
holding its width, whose address the call returns, and its own shadow globals,
one per lane (a context of width 2 makes the calls that pass it derivatives of
two directions).  The driver gives each request the shadows of the context it
passes, and derivatives made for one context are not shared with another, so
the same function differentiated in two contexts accumulates into two places,
and a gradient taken in one context can be differentiated again in another.
The query form's shadows are the module's own (registered like the ones users
declare with ``enzyme_shadow``, ``custom_rules(module).shadows``).

A shadow of a global holding pointers would have to point to shadow memory;
supported are a global whose initializer points to other globals and into which
the program stores only numbers (its shadow is initialized the same way, with
floating-point values zero and each pointer pointing to the shadow of its
global in the same context and lane; __enzyme_zero_shadows restores that), and
a plain pointer that only ever holds what the C allocator returned (its shadow
then gets a zeroed block of the same size, malloc_usable_size, at the first
query, and __enzyme_zero_shadows zeroes that block).  Refused with one line:
other globals holding pointers, a context or global not known at compile time.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..ad.common import carries_float, is_null_pointer, zero_fill
from ..ad.custom import custom_rules
from ..analysis.activity_solver import reachable_functions
from ..analysis.layout import DataLayout
from ..errors import DifferentiationError, UsageError
from ..ir import (
    ArrayType,
    CallInst,
    Constant,
    ConstantAggregate,
    ConstantExpr,
    ConstantFP,
    ConstantInt,
    ConstantKeyword,
    ConstantText,
    Function,
    FunctionType,
    GlobalVariable,
    LoadInst,
    Module,
    PointerType,
    StoreInst,
    StructType,
    Type,
    Value,
    VectorType,
    strip_pointer_casts,
)
from ..ir.builder import Builder, InsertPoint, const_int
from ..ir.types import I64, PTR
from .active_globals import new_shadow
from .replace import erase_call
from .requests import Request, where


@dataclass
class Context:
    """One ``__enzyme_context(width)``: its handle (a private global holding the width) and its shadows."""

    handle: GlobalVariable
    width: int
    shadows: dict[GlobalVariable, list[GlobalVariable]] = field(default_factory=dict)
    owned: list[GlobalVariable] = field(default_factory=list)        # zeroed by __enzyme_zero_shadows
    initialized: list[GlobalVariable] = field(default_factory=list)  # reset to their initializer instead
    heap_owned: list[GlobalVariable] = field(default_factory=list)   # hold shadow heap blocks: those are zeroed


@dataclass
class ShadowForms:
    """What the program asked for: how many calls were replaced, the globals whose shadows it asked for with a
    context (``__enzyme_shadow(ctx, &g, lane)``) and without (the query form, upstream's implicit shadows),
    and the contexts, by handle."""

    calls: int = 0
    with_context: set[GlobalVariable] = field(default_factory=set)
    implicit: set[GlobalVariable] = field(default_factory=set)
    contexts: dict[GlobalVariable, Context] = field(default_factory=dict)

    def all_context_shadows(self) -> dict[GlobalVariable, list[GlobalVariable]]:
        """Every global some context shadows (with the lanes of one of them): they get no automatic shadow."""
        out: dict[GlobalVariable, list[GlobalVariable]] = {}
        for c in self.contexts.values():
            for g, lanes in c.shadows.items():
                out.setdefault(g, lanes)
        return out

    def context_of(self, req: Request) -> Context | None:
        """The context a request passes (``enzyme_context, ctx``), None without one."""
        if req.context is None:
            return None
        found = self._resolve(req.context)
        if found is None:
            raise DifferentiationError(
                f"{req.call.callee_name} {where(req.call)}: the value after enzyme_context must be what one "
                "__enzyme_context call returned, known at compile time (not loaded from memory or chosen at run "
                "time)")
        return found

    def _resolve(self, v: Value) -> Context | None:
        v = strip_pointer_casts(v)
        got = self.contexts.get(v) if isinstance(v, GlobalVariable) else None
        if got is None and len(self.contexts) == 1 and not isinstance(v, GlobalVariable):
            return next(iter(self.contexts.values()))  # the program's only context
        return got


def replace_shadow_api(module: Module) -> ShadowForms:
    """Replace the API's calls by the shadow globals they name."""
    found: dict[str, list[CallInst]] = {n: [] for n in ("__enzyme_context", "__enzyme_shadow", "__enzyme_zero_shadows")}
    for f in module.functions:
        for inst in f.instructions():
            if isinstance(inst, CallInst):
                name = inst.callee_name or ""
                for n, where_found in found.items():
                    if n in name:
                        where_found.append(inst)
    forms = ShadowForms(calls=sum(map(len, found.values())))
    if not forms.calls:
        return forms
    for call in found["__enzyme_context"]:
        width = _positive_int(call, call.args[0] if call.args else None, "the width of the context")
        handle = _context_handle(module, width)
        forms.contexts[handle] = Context(handle, width)
        call.replace_all_uses_with(handle)
        erase_call(call)
    implicit = Context(_context_handle(module, 1), 1)  # the query form's width-1 shadows: the module's own
    for call in found["__enzyme_shadow"]:
        base, with_context = _replace_shadow_query(module, forms, implicit, call)
        (forms.with_context if with_context else forms.implicit).add(base)
    layout = DataLayout.of_module(module)
    for call in found["__enzyme_zero_shadows"]:
        if call.args:
            ctx = forms._resolve(call.args[0])
            if ctx is None:
                raise UsageError(f"{_site(call)}: the context must be what one __enzyme_context call returned, "
                                 "known at compile time")
            zeroed = [ctx]
        else:
            zeroed = list(forms.contexts.values())
        b = Builder(InsertPoint.before_inst(call))
        for c in zeroed:
            for s in c.owned:
                zero_fill(module, b, s, const_int(I64, layout.alloc_size(s.value_type)))
            for s in c.initialized:
                assert s.initializer is not None
                b.store(s.initializer, s)
            for s in c.heap_owned:
                block = b.load(PTR, s)
                zero_fill(module, b, block, b.call(_usable_size(module), [block]))
        erase_call(call)
    both = forms.implicit & forms.with_context
    if both:
        g = min(both, key=lambda v: v.name or "")
        raise DifferentiationError(f"@{g.name}: its shadow is asked for both with a context and in the query form "
                                   "(__enzyme_shadow(&g, width, lane)); upstream keeps those apart, here use one form")
    return forms


def check_shadow_forms(forms: ShadowForms, requests: list[Request]) -> None:
    """A context's shadows serve the calls that pass it (enzyme_context, ctx), the query form's the others:
    refuse a call that reaches a global whose shadow the program asked for in the other form."""
    if not (forms.with_context or forms.implicit):
        return
    for req in requests:
        named = {g for f in reachable_functions(req.function) for inst in f.instructions()
                 for g in inst.operands if isinstance(g, GlobalVariable)}
        other = named & (forms.implicit if req.context is not None else forms.with_context)
        if other:
            g = min(other, key=lambda v: v.name or "")
            fix = ("drop enzyme_context, or ask for its shadow with the context" if req.context is not None else
                   "pass enzyme_context, ctx as the program's other calls do")
            raise DifferentiationError(
                f"{req.call.callee_name} {where(req.call)}: @{req.function.name} uses @{g.name}, whose shadow the "
                f"program asked for {'without' if req.context is not None else 'with'} a context; {fix}")


def _context_handle(module: Module, width: int) -> GlobalVariable:
    """What ``__enzyme_context`` returns: the address of a private constant holding its width (never read by
    the program; enzyme.driver.requests reads the width from it)."""
    g = GlobalVariable(module.unique_name("__pyenzyme_context"), I64, initializer=const_int(I64, width),
                       is_constant=True, prefix="private", type=PTR)
    module.add(g)
    return g


def _replace_shadow_query(module: Module, forms: ShadowForms, implicit: Context,
                          call: CallInst) -> tuple[GlobalVariable, bool]:
    """Returns the global and whether the call named a context."""
    args = call.args
    if len(args) != 3:
        raise UsageError(f"{_site(call)}: takes (context, &global, lane) or (&global, width, lane), got "
                         f"{len(args)} arguments")
    with_context = isinstance(args[1].type, PointerType)
    rules = custom_rules(module)
    if with_context:
        target = args[1]                                     # (context, &global, lane)
        ctx = forms._resolve(args[0])
        if ctx is None:
            raise UsageError(f"{_site(call)}: the context must be what one __enzyme_context call returned, "
                             "known at compile time")
        width = ctx.width
    else:
        target = args[0]                                     # (&global, width, lane)
        width = _positive_int(call, args[1], "the width")
        ctx = implicit
    lane = _positive_int(call, args[2], "the lane", zero=True)
    if lane >= width:
        raise UsageError(f"{_site(call)}: lane {lane} of a width-{width} shadow; lanes are 0 to {width - 1}")
    base, path = _global_and_path(target)
    if base is None:
        raise DifferentiationError(f"{_site(call)}: the global must be named at compile time (&g or &g.field), "
                                   "got a pointer computed at run time")
    heap = base.value_type == PTR and not path and width == 1 and holds_only_allocations(module, base)
    if with_context:
        lanes = _context_lanes(module, ctx, call, base, heap)
    else:
        if base not in rules.shadows:
            if _holds_pointers(base.value_type) and not heap:
                raise DifferentiationError(_pointer_refusal(call, base))
            rules.shadows[base] = [new_shadow(module, base, 0)]
            if not heap:
                ctx.owned.append(rules.shadows[base][0])
        lanes = rules.shadows[base]
        if width > 1:
            # Each width has shadows of its own: seeding lane 0 of width 2 leaves the width-1 shadow alone.
            if (base, width) not in rules.width_shadows:
                rules.width_shadows[base, width] = [new_shadow(module, base, j) for j in range(width)]
                ctx.owned.extend(rules.width_shadows[base, width])
            lanes = rules.width_shadows[base, width]
        for c in forms.contexts.values():  # __enzyme_zero_shadows(ctx) zeroes the query form's shadows too
            c.owned.extend(s for s in ctx.owned if s not in c.owned)
    if heap:
        _allocate_heap_shadow(module, call, base, lanes[0], ctx.heap_owned)
    at: Value = lanes[lane]
    for gep in path:
        at = ConstantExpr(gep.type, gep.opcode, [at, *gep.operands[1:]], gep.flags, gep.source_type)
    if at.type != call.type:
        raise UsageError(f"{_site(call)}: declared to return {call.type}; it returns a pointer")
    call.replace_all_uses_with(at)
    erase_call(call)
    return base, with_context


def _pointer_refusal(call: CallInst, base: GlobalVariable) -> str:
    return (f"{_site(call)}: @{base.name} holds pointers, whose shadow would have to point to shadow memory; "
            "supported are globals of numbers, globals whose initializer points to other globals and whose "
            "pointers the program never writes, and a plain pointer global that only ever holds what malloc/calloc/aligned_alloc/"
            "realloc returned (pass other state through a pointer argument marked enzyme_dup)")


def _context_lanes(module: Module, ctx: Context, call: CallInst, g: GlobalVariable,
                   heap: bool) -> list[GlobalVariable]:
    """The context's shadows of ``g``, one per lane, made on first use.  A global holding pointers that the
    program never writes gets shadows initialized like it, with numbers kept, floating-point values zero and
    each pointer to a global pointing to that global's shadow in the same lane (made too).  The program may
    store numbers into the global, not pointers."""
    if g in ctx.shadows:
        return ctx.shadows[g]
    if heap or not _holds_pointers(g.value_type):
        lanes = ctx.shadows[g] = [new_shadow(module, g, j) for j in range(ctx.width)]
        if not heap:
            ctx.owned.extend(lanes)
        return lanes
    if g.initializer is None or not _only_read(module, g):
        raise DifferentiationError(_pointer_refusal(call, g))
    lanes = ctx.shadows[g] = [new_shadow(module, g, j) for j in range(ctx.width)]
    for j, s in enumerate(lanes):
        init = _shadow_constant(module, ctx, call, g.initializer, j)
        assert isinstance(init, Constant)
        s.initializer = init
    ctx.initialized.extend(lanes)
    return lanes


def _shadow_constant(module: Module, ctx: Context, call: CallInst, c: Value, lane: int) -> Value:
    """The shadow of a global's initializer in one lane (see :func:`_context_lanes`)."""
    t = c.type
    if isinstance(c, ConstantKeyword) and c.keyword in ("zeroinitializer", "null", "undef", "poison"):
        return ConstantKeyword(t, "zeroinitializer" if c.keyword != "null" else "null")
    if isinstance(c, ConstantFP):
        return ConstantKeyword(t, "zeroinitializer")
    if isinstance(c, ConstantInt) or (isinstance(c, ConstantText) and not _holds_pointers(t)
                                      and not carries_float(t)):
        return c
    if isinstance(c, ConstantAggregate):
        return ConstantAggregate(t, [_shadow_constant(module, ctx, call, e, lane) for e in c.elements])
    if isinstance(t, PointerType):
        base, path = _global_and_path(c)
        if base is not None and not isinstance(base, Function) and isinstance(base, GlobalVariable):
            at: Value = _context_lanes(module, ctx, call, base, False)[lane]
            for gep in path:
                at = ConstantExpr(gep.type, gep.opcode, [at, *gep.operands[1:]], gep.flags, gep.source_type)
            return at
    raise DifferentiationError(f"{_site(call)}: the initializer of a shadowed global holds {c.type} "
                               f"{getattr(c, 'text', lambda: '?')()}, which has no shadow here")


def _only_read(module: Module, g: GlobalVariable) -> bool:
    """Does the program only load from ``g`` and store numbers into it (directly or at a constant offset), never
    write a pointer into it or pass its address on?"""
    for f in module.functions:
        for inst in f.instructions():
            for op in inst.operands:
                base, _ = _global_and_path(op) if isinstance(op, (GlobalVariable, ConstantExpr)) else (None, [])
                if base is not g:
                    continue
                if isinstance(inst, LoadInst) and inst.pointer is op:
                    continue
                if isinstance(inst, StoreInst) and inst.pointer is op and inst.value is not op and \
                        not _holds_pointers(inst.value.type):
                    continue  # a number: the shadow's pointers stay valid
                if isinstance(inst, CallInst) and "__enzyme_shadow" in (inst.callee_name or ""):
                    continue
                return False
    return True


_ALLOCATORS = ("malloc", "calloc", "aligned_alloc", "realloc")


def holds_only_allocations(module: Module, g: GlobalVariable) -> bool:
    """Is every value the program stores into ``g`` null or a heap block from the C allocator, and ``g``
    otherwise only loaded (so the allocator knows the size of what it points to)?"""
    if g.initializer is not None and not is_null_pointer(g.initializer):
        return False
    for f in module.functions:
        for inst in f.instructions():
            if not any(op is g for op in inst.operands):
                continue
            if isinstance(inst, LoadInst) and inst.pointer is g:
                continue
            if isinstance(inst, StoreInst) and inst.pointer is g and inst.value is not g and (
                    is_null_pointer(inst.value) or (isinstance(inst.value, CallInst)
                                                    and (inst.value.callee_name or "") in _ALLOCATORS)):
                continue
            if isinstance(inst, CallInst) and "__enzyme_shadow" in (inst.callee_name or ""):
                continue  # the query itself
            return False
    return True


def _usable_size(module: Module) -> Function:
    return module.declare_function("malloc_usable_size", FunctionType(I64, (PTR,)))


def _allocate_heap_shadow(module: Module, call: CallInst, g: GlobalVariable, shadow: GlobalVariable,
                          heap_owned: list[GlobalVariable]) -> None:
    """The first query of a heap-pointer global: its shadow points to a zeroed block as large as its block."""
    if shadow not in heap_owned:
        heap_owned.append(shadow)
    b = Builder(InsertPoint.before_inst(call))
    block = b.load(PTR, g)
    calloc = module.declare_function("calloc", FunctionType(PTR, (I64, I64)))
    fresh = b.call(calloc, [const_int(I64, 1), b.call(_usable_size(module), [block])])
    had = b.load(PTR, shadow)
    b.store(b.select(b.icmp("eq", had, ConstantKeyword(PTR, "null")), fresh, had), shadow)


def _global_and_path(v: Value) -> tuple[GlobalVariable | None, list[ConstantExpr]]:
    """``@g`` and the constant GEPs (outermost last) of ``&g`` / ``&g.b`` / ``&g[1]``."""
    path: list[ConstantExpr] = []
    v = strip_pointer_casts(v)
    while isinstance(v, ConstantExpr) and v.opcode == "getelementptr" and v.operands:
        path.append(v)
        v = strip_pointer_casts(v.operands[0])
    return (v if isinstance(v, GlobalVariable) else None), list(reversed(path))


def _holds_pointers(t: Type) -> bool:
    if isinstance(t, PointerType):
        return True
    if isinstance(t, StructType):
        return any(_holds_pointers(e) for e in t.elements)
    if isinstance(t, (ArrayType, VectorType)):
        return _holds_pointers(t.element)
    return False


def _positive_int(call: CallInst, v: Value | None, what: str, zero: bool = False) -> int:
    if not isinstance(v, ConstantInt) or v.value < (0 if zero else 1):
        raise UsageError(f"{_site(call)}: {what} must be a {'non-negative' if zero else 'positive'} integer "
                         "constant")
    return v.value


def _site(call: CallInst) -> str:
    from .requests import _source_name
    return f"{_source_name(call.callee_name or '__enzyme_shadow')} {where(call)}"

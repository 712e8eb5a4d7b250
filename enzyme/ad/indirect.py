"""Calls through function pointers: dispatch to the derivative of the function actually called.

pyenzyme sees the whole program in one module, so the functions an indirect
call can reach are the *address-taken* functions of the call's type (taken
anywhere: stored, passed, or placed in a C++ vtable).  The derivative of
``call %fp(args)`` is a call of a generated dispatcher that compares ``%fp``
with each candidate and calls that candidate's derivative; all candidates'
derivatives have the same signature because they share the call's type and
argument activities.  A pointer matching no candidate (a function the
program did not take the address of with this type, or one without a body
or rule) stops the program with a message instead of a wrong number.

Declared candidates with a derivative rule (``sin`` passed as
``double (*)(double)``) or in the memory table (``malloc`` and ``free`` passed
as a user's allocator) are reached through a small defined wrapper that
calls them directly, so the rule applies; so are candidates with an Enzyme
annotation (inactive, function_like): the annotation is about their calls.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from ..errors import DifferentiationError
from ..ir.target_attributes import inherit_target_attributes
from ..ir import CallInst, ConstantAggregate, ConstantExpr, Function, FunctionType, GlobalVariable, Module, Value
from ..ir.builder import Builder
from ..ir.types import PTR
from ..rules import lookup, lookup_memory
from ..rules.names import LIKE, proxy_name
from .annotations import AUTOREG_PREFIX, TABLE_PREFIXES, table_name
from .common import ADContext, describe, is_inactive_function, is_inline_asm
from .custom import custom_rules

if TYPE_CHECKING:
    from .sweep_pair import SweepPair


def candidates(ctx: ADContext, call: CallInst) -> list[tuple[Function, Function]]:
    """What ``call`` may reach: (the address-taken function of the call's type, the function to differentiate
    for it -- itself, or a direct wrapper of a declared function with a rule)."""
    fty = call.function_type
    out = []
    for f in _taken(ctx):
        if f.function_type != fty:
            continue
        body = f
        rules = custom_rules(ctx.module)
        if rules.is_inactive(f) or f in rules.function_like:
            body = _direct_wrapper(ctx, f)
        elif f.is_declaration:
            name = f.name or ""
            if lookup(name) is None and not is_inactive_function(name) and lookup_memory(name) is None:
                continue  # no body, no rule: the dispatcher's fallback reports it if it is ever called
            body = _direct_wrapper(ctx, f)
        out.append((f, body))
    if not out:
        raise DifferentiationError(
            f"{describe(call)}: indirect call with active arguments, and no function of type {fty} has its "
            "address taken in the program; call the function directly")
    return out


def reaches_shadowed_global(ctx: ADContext, call: CallInst) -> bool:
    """May ``call`` run code that names a global with a shadow (directly, in a callee, or in a callee reached
    through a function pointer: any address-taken function of the pointer's type)?

    Such a call reads or writes active memory, so it has a derivative even when none of its arguments is
    active (``step()`` advancing a global state, ``energy()`` returning a global's value).
    """
    shadowed = custom_rules(ctx.module).shadows
    if not shadowed:
        return False
    key = ("reaches-shadowed-global", call)
    got = ctx.memo.get(key)
    if got is None:
        got = ctx.memo[key] = any(_names_any(f, shadowed) for f in _may_run(ctx, call))
    return bool(got)


def _may_run(ctx: ADContext, call: CallInst) -> set[Function]:
    """The defined functions ``call`` may run, through direct and indirect calls."""
    seen: set[Function] = set()
    work = [call]
    while work:
        c = work.pop()
        callee = c.called_function
        targets = [callee] if callee is not None else \
            [f for f in _taken(ctx) if f.function_type == c.function_type] if not is_inline_asm(c) else []
        for f in targets:
            if f not in seen and not f.is_declaration:
                seen.add(f)
                work += [i for i in f.instructions() if isinstance(i, CallInst)]
    return seen


def _names_any(f: Function, globals_: Mapping[GlobalVariable, object]) -> bool:
    return any(g in globals_ for inst in f.instructions() for op in inst.operands for g in _globals_in(op))


def _globals_in(v: Value) -> list[Value]:
    """``v`` itself, or the values inside it when it is a constant expression (``getelementptr (@g, ...)``)."""
    if isinstance(v, ConstantExpr):
        return [x for o in v.operands for x in _globals_in(o)]
    return [v]


def _taken(ctx: ADContext) -> list[Function]:
    key = ("address-taken",)
    taken = ctx.memo.get(key)
    if taken is None:
        taken = ctx.memo[key] = _address_taken(ctx.module)
    return taken


def _address_taken(module: Module) -> list[Function]:
    """Functions used other than as the callee of a call, in code or in global initializers."""
    found: dict[Function, None] = {}

    def visit(v: Value) -> None:
        if isinstance(v, Function):
            found.setdefault(v)
        elif isinstance(v, ConstantAggregate):
            for e in v.elements:
                visit(e)
        elif isinstance(v, ConstantExpr):
            for o in v.operands:
                visit(o)

    for g in module.entities:
        if isinstance(g, GlobalVariable) and g.initializer is not None and not table_name(g.name or "").startswith(
                ("__enzyme_register_", "__enzyme_inactivefn", "llvm.", AUTOREG_PREFIX, *TABLE_PREFIXES)):
            visit(g.initializer)
    for f in module.functions:
        for inst in f.instructions():
            callee = inst.callee if isinstance(inst, CallInst) else None
            for op in inst.operands:
                if op is not callee:
                    visit(op)
    return list(found)


def _direct_wrapper(ctx: ADContext, f: Function) -> Function:
    key = ("direct-wrapper", f)
    done = ctx.memo.get(key)
    if done is None:
        done = Function(ctx.module.unique_name(f"__pyenzyme_direct_{f.name}"), f.function_type,
                        prefix="internal")
        ctx.module.add(done)
        inherit_target_attributes(f, done)
        b = Builder(done.append_block("entry"))
        # A function like another is called through its proxy (enzyme.driver.proxies), as direct calls are.
        like = custom_rules(ctx.module).function_like.get(f)
        target = ctx.module.get_function(proxy_name(LIKE, like, f.name or "")) if like is not None else None
        r = b.call(target or f, list(done.args))
        b.ret(None if f.return_type.is_void else r)
        ctx.memo[key] = done
    return done


def forward_dispatcher(ctx: ADContext, call: CallInst, acts: tuple[str, ...], width: int,
                       derivative: Callable[[Function], Function]) -> Function:
    """``(ptr fp, derivative params...)`` calling ``derivative(candidate)`` for the candidate ``fp`` is."""
    cands = candidates(ctx, call)
    key = ("forward-dispatch", call.function_type, acts, width)
    done = ctx.memo.get(key)
    if done is None:
        done = ctx.memo[key] = _dispatcher(ctx, "fwd", [(f, derivative(g)) for f, g in cands])
    return done


def reverse_dispatchers(ctx: ADContext, call: CallInst, acts: tuple[str, ...], width: int,
                        pair_of: Callable[[Function], SweepPair]) -> SweepPair:
    """A SweepPair whose augmented and reverse functions take ``fp`` first and dispatch on it."""
    from .sweep_pair import SweepPair
    cands = candidates(ctx, call)
    key = ("reverse-dispatch", call.function_type, acts, width)
    done = ctx.memo.get(key)
    if done is None:
        pairs = [pair_of(g) for _, g in cands]
        shape = {(p.out_types, p.returns_adjoint, p.returns_shadow, p.augmented.function_type,
                  p.reverse.function_type) for p in pairs}
        if len(shape) != 1:
            raise DifferentiationError(f"{describe(call)}: the functions this indirect call may reach have "
                                       "derivatives of different shapes; call them directly")
        p0 = pairs[0]
        done = SweepPair(_dispatcher(ctx, "aug", [(f, p.augmented) for (f, _), p in zip(cands, pairs)]),
                         _dispatcher(ctx, "rev", [(f, p.reverse) for (f, _), p in zip(cands, pairs)]),
                         p0.out_types, p0.returns_adjoint, p0.returns_shadow, p0.dret_type)
        ctx.memo[key] = done
    return done


def _dispatcher(ctx: ADContext, kind: str, routes: list[tuple[Function, Function]]) -> Function:
    """``(ptr fp, params of the targets...)``: calls the target paired with the function ``fp`` points to."""
    m = ctx.module
    fty = routes[0][1].function_type
    d = Function(m.unique_name(f"__pyenzyme_dispatch_{kind}"), FunctionType(fty.ret, (PTR, *fty.params)),
                 prefix="internal")
    m.add(d)
    fp, args = d.args[0], list(d.args[1:])
    b = Builder(d.append_block("entry"))
    for original, target in routes:
        hit, miss = d.append_block("hit"), d.append_block("next")
        b.cond_br(b.icmp("eq", fp, original), hit, miss)
        hb = Builder(hit)
        r = hb.call(target, args)
        hb.ret(None if fty.ret.is_void else r)
        b.position(miss)
    _fail(m, b, "pyenzyme: an indirect call reached a function whose derivative was not generated "
                "(not address-taken with this type, or without a body or rule)")
    return d


def _fail(m: Module, b: Builder, message: str) -> None:
    from ..ir.splice import add_helper_functions
    name = "__pyenzyme_indirect_call_failed"
    if m.get_function(name) is None:
        text = message.replace("\\", "\\5C").replace('"', "\\22")
        n = len(message.encode()) + 1
        # write(2, ...) rather than stdio: abort() does not flush buffered streams.
        add_helper_functions(m, (
            f'@.pyenzyme_indirect_msg = private unnamed_addr constant [{n} x i8] c"{text}\\0A"\n'
            "declare i64 @write(i32, ptr, i64)\ndeclare void @abort()\n"
            f"define internal void @{name}() cold noinline {{\n"
            f"  %r = call i64 @write(i32 2, ptr @.pyenzyme_indirect_msg, i64 {n})\n"
            "  call void @abort()\n  unreachable\n}\n"))
    failed = m.get_function(name)
    assert failed is not None  # added just above
    b.call(failed, [])
    b.unreachable()


__all__ = ["candidates", "forward_dispatcher", "reverse_dispatchers"]

"""Calls differentiated as calls of something else: ``function_like`` and ``allocation_like``.

Before differentiation, each direct call of a function declared like ``exp``
is redirected to a declaration ``@"__pyenzyme_like:exp:<function>"``, each
call of an ``allocation_like`` allocator to ``@"__pyenzyme_alloc:<size
index>:<allocator>"`` and of its deallocator to ``@"__pyenzyme_free:<block
index>:<deallocator>"``.  The rule tables read those names
(:mod:`enzyme.rules.names`), so every part of the engine applies exp's rule,
or malloc's and free's with the user's operand positions, with no list of
special cases of its own.  Afterwards each proxy is replaced by the function
it stands for: the program computes what it did, derivative code included
(a shadow block comes from the user's allocator).

Example::

    proxies = install_proxies(module)
    differentiate(...)
    remove_proxies(module, proxies)
"""
from __future__ import annotations

from ..ad.annotations import AllocationLike
from ..ad.custom import custom_rules, is_float
from ..errors import UsageError
from ..ir import CallInst, Function, Module
from ..ir.types import IntType, PointerType
from ..rules import is_known_inactive, lookup, lookup_memory
from ..rules.names import ALLOC, FREE, LIKE, proxy_name


def install_proxies(module: Module) -> dict[Function, Function]:
    """Redirect the direct calls of annotated functions to their proxies; returns proxy -> original."""
    rules = custom_rules(module)
    plan: dict[Function, str] = {}
    for fn, target in rules.function_like.items():
        _check_like(fn, target)
        plan[fn] = proxy_name(LIKE, target, fn.name or "")
    for fn, spec in rules.allocation_like.items():
        _check_allocation(fn, spec)
        if fn in plan:
            raise UsageError(f"@{fn.name} is declared both function_like and allocation_like; keep one")
        plan[fn] = proxy_name(ALLOC, spec.size, fn.name or "")
        dealloc = proxy_name(FREE, spec.block_index, spec.deallocator.name or "")
        if plan.setdefault(spec.deallocator, dealloc) != dealloc:
            raise UsageError(f"@{spec.deallocator.name} is the deallocator of several allocation_like allocators "
                             "that pass it the block in different positions; give each its own deallocator")
    proxies: dict[Function, Function] = {}
    for fn, name in plan.items():
        proxy = Function(name, fn.function_type)  # the name says what it stands for: it must stay exact
        module.add(proxy)
        proxies[proxy] = fn
        for use in fn.uses:
            user = use.user
            if isinstance(user, CallInst) and use.index == user.n_args + sum(n for _, n in user.bundles):
                user.set_operand(use.index, proxy)
    return proxies


def remove_proxies(module: Module, proxies: dict[Function, Function]) -> None:
    """Call the original functions again, derivative code included, and delete the proxies."""
    for proxy, original in proxies.items():
        proxy.replace_all_uses_with(original)
        del module.globals[proxy.name or ""]
        module.entities.remove(proxy)
        proxy.module = None


def _check_like(fn: Function, target: str) -> None:
    params = fn.function_type.params
    where = f"@{fn.name} is declared like {target}"
    rule = lookup(target)
    if rule is not None:
        ints = rule.int_args
        if len(params) != rule.arity or not is_float(fn.return_type) or any(
                (isinstance(p, IntType) if i in ints else is_float(p)) is False for i, p in enumerate(params)):
            raise UsageError(f"{where}, but its type {fn.function_type} does not match {target}'s "
                             f"({rule.arity} argument(s), floating-point result)")
        return
    mf = lookup_memory(target)
    if mf is not None:
        pointers = [i for i in (mf.dst, mf.src, mf.ptr) if i is not None]
        operands = pointers + [i for i in (mf.size, mf.value, mf.count, mf.align) if i is not None]
        if any(i >= len(params) for i in operands) or any(not isinstance(params[i], PointerType) for i in pointers):
            raise UsageError(f"{where}, but its type {fn.function_type} does not have {target}'s operands")
        return
    if is_known_inactive(target):
        return
    raise UsageError(f"{where}, which pyenzyme has no derivative rule for; enzyme_function_like takes a libm "
                     "function (exp, sin, pow, ...), a memory function (malloc, free, ...) or a function known to "
                     "carry no derivative (printf, ...)")


def _check_allocation(fn: Function, spec: AllocationLike) -> None:
    params = fn.function_type.params
    where = f"__enzyme_allocation_like of @{fn.name}"
    if not isinstance(fn.return_type, PointerType):
        raise UsageError(f"{where}: an allocator returns the block (a pointer), not {fn.return_type}")
    if not isinstance(params[spec.size], IntType):
        raise UsageError(f"{where}: argument {spec.size}, the size, is {params[spec.size]}, not an integer")
    dparams = spec.deallocator.function_type.params
    for i, k in enumerate(spec.deallocator_args):
        want = fn.return_type if k == -1 else params[k]
        if dparams[i] != want:
            raise UsageError(f"{where}: argument {i} of the deallocator @{spec.deallocator.name} is {dparams[i]}, "
                             f"but it is given {'the block' if k == -1 else f'allocator argument {k}'} ({want})")

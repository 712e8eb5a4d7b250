"""The call-site driver: finds ``__enzyme_*`` requests in a module and differentiates them."""
from __future__ import annotations

from ..ad.common import ADContext
from ..ad.custom import custom_rules, remove_registrations
from ..ad.inlining import inline_small_functions
from ..ad.modes import Activity
from ..analysis.activity_solver import reachable_functions
from ..errors import DifferentiationError
from ..ir import CallInst, Function, Module, PointerType
from ..ir.invokes import isolate_catching_invokes
from ..ir.target_attributes import is_gpu_module
from .active_globals import shadow_active_globals, zero_shadows_around
from .batch import replace_batches
from .byval_copies import copy_written_byval_arguments
from .memo_caches import guard_memo_caches, memo_off_around
from .warm_starts import guard_warm_starts
from .context_shadows import check_shadow_forms, replace_shadow_api
from .checkpoints import lower_checkpoints
from .fixed_point_loops import outline_marked_loops
from .fixed_points import lower_fixed_points
from .iteration_counts import resolve_iterations, step_iterations
from .openmp_regions import lower_parallel_regions, raise_parallel_regions
from .loop_metadata import drop_foreign_loop_locations
from .proxies import install_proxies, remove_proxies
from .replace import replace_request, replace_size_queries, replace_virtual_reverse
from .requests import Request, find_requests, where
from .runtime_calls import install_runtime_bodies, restore_runtime_calls
from .shadowed_globals import expose_shadowed_globals
from .todense import lower_todense
from .unneeded_primals import drop_unneeded_primal_writes
from .unused_tapes import drop_unused_tapes
from .type_hints import remove_type_hints

__all__ = ["Request", "differentiate_module", "find_requests"]


def differentiate_module(module: Module) -> int:
    """Replace every ``__enzyme_autodiff``/``__enzyme_fwddiff`` call in ``module`` by derivative code (and every
    ``__enzyme_batch`` by its lanes, first: a batched function may itself request derivatives).

    Returns the number of requests handled.  Raises DifferentiationError (or
    UsageError for malformed calls) rather than emit a derivative it cannot
    justify.
    """
    remove_type_hints(module)
    shadow_forms = replace_shadow_api(module)
    batches = (outline_marked_loops(module) + lower_fixed_points(module) + lower_checkpoints(module)
               + replace_batches(module)
               + replace_size_queries(module) + shadow_forms.calls + replace_virtual_reverse(module))
    requests = find_requests(module)
    check_shadow_forms(shadow_forms, requests)
    if not requests:
        resolve_iterations(module)
        return batches + lower_todense(module)
    for fn in module.functions:  # before any analysis: invokes whose exception is caught, alone in a block
        if not fn.is_declaration:
            isolate_catching_invokes(fn)
    copy_written_byval_arguments(module)  # a callee's writes into its byval copy are not the caller's
    roots_first = list(dict.fromkeys(r.function for r in requests))
    # Derivative calls recompute where a cache would answer, and start solvers cold (a flag set around them).
    memo_flag = guard_memo_caches(module, roots_first)
    memo_flag = guard_warm_starts(module, roots_first) or memo_flag
    rules = custom_rules(module)  # validate registrations and annotations before generating anything
    contexts = {id(r): shadow_forms.context_of(r) for r in requests}
    own_shadows = dict(rules.shadows)  # declared with enzyme_shadow, and the query form's
    rules.shadows = {**shadow_forms.all_context_shadows(), **own_shadows}
    lower_parallel_regions(module)  # OpenMP forks as calls of their regions while derivatives are made
    runtime_bodies = install_runtime_bodies(module)
    # Decided before any derivative is made: the generated functions are shared between requests.
    automatic_shadows = shadow_active_globals(module, requests)
    proxies = install_proxies(module)
    expose_shadowed_globals(module)
    roots = list(dict.fromkeys(r.function for r in requests))
    forward_split = _forward_split_functions(requests)
    # Each context has shadows of its own, so derivatives made for one are not shared with another.
    ad_contexts: dict[object, ADContext] = {}
    existing = set(module.functions)
    for req in _inner_first(requests):
        before = set(module.functions)
        context = contexts[id(req)]
        rules.shadows = {**own_shadows, **automatic_shadows, **(context.shadows if context else {})}
        ctx = ad_contexts.setdefault(context.handle if context else None,
                                     ADContext(module, roots=roots, forward_split=forward_split))
        call = replace_request(ctx, req.refreshed())
        if req.mode == "forward":
            drop_unneeded_primal_writes(module, call, _unneeded_positions(req))
        step_iterations(f for f in module.functions if f not in before)
        zero_shadows_around(module, call, req.mode, automatic_shadows)
        memo_off_around(call, memo_flag)
    inline_small_functions(f for f in module.functions if f not in existing)
    restore_runtime_calls(runtime_bodies)
    raise_parallel_regions(module)
    remove_proxies(module, proxies)
    # Only now: every request may have used them.  Without the globals, LLVM can drop unused rules.
    remove_registrations(module)
    drop_foreign_loop_locations(module)
    resolve_iterations(module)
    # After every derivative: their code reads and writes the todense pointers passed as shadows.
    lower_todense(module)
    drop_unused_tapes(module, [f for f in module.functions if f not in existing])
    return batches + len(requests)


def _forward_split_functions(requests: list[Request]) -> set[Function]:
    """The functions some ``__enzyme_fwdsplit`` differentiates: their ``__enzyme_augmentfwd`` tapes are logs for it
    (enzyme.ad.forward_split), which ``__enzyme_reverse`` cannot read."""
    out = {r.function for r in requests if r.mode == "forward_split"}
    for r in requests:
        if r.mode == "split_reverse" and r.function in out:
            raise DifferentiationError(
                f"__enzyme_reverse {where(r.call)}: @{r.function.name} is also differentiated by __enzyme_fwdsplit "
                "in this program; a tape of __enzyme_augmentfwd serves one of the two, and both are not supported")
    return out


def _unneeded_positions(req: Request) -> list[int]:
    """Where the derivative's call gets the primal of each enzyme_dupnoneed pointer argument."""
    out, k = [], 0
    for a in req.args:
        if a.activity is Activity.DUPNONEED and isinstance(a.value.type, PointerType):
            out.append(k)
        k += 1 + len(a.shadows)
    return out


def _inner_first(requests: list[Request]) -> list[Request]:
    """Order requests so that one inside code another differentiates is replaced first.

    ``__enzyme_autodiff(f)`` where ``f`` itself calls ``__enzyme_fwddiff(g)``
    must see ``f`` calling the generated ``fwddiffe_g``, which it can
    differentiate, not the ``__enzyme_fwddiff`` declaration.
    """
    reach = {id(r): set(reachable_functions(r.function)) for r in requests}
    done: list[Request] = []
    pending = list(requests)
    while pending:
        ready = [r for r in pending if not any(
            q is not r and q.call.function in reach[id(r)] for q in pending)]
        if not ready:
            names = ", ".join(f"@{r.function.name}" for r in pending)
            raise DifferentiationError(f"derivative requests depend on each other in a cycle ({names})")
        done += ready
        pending = [r for r in pending if r not in ready]
    return done


"""The call-site driver: finds ``__enzyme_*`` requests in a module and differentiates them."""
from __future__ import annotations

from ..ad.common import ADContext
from ..ad.custom import custom_rules, remove_registrations
from ..errors import DifferentiationError
from ..ir import CallInst, Function, Module
from .replace import replace_request
from .requests import Request, find_requests

__all__ = ["Request", "differentiate_module", "find_requests"]


def differentiate_module(module: Module) -> int:
    """Replace every ``__enzyme_autodiff``/``__enzyme_fwddiff`` call in ``module`` by derivative code.

    Returns the number of requests handled.  Raises DifferentiationError (or
    UsageError for malformed calls) rather than emit a derivative it cannot
    justify.
    """
    requests = find_requests(module)
    if not requests:
        return 0
    ctx = ADContext(module)
    custom_rules(module)  # validate registrations before generating anything
    for req in _inner_first(requests):
        replace_request(ctx, req.refreshed())
    # Only now: every request may have used them.  Without the globals, LLVM can drop unused rules.
    remove_registrations(module)
    return len(requests)


def _inner_first(requests: list[Request]) -> list[Request]:
    """Order requests so that one inside code another differentiates is replaced first.

    ``__enzyme_autodiff(f)`` where ``f`` itself calls ``__enzyme_fwddiff(g)``
    must see ``f`` calling the generated ``fwddiffe_g``, which it can
    differentiate, not the ``__enzyme_fwddiff`` declaration.
    """
    reach = {id(r): _reachable(r.function) for r in requests}
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


def _reachable(fn: Function) -> set[Function]:
    """Functions with bodies that ``fn`` may call, directly or not (``fn`` included)."""
    seen: set[Function] = set()
    work = [fn]
    while work:
        f = work.pop()
        if f in seen or f.is_declaration:
            continue
        seen.add(f)
        for inst in f.instructions():
            if isinstance(inst, CallInst) and inst.called_function is not None:
                work.append(inst.called_function)
    return seen

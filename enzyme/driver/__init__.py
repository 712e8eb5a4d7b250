"""The call-site driver: finds ``__enzyme_*`` requests in a module and differentiates them."""
from __future__ import annotations

from ..ad.common import ADContext
from ..ir import Module
from .requests import Request, find_requests
from .replace import replace_request

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
    for req in requests:
        replace_request(ctx, req)
    return len(requests)

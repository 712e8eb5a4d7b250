"""The call-site driver: finds ``__enzyme_*`` requests in a module and differentiates them.

Requests are handled from the AD-engine issue on; until then no request is
handled and the module is returned unchanged.
"""
from __future__ import annotations

from typing import Any


def differentiate_module(module: Any) -> int:
    """Replace every ``__enzyme_*`` call in ``module`` (an ``enzyme.ir.Module``) by derivative code.

    Returns the number of requests handled.  Requests are handled from the
    AD-engine issue on; this placeholder handles none and returns 0.
    """
    return 0

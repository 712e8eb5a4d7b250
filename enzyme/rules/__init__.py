"""Derivative rules as data: per-operand partials in a small expression language.

* :data:`INSTRUCTIONS` / :data:`LINEAR_CONVERSIONS`: float arithmetic and fpext/fptrunc.
* :data:`MATH` and :func:`lookup`: libm functions (every f/l spelling) and LLVM
  math intrinsics; :data:`MULTI` and :func:`lookup_multi`: intrinsics returning a struct of results
  (``llvm.sincos`` -> ``{sin, cos}``), one rule per field; :data:`SPECIAL` (struct/pointer results:
  what each means) and :data:`NO_RULE_REASON` (known, deliberately without a rule).
* :func:`inactive_reason` / :func:`is_known_inactive`: calls that never carry derivatives (the one
  table the analyses and the engine read).
* :func:`lookup_memory`: memcpy/memset/malloc/free and relatives, as data (the one table the
  analyses and the engine read).
"""
from __future__ import annotations

from .dsl import Rule, may_be_nonfinite
from .inactive import inactive_reason, is_known_inactive
from .instructions import LINEAR_CONVERSIONS, INSTRUCTIONS
from .math import MATH, MULTI, NO_RULE_REASON, SPECIAL, canonical_name, is_special, lookup, lookup_multi, no_rule_reason
from .memory import MEMORY, MemoryFunction, MemoryKind, Returns, lookup_memory

__all__ = ["INSTRUCTIONS", "LINEAR_CONVERSIONS", "MATH", "MEMORY", "MULTI", "NO_RULE_REASON", "SPECIAL",
           "MemoryFunction", "MemoryKind", "Returns", "Rule", "canonical_name", "inactive_reason", "is_known_inactive", "is_special",
           "lookup", "lookup_memory", "lookup_multi", "may_be_nonfinite", "no_rule_reason"]

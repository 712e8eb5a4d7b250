"""pyenzyme: Enzyme-style automatic differentiation of LLVM IR, written in Python.

The Python API (modelled on Enzyme.jl) is available from the top level::

    import numpy as np, enzyme
    lib = enzyme.compile(["model.c"])
    dx = enzyme.gradient(enzyme.Reverse, lib.f, np.array([2.0, 3.0]))

Names are loaded on first use, so ``import enzyme`` (and the command-line
tools) stay fast.
"""
from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

# Public names of enzyme.api, re-exported here (see docs/python_api.md).
_API_NAMES = frozenset({
    "Active", "Annotation", "BatchDuplicated", "BatchDuplicatedNoNeed", "CFunction", "Const", "Duplicated",
    "DuplicatedNoNeed", "Forward", "ForwardWithPrimal", "Library", "Mode", "Tape", "Reverse", "ReverseSplitNoPrimal",
    "ReverseSplitWithPrimal", "ReverseWithPrimal", "annotate", "as_array", "autodiff", "autodiff_thunk", "compile",
    "custom_rule", "gradient", "gradient_", "hessian", "hvp", "hvp_and_gradient", "jacobian", "make_zero",
    "set_runtime_activity", "clear_runtime_activity", "runtime_activity",
})

# The error classes (enzyme.errors, enzyme.api.errors), so ``except enzyme.DifferentiationError`` works.
_ERROR_NAMES = {
    "EnzymeError": "enzyme.errors", "ToolchainError": "enzyme.errors", "ToolNotFoundError": "enzyme.errors",
    "LLVMVersionError": "enzyme.errors", "CompileError": "enzyme.errors", "IRError": "enzyme.errors",
    "IRParseError": "enzyme.errors", "VerifyError": "enzyme.errors", "DifferentiationError": "enzyme.errors",
    "UsageError": "enzyme.errors", "LinkError": "enzyme.errors", "EnzymeWarning": "enzyme.errors",
    "ArgumentTypeError": "enzyme.api.errors", "ArgumentValueError": "enzyme.api.errors",
}

# ``from enzyme import *`` gives the modes, annotations and functions; not ``compile``, which would
# shadow the builtin (call it as enzyme.compile).
__all__ = sorted((_API_NAMES - {"compile"}) | _ERROR_NAMES.keys())


def __getattr__(name: str) -> Any:
    if name in _API_NAMES:
        from enzyme import api

        value = getattr(api, name)
        globals()[name] = value
        return value
    if name in _ERROR_NAMES:
        import importlib

        value = getattr(importlib.import_module(_ERROR_NAMES[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'enzyme' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_API_NAMES, *_ERROR_NAMES])

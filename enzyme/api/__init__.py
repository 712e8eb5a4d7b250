"""The Python API, modelled on Enzyme.jl: compile, call and differentiate compiled code.

See ``docs/python_api.md``.
"""
from __future__ import annotations

from .annotations import (
    ANNOTATIONS,
    MODES,
    Active,
    Annotation,
    BatchDuplicated,
    BatchDuplicatedNoNeed,
    Const,
    Duplicated,
    DuplicatedNoNeed,
    Forward,
    ForwardWithPrimal,
    Mode,
    Reverse,
    ReverseSplitNoPrimal,
    ReverseSplitWithPrimal,
    ReverseWithPrimal,
    annotate,
    clear_runtime_activity,
    runtime_activity,
    set_runtime_activity,
)
from .conveniences import gradient, gradient_, jacobian, make_zero
from .custom_rules import as_array, custom_rule
from .differentiation import autodiff
from .errors import ArgumentTypeError, ArgumentValueError
from .library import CFunction, Library, compile
from .second_order import hessian, hvp, hvp_and_gradient
from .thunks import Tape, autodiff_thunk

__all__ = [
    "ANNOTATIONS",
    "MODES",
    "Active",
    "Annotation",
    "ArgumentTypeError",
    "ArgumentValueError",
    "BatchDuplicated",
    "BatchDuplicatedNoNeed",
    "CFunction",
    "Const",
    "Duplicated",
    "DuplicatedNoNeed",
    "Forward",
    "ForwardWithPrimal",
    "Library",
    "Mode",
    "Reverse",
    "ReverseSplitNoPrimal",
    "ReverseSplitWithPrimal",
    "ReverseWithPrimal",
    "Tape",
    "annotate",
    "autodiff",
    "autodiff_thunk",
    "clear_runtime_activity",
    "compile",
    "gradient",
    "gradient_",
    "hessian",
    "hvp",
    "hvp_and_gradient",
    "jacobian",
    "make_zero",
    "runtime_activity",
    "set_runtime_activity",
]

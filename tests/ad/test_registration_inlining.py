"""Functions with registered derivatives are kept out of the pre-AD inliner.

clang's own inliner is avoided by the clang driver (see
tests/ad/programs/custom_rule_inlinable.c); IR given as is, with a registered
function defined and inlinable, gets ``noinline`` and a warning that the
producer may already have inlined it.
"""
from __future__ import annotations

import pytest

from enzyme import llvm
from enzyme.errors import EnzymeWarning
from enzyme.pipeline import TransformOptions, transform_module

IR = """
define double @square(double %x) {
  %y = fmul double %x, %x
  ret double %y
}
define double @square_fwd(double %x, double %dx) {
  %d = fmul double %dx, 100.0
  ret double %d
}
@__enzyme_register_derivative_square = global [2 x ptr] [ptr @square, ptr @square_fwd]
define double @f(double %x) {
  %s = call double @square(double %x)
  ret double %s
}
declare double @__enzyme_fwddiff(ptr, ...)
define double @df(double %x) {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %d
}
"""


def test_registered_function_is_not_inlined_and_warned_about() -> None:
    with pytest.warns(EnzymeWarning, match=r"@square has a registered derivative or an Enzyme annotation but is not marked noinline"):
        result = transform_module(llvm.parse(IR), TransformOptions(postopt_level=0))
    jit = llvm.JIT(result)
    import ctypes
    df = jit.cfunc("df", ctypes.c_double, ctypes.c_double)
    assert df(3.0) == 100.0  # the (deliberately odd) rule, not d(x*x) = 6 of an inlined copy

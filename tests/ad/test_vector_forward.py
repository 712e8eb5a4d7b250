"""Forward mode through LLVM vector reductions (``llvm.vector.reduce.fadd/fmul``), which C cannot spell.

Each case is IR differentiated by the driver and run in the JIT, compared with
the analytic derivative and central differences; fmax/fmin-style reductions
take the tangent of the lane they pick.
"""
from __future__ import annotations

import ctypes
import math

import pytest

from enzyme.driver import differentiate_module
from enzyme.ir import parse_module, print_module
from enzyme.llvm import JIT

BODY = """
declare double @llvm.vector.reduce.fadd.v4f64(double, <4 x double>)
declare double @llvm.vector.reduce.fmul.v4f64(double, <4 x double>)
declare double @llvm.vector.reduce.fmax.v4f64(<4 x double>)
declare double @__enzyme_fwddiff(ptr, ...)
@enzyme_width = external global i32

define double @f(ptr %p, double %s) {
  %v = load <4 x double>, ptr %p, align 8
  %sq = fmul <4 x double> %v, %v
  %sum = call reassoc double @llvm.vector.reduce.fadd.v4f64(double %s, <4 x double> %sq)
  %prod = call double @llvm.vector.reduce.fmul.v4f64(double %s, <4 x double> %v)
  %r = fadd double %sum, %prod
  ret double %r
}

define double @df(ptr %p, ptr %dp, double %s, double %ds) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, ptr %p, ptr %dp, double %s, double %ds)
  ret double %r
}

define { double, double } @df2(ptr %p, ptr %d1, ptr %d2, double %s) {
  %w = load i32, ptr @enzyme_width
  %r = call { double, double } (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %w, i32 2, ptr %p, ptr %d1, ptr %d2, double %s, double 0.0, double 0.0)
  ret { double, double } %r
}
"""

Vec = ctypes.c_double * 4


def build(text: str) -> JIT:
    module = parse_module(text)
    differentiate_module(module)
    return JIT(print_module(module).replace("@enzyme_width = external global i32", "@enzyme_width = global i32 0"))


class Pair(ctypes.Structure):
    _fields_ = [("a", ctypes.c_double), ("b", ctypes.c_double)]


def test_reductions_forward() -> None:
    jit = build(BODY)
    f = jit.cfunc("f", ctypes.c_double, ctypes.POINTER(Vec), ctypes.c_double)
    df = jit.cfunc("df", ctypes.c_double, ctypes.POINTER(Vec), ctypes.POINTER(Vec), ctypes.c_double, ctypes.c_double)
    p, s = [0.5, -1.5, 2.0, 0.0], 1.25  # a zero factor: the product rule must not divide
    for i in range(5):
        dp = [1.0 if k == i else 0.0 for k in range(4)]
        ds = 1.0 if i == 4 else 0.0
        got = df(Vec(*p), Vec(*dp), s, ds)
        if i < 4:
            expect = 2 * p[i] + s * math.prod(p[k] for k in range(4) if k != i)
        else:
            expect = 1 + math.prod(p)
        assert got == pytest.approx(expect, rel=1e-13, abs=1e-13)
        h = 1e-6

        def at(t: float, dp: list[float] = dp, ds: float = ds) -> float:
            q = [p[k] + t * dp[k] for k in range(4)]
            return f(Vec(*q), s + t * ds)

        assert got == pytest.approx((at(h) - at(-h)) / (2 * h), rel=1e-6, abs=1e-6)
    df2 = jit.cfunc("df2", Pair, ctypes.POINTER(Vec), ctypes.POINTER(Vec), ctypes.POINTER(Vec), ctypes.c_double)
    d1, d2 = [1.0, 0.0, 0.5, 0.0], [0.0, 2.0, 0.0, -1.0]
    both = df2(Vec(*p), Vec(*d1), Vec(*d2), s)
    assert both.a == pytest.approx(df(Vec(*p), Vec(*d1), s, 0.0), rel=1e-14)
    assert both.b == pytest.approx(df(Vec(*p), Vec(*d2), s, 0.0), rel=1e-14)


@pytest.mark.parametrize("op", ["fmax", "fmin", "fmaximum", "fminimum"])
def test_selecting_reduction_takes_the_tangent_of_the_chosen_lane(op: str) -> None:
    text = BODY.replace("%r = fadd double %sum, %prod",
                        f"%m = call double @llvm.vector.reduce.{op}.v4f64(<4 x double> %v)\n"
                        "  %r = fadd double %sum, %m")
    text = text.replace("declare double @llvm.vector.reduce.fmax.v4f64(<4 x double>)",
                        f"declare double @llvm.vector.reduce.{op}.v4f64(<4 x double>)")
    jit = build(text)
    df = jit.cfunc("df", ctypes.c_double, ctypes.POINTER(Vec), ctypes.POINTER(Vec), ctypes.c_double, ctypes.c_double)
    p, s = [0.5, -1.5, 2.0, 1.25], 0.75
    pick = 2 if op in ("fmax", "fmaximum") else 1
    for lane in range(4):
        d = [1.0 if j == lane else 0.0 for j in range(4)]
        # s + sum of squares, plus the chosen lane: 2 v[lane], plus 1 for the chosen lane
        expected = 2 * p[lane] + (1.0 if lane == pick else 0.0)
        assert df(Vec(*p), Vec(*d), s, 0.0) == pytest.approx(expected, rel=1e-14)

"""Math intrinsics returning a struct of results (rules/math.py's MULTI), in both modes.

``llvm.sincos`` -> ``{sin, cos}``, ``llvm.modf`` -> ``{frac, int}`` and
``llvm.frexp`` -> ``{m, e}`` written as IR (clang emits them only at some
levels), with ``__enzyme_autodiff`` and ``__enzyme_fwddiff`` drivers,
transformed, JIT compiled and compared with central differences of the
untouched primal.  The vector form checks that the rules splat their
constants and index struct fields of vector results.
"""
from __future__ import annotations

import ctypes
import math
import pytest

from enzyme import llvm
from enzyme.pipeline import TransformOptions, transform_module
from enzyme.rules import MULTI, lookup_multi
from enzyme.rules.dsl import Arg, Cmp, Const, Expr, Op, Result, Select

DRIVERS = """
declare double @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)
define double @grad(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}
define double @tangent(double %x) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %r
}
"""

DECLS = """
declare { double, double } @llvm.sincos.f64(double)
declare { <2 x double>, <2 x double> } @llvm.sincos.v2f64(<2 x double>)
declare { double, double } @llvm.modf.f64(double)
declare { double, i32 } @llvm.frexp.f64.i32(double)
"""

# f(x) -> double, each mixing the fields of a struct result.
BODIES = {
    "sincos": """
  %sc = call { double, double } @llvm.sincos.f64(double %x)
  %s = extractvalue { double, double } %sc, 0
  %c = extractvalue { double, double } %sc, 1
  %s2 = fmul double %s, %s
  %c3 = fmul double %c, 3.0
  %r = fadd double %s2, %c3
""",
    "sincos_vector": """
  %y = fmul double %x, 2.0
  %v0 = insertelement <2 x double> poison, double %x, i64 0
  %v = insertelement <2 x double> %v0, double %y, i64 1
  %sc = call { <2 x double>, <2 x double> } @llvm.sincos.v2f64(<2 x double> %v)
  %s = extractvalue { <2 x double>, <2 x double> } %sc, 0
  %c = extractvalue { <2 x double>, <2 x double> } %sc, 1
  %p = fmul <2 x double> %s, %c
  %p0 = extractelement <2 x double> %p, i64 0
  %p1 = extractelement <2 x double> %p, i64 1
  %r = fadd double %p0, %p1
""",
    "modf": """
  %t = fmul double %x, 3.0
  %fi = call { double, double } @llvm.modf.f64(double %t)
  %fr = extractvalue { double, double } %fi, 0
  %ip = extractvalue { double, double } %fi, 1
  %f2 = fmul double %fr, %fr
  %r = fadd double %f2, %ip
""",
    "frexp": """
  %t = fmul double %x, %x
  %me = call { double, i32 } @llvm.frexp.f64.i32(double %t)
  %m = extractvalue { double, i32 } %me, 0
  %e = extractvalue { double, i32 } %me, 1
  %ef = sitofp i32 %e to double
  %m2 = fmul double %m, %ef
  %r = fadd double %m2, %m
""",
}


def function_text(body: str) -> str:
    return f"define double @f(double %x) {{\n{body}  ret double %r\n}}\n"


@pytest.fixture(scope="module")
def jits() -> dict[str, tuple[llvm.JIT, llvm.JIT]]:
    out = {}
    for name, body in BODIES.items():
        primal = llvm.JIT(DECLS + function_text(body), libraries=["libm.so.6"])
        result = transform_module(llvm.parse(DECLS + function_text(body) + DRIVERS), TransformOptions(postopt_level=2),
                                  name=name)
        out[name] = (primal, llvm.JIT(result, libraries=["libm.so.6"]))
    return out


@pytest.mark.parametrize("name", sorted(BODIES))
@pytest.mark.parametrize("x", [0.8, -2.3, 5.1])
@pytest.mark.parametrize("mode", ["grad", "tangent"])
def test_derivative_matches_central_differences(jits, name: str, x: float, mode: str) -> None:
    primal_jit, derivative_jit = jits[name]
    f = primal_jit.cfunc("f", ctypes.c_double, ctypes.c_double)
    d = derivative_jit.cfunc(mode, ctypes.c_double, ctypes.c_double)
    h = 1e-6
    central = (f(x + h) - f(x - h)) / (2 * h)
    assert d(x) == pytest.approx(central, rel=1e-6, abs=1e-8), f"{name} ({mode}) at {x}"


def test_multi_rules_are_data() -> None:
    # One rule per result field; the integer exponent and the integral part carry no derivative.
    assert set(MULTI) == {"modf", "frexp", "sincos", "sincospi"}
    assert MULTI["frexp"].fields[1] is None and MULTI["modf"].fields[1] is None
    assert all(f is not None and f.singular for f in MULTI["sincos"].fields)
    assert MULTI["sincos"].uses_result and not MULTI["modf"].uses_result
    assert lookup_multi("llvm.sincospi.v4f32") is MULTI["sincospi"]
    assert lookup_multi("sincos") is None  # glibc's sincos writes through pointers: not this rule


def _evaluate(e: Expr, x: float, result: tuple[float, ...]) -> float:
    """A partial's value, evaluated in Python (an oracle independent of the emitter)."""
    if isinstance(e, Arg):
        return x
    if isinstance(e, Result):
        assert e.field is not None
        return result[e.field]
    if isinstance(e, Const):
        return e.value
    if isinstance(e, Op):
        vals = [_evaluate(a, x, result) for a in e.args]
        return {"fadd": lambda a, b: a + b, "fsub": lambda a, b: a - b, "fmul": lambda a, b: a * b,
                "fdiv": lambda a, b: a / b, "fneg": lambda a: -a}[e.opcode](*vals)
    if isinstance(e, Select):
        assert isinstance(e.cond, Cmp) and e.cond.pred == "oeq"
        taken = _evaluate(e.cond.a, x, result) == _evaluate(e.cond.b, x, result)
        return _evaluate(e.a if taken else e.b, x, result)
    raise TypeError(e)


PRIMALS = {  # the struct each intrinsic returns, as Python computes it
    "sincos": lambda x: (math.sin(x), math.cos(x)),
    "sincospi": lambda x: (math.sin(math.pi * x), math.cos(math.pi * x)),
    "modf": lambda x: math.modf(x),
    "frexp": lambda x: math.frexp(x),
}


@pytest.mark.parametrize("name", sorted(PRIMALS))
@pytest.mark.parametrize("x", [0.3, -1.7, 6.25])
def test_each_field_partial_matches_central_differences(name: str, x: float) -> None:
    # sincospi has no libm runtime on x86-64 (LLVM cannot JIT it), so its rule is checked here, field by field.
    result = PRIMALS[name](x)
    h = 1e-6
    for k, field in enumerate(MULTI[name].fields):
        if field is None:
            continue
        partial = field.partials[0]
        assert partial is not None
        central = (PRIMALS[name](x + h)[k] - PRIMALS[name](x - h)[k]) / (2 * h)
        assert _evaluate(partial, x, result) == pytest.approx(central, rel=1e-6, abs=1e-8), f"{name} field {k}"

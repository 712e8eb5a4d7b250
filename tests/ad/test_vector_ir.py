"""Reverse mode of vector IR that C's vector extensions do not produce directly.

``llvm.vector.reduce.fadd``/``fmul`` (ordered and ``reassoc``), shuffles that
read one lane several times, insertelement/extractelement at a run-time
index, and ``freeze`` (clang -O3 puts it on loaded values), written as IR
with an ``__enzyme_autodiff`` call, transformed, JIT compiled and compared
with central differences of the untouched primal.
(The C programs in programs/vector_ext.c cover clang's vector code.)
"""
from __future__ import annotations

import ctypes

import pytest

from enzyme import llvm
from enzyme.pipeline import TransformOptions, transform_module

DRIVER = """
declare double @__enzyme_autodiff(ptr, ...)
define void @grad(ptr %x, ptr %dx, i64 %k) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx, i64 %k)
  ret void
}
"""

# f(x: ptr to 4 doubles, k: i64) -> double
BODIES = {
    "reduce_fadd_ordered": """
  %s = load double, ptr %x
  %t = fmul <4 x double> %v, %v
  %r = call double @llvm.vector.reduce.fadd.v4f64(double %s, <4 x double> %t)
""",
    "reduce_fadd_reassoc": """
  %t = fmul <4 x double> %v, %v
  %r = call reassoc double @llvm.vector.reduce.fadd.v4f64(double -0.0, <4 x double> %t)
""",
    "reduce_fmul": """
  %s = load double, ptr %x
  %r = call double @llvm.vector.reduce.fmul.v4f64(double %s, <4 x double> %v)
""",
    "reduce_fmul_reassoc_with_zero_lane": """
  %z = insertelement <4 x double> %v, double 0.0, i64 2
  %r = call reassoc double @llvm.vector.reduce.fmul.v4f64(double 1.5, <4 x double> %z)
""",
    "splat_shuffle": """
  %sp = shufflevector <4 x double> %v, <4 x double> poison, <4 x i32> <i32 1, i32 poison, i32 3, i32 1>
  %sq = shufflevector <4 x double> %sp, <4 x double> %v, <4 x i32> <i32 0, i32 7, i32 2, i32 3>
  %m = fmul <4 x double> %sq, %v
  %r = call double @llvm.vector.reduce.fadd.v4f64(double 0.0, <4 x double> %m)
""",
    "two_input_shuffle_widening": """
  %lo = shufflevector <4 x double> %v, <4 x double> poison, <2 x i32> <i32 0, i32 1>
  %hi = shufflevector <4 x double> %v, <4 x double> poison, <2 x i32> <i32 2, i32 3>
  %sq = fmul <2 x double> %hi, %hi
  %w = shufflevector <2 x double> %lo, <2 x double> %sq, <8 x i32> <i32 3, i32 0, i32 2, i32 2, i32 1, i32 0, i32 3, i32 1>
  %e = call <8 x double> @llvm.sin.v8f64(<8 x double> %w)
  %r = call double @llvm.vector.reduce.fadd.v8f64(double 0.0, <8 x double> %e)
""",
    "dynamic_index": """
  %a = extractelement <4 x double> %v, i64 %k
  %b = fmul double %a, %a
  %c = insertelement <4 x double> %v, double %b, i64 %k
  %d = fmul <4 x double> %c, %v
  %r = call double @llvm.vector.reduce.fadd.v4f64(double 0.0, <4 x double> %d)
""",
    "freeze": """
  %a = extractelement <4 x double> %v, i64 %k
  %f = freeze double %a
  %b = fmul double %f, %f
  %vf = freeze <4 x double> %v
  %d = fmul <4 x double> %vf, %v
  %s = call double @llvm.vector.reduce.fadd.v4f64(double 0.0, <4 x double> %d)
  %r = fadd double %s, %b
""",
}

DECLS = """
declare double @llvm.vector.reduce.fadd.v4f64(double, <4 x double>)
declare double @llvm.vector.reduce.fadd.v8f64(double, <8 x double>)
declare double @llvm.vector.reduce.fmul.v4f64(double, <4 x double>)
declare <8 x double> @llvm.sin.v8f64(<8 x double>)
"""


def function_text(body: str) -> str:
    return f"define double @f(ptr %x, i64 %k) {{\n  %v = load <4 x double>, ptr %x, align 8\n{body}  ret double %r\n}}\n"


def module_text(body: str) -> str:
    return DECLS + function_text(body) + DRIVER


@pytest.fixture(scope="module")
def jits() -> dict[str, tuple[llvm.JIT, llvm.JIT]]:
    out = {}
    for name, body in BODIES.items():
        text = module_text(body)
        primal = llvm.JIT(DECLS + function_text(body), libraries=["libm.so.6"])
        result = transform_module(llvm.parse(text), TransformOptions(postopt_level=2), name=name)
        out[name] = (primal, llvm.JIT(result, libraries=["libm.so.6"]))
    return out


@pytest.mark.parametrize("name", sorted(BODIES))
@pytest.mark.parametrize("k", [1, 3])
def test_gradient_matches_central_differences(jits, name: str, k: int) -> None:
    primal_jit, grad_jit = jits[name]
    Vec = ctypes.c_double * 4
    f = primal_jit.cfunc("f", ctypes.c_double, ctypes.POINTER(ctypes.c_double), ctypes.c_int64)
    grad = grad_jit.cfunc("grad", None, ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctypes.c_double),
                          ctypes.c_int64)
    x0 = [0.7, -1.3, 0.4, 2.1]
    x, dx = Vec(*x0), Vec(0, 0, 0, 0)
    grad(x, dx, k)
    for i in range(4):
        h = 1e-6
        xp, xm = Vec(*x0), Vec(*x0)
        xp[i] += h
        xm[i] -= h
        fd = (f(xp, k) - f(xm, k)) / (2 * h)
        assert dx[i] == pytest.approx(fd, rel=1e-6, abs=1e-8), f"{name}: d/dx{i} = {dx[i]}, central {fd}"
    assert list(x) == x0


"""Which values may be infinite or NaN (enzyme/analysis/nonfinite.py), and the strong zeros reverse mode puts
exactly there: a product of a zero adjoint with such a partial gives 0, not NaN; other products stay plain."""
from __future__ import annotations

import re

from enzyme.analysis.nonfinite import NonFiniteValues
from enzyme.driver import differentiate_module
from enzyme.ir import Function, Module, parse_module, print_module
from enzyme.rules import INSTRUCTIONS, MATH, may_be_nonfinite


def facts(text: str, roots: tuple[str, ...] = ("f",)) -> tuple[NonFiniteValues, Module]:
    m = parse_module(text)
    found = [m.get_function(name) for name in roots]
    assert all(isinstance(f, Function) for f in found)
    return NonFiniteValues(m, found), m  # type: ignore[arg-type]


def named(m: Module, fn: str, name: str):  # type: ignore[no-untyped-def]
    f = m.get_function(fn)
    assert f is not None
    return next(v for v in [*f.args, *f.instructions()] if v.name == name)


GUARDED = """
define double @f(double %x, double %y) {
  %inv = fdiv double 1.0, %y
  %nz = fcmp une double %y, 0.0
  %g = select i1 %nz, double %inv, double 0.0
  %p = fmul double %x, %x
  %s = call double @llvm.sin.f64(double %p)
  %l = call double @log(double %x)
  %m = call double @llvm.fmuladd.f64(double %x, double %x, double %g)
  %r = fadd double %p, %s
  ret double %r
}
declare double @llvm.sin.f64(double)
declare double @llvm.fmuladd.f64(double, double, double)
declare double @log(double)
"""


def test_division_and_calls_are_sources_arithmetic_passes_on() -> None:
    nf, m = facts(GUARDED)
    value = lambda name: nf.may_be_nonfinite(named(m, "f", name))
    assert value("inv") and value("g") and value("l") and value("m")  # 1/0, select of it, log(0), fma of it
    assert not value("x") and not value("p") and not value("s") and not value("r")  # finite in, finite out


def test_memory_holds_non_finite_values_only_if_the_program_puts_them_there() -> None:
    finite = """
define double @f(ptr %a, i64 %n) {
  %v = load double, ptr %a
  %w = fmul double %v, %v
  store double %w, ptr %a
  ret double %w
}"""
    nf, m = facts(finite)
    assert not nf.may_be_nonfinite(named(m, "f", "v")) and not nf.may_be_nonfinite(named(m, "f", "a"))
    stores_quotient = finite.replace("%w = fmul double %v, %v", "%w = fdiv double 1.0, %v")
    nf, m = facts(stores_quotient)
    assert nf.may_be_nonfinite(named(m, "f", "v"))  # the load may read the quotient back
    calls_with_quotient = """
define double @f(double %x) {
  %q = fdiv double 1.0, %x
  %r = call double @g(double %q)
  ret double 0.0
}
define double @g(double %t) {
  %u = fmul double %t, %t
  ret double 0.0
}"""
    nf, m = facts(calls_with_quotient)
    assert nf.may_be_nonfinite(named(m, "g", "u"))  # g's argument may be the quotient


def test_only_code_the_roots_reach_counts() -> None:
    """A main that prints a ratio does not make the differentiated function's memory non-finite."""
    text = """
define double @f(ptr %a) {
  %v = load double, ptr %a
  ret double %v
}
define i32 @main(double %t) {
  %ratio = fdiv double %t, 3.0
  call i32 (ptr, ...) @printf(ptr null, double %ratio)
  ret i32 0
}
declare i32 @printf(ptr, ...)
"""
    nf, m = facts(text)
    assert not nf.may_be_nonfinite(named(m, "f", "v"))
    # Differentiated too, main does not run within f's derivative: f's memory still holds f's inputs only.
    nf, m = facts(text, roots=("f", "main"))
    assert not nf.may_be_nonfinite(named(m, "f", "v"))
    # Where main calls f, f runs after main's division escaped.
    nf, m = facts(text.replace("ret i32 0", "%again = call double @f(ptr null)\n  ret i32 0"), roots=("f", "main"))
    assert nf.may_be_nonfinite(named(m, "f", "v"))


def test_one_kernel_storing_exp_does_not_guard_another() -> None:
    """Two differentiated kernels in one module: the one that stores exp's results makes its own loads
    possibly non-finite, not the other's."""
    text = """
define double @g(ptr %a, ptr %out) {
  %x = load double, ptr %a
  %e = call double @exp(double %x)
  store double %e, ptr %out
  %y = load double, ptr %out
  ret double %y
}
define double @h(ptr %a) {
  %v = load double, ptr %a
  %w = fmul double %v, %v
  ret double %w
}
declare double @exp(double)
"""
    nf, m = facts(text, roots=("g", "h"))
    assert nf.may_be_nonfinite(named(m, "g", "y"))
    assert not nf.may_be_nonfinite(named(m, "h", "v")) and not nf.may_be_nonfinite(named(m, "h", "w"))


def test_non_finite_constants_in_code_and_globals() -> None:
    nf, m = facts("""
define double @f(double %x, i1 %c) {
  %big = select i1 %c, double %x, double 0x7FF0000000000000
  ret double 0.0
}""")
    assert nf.may_be_nonfinite(named(m, "f", "big"))
    nf, m = facts("""
@table = internal constant [2 x double] [double 1.0, double 0x7FF0000000000000]
define double @f(ptr %a) {
  %v = load double, ptr %a
  ret double 0.0
}""")
    assert nf.may_be_nonfinite(named(m, "f", "v"))


def test_partials_that_may_be_non_finite() -> None:
    finite = lambda k: False
    fmul, fdiv = INSTRUCTIONS["fmul"].partials, INSTRUCTIONS["fdiv"].partials
    assert fmul[0] is not None and fdiv[0] is not None and fdiv[1] is not None
    assert not may_be_nonfinite(fmul[0], finite, False)
    assert may_be_nonfinite(fmul[0], lambda k: k == 1, False)  # ∂(x·y)/∂x = y
    assert may_be_nonfinite(fdiv[0], finite, False) and may_be_nonfinite(fdiv[1], finite, False)
    fmax = MATH["fmax"].partials[0]
    assert fmax is not None and not may_be_nonfinite(fmax, lambda k: True, True)  # selects of 0 and 1
    sin = MATH["sin"].partials[0]
    assert sin is not None and may_be_nonfinite(sin, finite, False)  # a call: conservatively yes


REQUEST = """
declare double @__enzyme_autodiff(ptr, ...)
define { double, double } @grad(double %x, double %y) {
  %r = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, double %y)
  ret { double, double } %r
}
"""


def reverse_sweep(body: str) -> str:
    m = parse_module(body + REQUEST)
    differentiate_module(m)
    text = print_module(m)
    found = re.search(r"^define [^\n]*@reverse_f\(.*?^}", text, re.MULTILINE | re.DOTALL)
    assert found is not None
    return found.group(0)


def test_reverse_mode_guards_only_products_with_possibly_non_finite_partials() -> None:
    plain = reverse_sweep("""
define double @f(double %x, double %y) {
  %p = fmul double %x, %y
  %q = fmul double %p, %x
  ret double %q
}""")
    assert "fcmp" not in plain and "select" not in plain
    guarded = reverse_sweep("""
define double @f(double %x, double %y) {
  %inv = fdiv double 1.0, %y
  %nz = fcmp une double %y, 0.0
  %g = select i1 %nz, double %inv, double 0.0
  %r = fmul double %x, %g
  ret double %r
}""")
    # the fdiv's partial and the fmul's partial ∂r/∂x = g: zero adjoints give zero contributions
    assert guarded.count("fcmp oeq double") == 2

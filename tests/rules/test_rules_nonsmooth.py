"""``Emitter.times``: the term a partial contributes, at kinks, ties and singular points.

Checks the property upstream Enzyme gets by putting the adjoint inside its
selects: the operand that min/max/fdim does not pick gets exactly zero even
when the seed (tangent or adjoint) is inf or NaN, and a ``singular`` rule
turns a zero seed into zero where its partial is infinite.  Numbers come from
JIT-compiled emitted code; the shapes from the printed IR.
"""
from __future__ import annotations

import ctypes
import math

import pytest

from enzyme import llvm
from enzyme.ir import DOUBLE, Function, FunctionType, Module, VectorType, print_module
from enzyme.ir.builder import Builder
from enzyme.rules import MATH
from enzyme.rules.dsl import Arg
from enzyme.rules.emit import Emitter, function_for

NAN, INF = math.nan, math.inf
# (rule, operand) pairs under test: every rule with a selecting partial, and the singular ones.
TERMS = [("fabs", 0), ("copysign", 0), ("fdim", 0), ("fdim", 1), ("sqrt", 0), ("cbrt", 0), ("hypot", 0),
         ("hypot", 1), ("atan2", 0), ("atan2", 1), ("asin", 0), ("acos", 0), ("acosh", 0), ("pow", 0), ("pow", 1)]
TERMS += [(n, k) for n in ("fmax", "fmin", "maxnum", "minnum", "maximum", "minimum", "maximumnum", "minimumnum")
          for k in (0, 1)]


def _term_function(m: Module, name: str, k: int) -> str:
    """``double term(double x, double y, double seed)``: ∂name/∂x_k · seed as the engine emits it."""
    r = MATH[name]
    sym = f"term.{name}.{k}"
    f = Function(sym, FunctionType(DOUBLE, (DOUBLE, DOUBLE, DOUBLE)))
    m.add(f)
    b = Builder(f.append_block("entry"))
    args = list(f.args[:r.arity])
    result = b.call(function_for(m, name, DOUBLE, r.arity), args) if r.uses_result else None
    partial = r.partials[k]
    assert partial is not None
    b.ret(Emitter(m, b, args, result, DOUBLE).times(partial, f.args[2], singular=r.singular))
    return sym


@pytest.fixture(scope="module")
def term():
    m = Module()
    syms = {(n, k): _term_function(m, n, k) for n, k in TERMS}
    jit = llvm.JIT(print_module(m), libraries=["libm.so.6"])
    fns = {key: jit.cfunc(sym, ctypes.c_double, ctypes.c_double, ctypes.c_double, ctypes.c_double)
           for key, sym in syms.items()}

    def call(name: str, k: int, x: float, y: float, seed: float) -> float:
        return fns[(name, k)](x, y, seed)
    call.jit = jit  # type: ignore[attr-defined]  # the code lives as long as the JIT
    return call


def _same(got: float, want: float) -> bool:
    return (math.isnan(got) and math.isnan(want)) or (got == want and math.copysign(1, got) == math.copysign(1, want))


# (rule, operand, x, y, seed, expected term)
CASES = [
    # the unpicked operand of min/max gets an exact zero whatever its seed; the picked one its seed
    *[(n, 0, 1.0, 2.0, s, 0.0) for n in ("fmax", "maxnum", "maximum", "maximumnum") for s in (NAN, INF, -INF)],
    *[(n, 1, 1.0, 2.0, NAN, NAN) for n in ("fmax", "maxnum", "maximum", "maximumnum")],
    *[(n, 1, 1.0, 2.0, s, 0.0) for n in ("fmin", "minnum", "minimum", "minimumnum") for s in (NAN, INF)],
    *[(n, 0, 1.0, 2.0, INF, INF) for n in ("fmin", "minnum", "minimum", "minimumnum")],
    # ties: max -> first operand, min -> second
    *[(n, 0, 3.0, 3.0, 5.0, 5.0) for n in ("fmax", "maxnum", "maximum", "maximumnum")],
    *[(n, 1, 3.0, 3.0, NAN, 0.0) for n in ("fmax", "maxnum", "maximum", "maximumnum")],
    *[(n, 1, 3.0, 3.0, 5.0, 5.0) for n in ("fmin", "minnum", "minimum", "minimumnum")],
    *[(n, 0, 3.0, 3.0, NAN, 0.0) for n in ("fmin", "minnum", "minimum", "minimumnum")],
    ("fdim", 0, 1.0, 3.0, NAN, 0.0), ("fdim", 1, 1.0, 3.0, INF, 0.0), ("fdim", 1, 3.0, 1.0, 2.0, -2.0),
    # sign kinks: the sign bit
    ("fabs", 0, -0.0, 0.0, 2.0, -2.0), ("fabs", 0, 0.0, 0.0, 2.0, 2.0), ("fabs", 0, -5.0, 0.0, 1.0, -1.0),
    ("copysign", 0, -0.0, 1.0, 3.0, -3.0), ("copysign", 0, 0.0, -0.0, 3.0, -3.0),
    # singular rules: a zero seed stays zero where the partial is infinite; a nonzero one gets the infinity
    ("sqrt", 0, 0.0, 0.0, 0.0, 0.0), ("sqrt", 0, 0.0, 0.0, 1.0, INF), ("sqrt", 0, 4.0, 0.0, 2.0, 0.5),
    ("cbrt", 0, 0.0, 0.0, 0.0, 0.0), ("hypot", 0, 0.0, 0.0, 0.0, 0.0), ("hypot", 1, 0.0, 0.0, 0.0, 0.0),
    ("hypot", 0, 0.0, 0.0, 1.0, NAN), ("atan2", 0, 0.0, 0.0, 0.0, 0.0), ("atan2", 1, 0.0, 0.0, 0.0, 0.0),
    ("asin", 0, 1.0, 0.0, 0.0, 0.0), ("asin", 0, 1.0, 0.0, 1.0, INF), ("acos", 0, -1.0, 0.0, 0.0, 0.0),
    ("acosh", 0, 1.0, 0.0, 0.0, 0.0), ("pow", 0, 0.0, 0.5, 0.0, 0.0), ("pow", 0, 0.0, 0.5, 1.0, INF),
    ("pow", 1, 0.0, 0.5, NAN, 0.0),
]


@pytest.mark.parametrize(("name", "k", "x", "y", "seed", "expected"), CASES,
                         ids=[f"{n}-{k}-{x}-{y}-seed{s}" for n, k, x, y, s, _ in CASES])
def test_term(term, name, k, x, y, seed, expected):
    got = term(name, k, x, y, seed)
    assert _same(got, expected), f"∂{name}/∂x{k} · {seed} at ({x}, {y}) = {got}, expected {expected}"


def _term_ir(name: str, k: int, t=DOUBLE) -> str:
    m = Module()
    r = MATH[name]
    f = Function("f", FunctionType(t, (t, t, t)))
    m.add(f)
    b = Builder(f.append_block("entry"))
    args = list(f.args[:r.arity])
    result = b.call(function_for(m, name, t, r.arity), args) if r.uses_result else None
    partial = r.partials[k]
    assert partial is not None
    b.ret(Emitter(m, b, args, result, t).times(partial, f.args[2], singular=r.singular))
    text = print_module(m)
    llvm.verify(llvm.parse(text))
    return text


def test_selecting_partials_select_the_seed_and_multiply_nothing():
    for name in ("fmax", "fmin", "maximum", "fdim"):
        text = _term_ir(name, 0)
        assert "fmul" not in text and "select" in text, text
    text = _term_ir("fmax", 0)
    assert "double %2" in text.split("select", 1)[1]  # the seed itself is a branch of a select


def test_fabs_is_a_copysign_factor():
    text = _term_ir("fabs", 0)
    assert "call double @llvm.copysign.f64(double 0x3FF0000000000000, double %0)" in text and "fcmp" not in text


def test_singular_rules_guard_a_zero_seed():
    text = _term_ir("sqrt", 0)
    assert "fcmp oeq double %2, 0x0000000000000000" in text and "select" in text
    assert "fcmp oeq" not in _term_ir("sin", 0)  # ordinary rules multiply


def test_vector_terms_are_valid_ir():
    v = VectorType(2, DOUBLE)
    for name, k in (("maxnum", 0), ("fabs", 0), ("sqrt", 0), ("copysign", 0)):
        assert "<2 x double>" in _term_ir(name, k, v)


def test_singular_flags():
    assert {n for n, r in MATH.items() if r.singular} == {
        "sqrt", "cbrt", "pow", "hypot", "asin", "acos", "acosh", "atan2"}


def _guarded_products(t=DOUBLE) -> Module:
    """``double g(double p, double q, double seed)``: the guarded terms p·seed + q·seed (two guards of one seed,
    as an fmul's two operands get), and ``g1``: p·seed alone, both with ``singular``."""
    m = Module()
    for sym, count in (("g", 2), ("g1", 1)):
        f = Function(sym, FunctionType(t, (t, t, t)))
        m.add(f)
        b = Builder(f.append_block("entry"))
        em = Emitter(m, b, list(f.args[:2]), None, t, adjoints=True)
        terms = [em.times(Arg(i), f.args[2], singular=True) for i in range(count)]
        b.ret(terms[0] if count == 1 else b.fadd(terms[0], terms[1]))
    return m


def test_singular_guard_is_zero_exactly_where_a_zero_seed_meets_a_non_finite_partial():
    """Every (partial, seed) pair against the definition: +0.0 where seed == 0 and the partial is inf or NaN,
    else the IEEE product (its sign of zero included; NaN where the product is NaN)."""
    jit = llvm.JIT(print_module(_guarded_products()))
    g1 = jit.cfunc("g1", ctypes.c_double, ctypes.c_double, ctypes.c_double, ctypes.c_double)
    values = (0.0, -0.0, 1.5, -2.0, 1e-310, 1e308, INF, -INF, NAN)
    for p in values:
        for seed in values:
            want = 0.0 if seed == 0 and not math.isfinite(p) else p * seed
            got = g1(p, 0.0, seed)
            assert _same(got, want), f"guarded {p} · {seed} = {got}, expected {want}"


def test_singular_guards_of_one_seed_share_its_zero_test_and_each_has_one_compare():
    """The shape x86 compiles without branches: `seed == 0` feeds one select made once per seed, and each
    guard selects on its own `product is NaN` (an AND of the shared compare with a per-guard test became a
    branch around every guard)."""
    text = print_module(_guarded_products())
    body = text.split("define double @g(", 1)[1].split("}", 1)[0]
    assert body.count("fcmp oeq") == 1 and body.count("fcmp uno") == 2 and " and i1" not in body, body
    assert body.count("select") == 3, body
    llvm.verify(llvm.parse(text))
    v = VectorType(2, DOUBLE)
    llvm.verify(llvm.parse(print_module(_guarded_products(v))))

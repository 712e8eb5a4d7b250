"""What the emitter produces: declarations per type, shared subexpressions, vector splats, errors."""
from __future__ import annotations

import ctypes

import pytest

from enzyme import llvm
from enzyme.errors import DifferentiationError
from enzyme.ir import (
    DOUBLE,
    FLOAT,
    I32,
    I64,
    PTR,
    VOID,
    FloatType,
    Function,
    FunctionType,
    Module,
    VectorType,
    print_module,
)
from enzyme.ir.builder import Builder
from enzyme.rules import INSTRUCTIONS, LINEAR_CONVERSIONS, MATH
from enzyme.rules.dsl import Const, X, cmp, select
from enzyme.rules.emit import INTRINSIC_FUNCTIONS, Emitter, function_for
from enzyme.rules.math import INTRINSICS
from enzyme.rules.special_functions import HELPERS

X86_FP80 = FloatType("x86_fp80")


def _emit_partials(name: str, t, int_type=I32) -> str:
    """A module with one function returning partial 0 (and 1, ...) of ``name`` at type ``t``."""
    r = MATH.get(name) or INSTRUCTIONS[name]
    m = Module()
    params = tuple(int_type if i in r.int_args else t for i in range(r.arity))
    f = Function("f", FunctionType(VOID, (*params, PTR)))
    m.add(f)
    b = Builder(f.append_block("entry"))
    result = None
    if r.uses_result:
        result = b.call(function_for(m, name, t, r.arity), f.args[:r.arity])
    em = Emitter(m, b, list(f.args[:r.arity]), result, t)
    for p in r.partials:
        if p is not None:
            b.store(em.emit(p), f.args[-1])
    b.ret()
    return print_module(m)


def test_calls_map_to_intrinsics_or_libm_of_the_type():
    assert "call float @llvm.cos.f32(float" in _emit_partials("sin", FLOAT)
    assert "call <4 x float> @llvm.cos.v4f32(" in _emit_partials("sin", VectorType(4, FLOAT))
    assert "call float @llvm.exp.f32(float" in _emit_partials("erf", FLOAT)
    assert "call float @hypotf(float" in _emit_partials("asinh", FLOAT)
    assert "call x86_fp80 @j0l(x86_fp80" in _emit_partials("j1", X86_FP80)
    assert "call double @j1(double" in _emit_partials("j0", DOUBLE)


def test_subexpressions_are_emitted_once():
    text = _emit_partials("fmin", DOUBLE)  # both partials test `y uno y` and `x olt y`
    assert text.count("fcmp uno") == 1 and text.count("fcmp olt") == 1
    text = _emit_partials("atan2", DOUBLE)  # x² + y² shared by both partials
    assert text.count("fadd") == 1


def test_integer_operand_of_a_vector_rule_is_splatted():
    text = _emit_partials("powi", VectorType(2, DOUBLE))
    assert "sitofp i32 %1 to double" in text
    assert "insertelement <2 x double> poison" in text
    llvm.verify(llvm.parse(text))
    vec = _emit_partials("ldexp", VectorType(2, DOUBLE), int_type=VectorType(2, I32))
    assert "sitofp <2 x i32> %1 to <2 x double>" in vec


def test_libm_only_function_on_a_vector_is_a_clear_error():
    with pytest.raises(DifferentiationError, match="j0.*<2 x double>.*custom rule"):
        function_for(Module(), "j0", VectorType(2, DOUBLE), 1)


def test_emitter_memo_is_by_node():
    m = Module()
    f = Function("f", FunctionType(DOUBLE, (DOUBLE,)))
    m.add(f)
    b = Builder(f.append_block("entry"))
    em = Emitter(m, b, list(f.args), None, DOUBLE)
    e = X[0] * X[0]
    assert em.emit(e) is em.emit(e)
    assert em.emit(X[0] * X[0]) is not em.emit(e)  # equal but distinct nodes are not merged
    c = cmp("olt", X[0], 0.0)
    em.emit(select(c, 1.0, Const(2.0)))
    em.emit(select(c, 3.0, 4.0))
    b.ret(em.emit(e))
    assert print_module(m).count("fcmp") == 1


@pytest.mark.parametrize("name", sorted(n for n in MATH if n in INTRINSICS))
def test_intrinsic_rules_call_only_intrinsics(name):
    """So that llvm.<name>.v4f32 and friends are differentiable element-wise."""
    assert MATH[name].calls <= INTRINSIC_FUNCTIONS


def test_every_libm_function_a_partial_calls_exists_in_all_precisions():
    libm = ctypes.CDLL("libm.so.6")
    calls = set().union(*(r.calls for r in (*MATH.values(), *INSTRUCTIONS.values())))
    for fn in sorted(calls - INTRINSIC_FUNCTIONS - set(HELPERS)):
        for suffix in ("", "f", "l", "f128"):
            assert hasattr(libm, fn + suffix), f"libm has no {fn}{suffix}"


@pytest.mark.parametrize("name", sorted(n for n in MATH if MATH[n].arity and any(MATH[n].partials)))
def test_every_rule_emits_valid_ir_for_long_double(name):
    text = _emit_partials(name, X86_FP80, int_type=I64 if name == "scalbln" else I32)
    llvm.verify(llvm.parse(text))


@pytest.mark.parametrize("t", [DOUBLE, FLOAT, X86_FP80, FloatType("fp128")])
def test_helper_functions_are_defined_in_the_module(t):
    """digamma is not in libm: the module gets a definition (once), valid at every float type."""
    text = _emit_partials("tgamma", t)
    assert "define internal double @__pyenzyme_digamma_f64" in text
    assert text.count("define internal") == (1 if t == DOUBLE else 2)
    llvm.verify(llvm.parse(text))


def test_helper_functions_refuse_vectors():
    with pytest.raises(DifferentiationError, match="digamma"):
        _emit_partials("lgamma", VectorType(2, DOUBLE))


def test_linear_conversions_are_each_others_transposes():
    assert LINEAR_CONVERSIONS == {"fpext": "fptrunc", "fptrunc": "fpext"}
    assert all(LINEAR_CONVERSIONS[t] == op for op, t in LINEAR_CONVERSIONS.items())


def test_rule_introspection():
    assert MATH["powi"].int_args == {1} and MATH["powi"].used_args == {0, 1} and MATH["powi"].partials[1] is None
    assert MATH["exp"].uses_result and not MATH["sin"].uses_result
    assert MATH["floor"].arity == 1 and MATH["floor"].partials == (None,)
    assert MATH["erf"].calls == {"exp"}

"""Activity analysis through the Python API: soundness first, then precision, then errors."""
from __future__ import annotations

import pytest

from enzyme.analysis import TypeAnalysis, analyze_activity
from enzyme.errors import UsageError
from enzyme.ir import parse_module


def run(text: str, acts: list[str], ret: bool, fname: str = "f"):
    m = parse_module(text)
    f = m.get_function(fname)
    result = analyze_activity(m, f, acts, ret)
    values = {a.name: a for a in f.args}
    values.update({i.name: i for i in f.instructions() if i.name})
    return result, values


def active(result, v) -> bool:
    return not result.is_constant_value(v)


SUMSQ = """
define double @f(ptr %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p
  %sq = fmul double %v, %v
  %s.next = fadd double %s, %sq
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret double %s.next
}"""


def test_sum_of_squares():
    r, v = run(SUMSQ, ["dup", "const"], True)
    assert all(active(r, v[n]) for n in ("x", "p", "v", "sq", "s", "s.next"))
    assert not any(active(r, v[n]) for n in ("n", "i", "i.next", "done"))
    assert r.is_constant_instruction(v["i.next"]) and not r.is_constant_instruction(v["sq"])
    assert not r.is_constant_instruction(v["p"])  # the shadow pointer must be computed
    assert r.errors == []


def test_enzyme_and_julia_spellings():
    r1, v = run(SUMSQ, ["enzyme_dup", "enzyme_const"], True)
    r2, _ = run(SUMSQ, ["Duplicated", "Const"], True)
    assert r1.activities == r2.activities == ["dup", "const"]


def test_nothing_active_without_active_inputs_or_outputs():
    r, v = run(SUMSQ, ["const", "const"], True)
    assert not any(active(r, x) for x in v.values())
    r, v = run(SUMSQ, ["dup", "const"], False)
    assert not active(r, v["sq"]) and active(r, v["p"])


def test_integer_path_is_constant_downstream():
    r, v = run("""
define double @f(double %x) {
  %k = fptosi double %x to i32
  %m = mul i32 %k, 3
  %d = sitofp i32 %m to double
  %y = fmul double %d, 2.0
  %z = fadd double %y, %x
  ret double %z
}""", ["active"], True)
    assert not any(active(r, v[n]) for n in ("k", "m", "d", "y"))
    assert active(r, v["z"])


def test_value_through_memory_is_active():
    r, v = run("""
define double @f(double %x) {
  %a = alloca double
  %sq = fmul double %x, %x
  store double %sq, ptr %a
  %l = load double, ptr %a
  ret double %l
}""", ["active"], True)
    assert active(r, v["a"]) and active(r, v["l"]) and active(r, v["sq"])


def test_float_bits_through_integers_stay_active():
    r, v = run("""
define double @f(double %x) {
  %b = bitcast double %x to i64
  %n = xor i64 %b, -9223372036854775808
  %d = bitcast i64 %n to double
  ret double %d
}""", ["active"], True)
    assert active(r, v["b"]) and active(r, v["n"]) and active(r, v["d"])


def test_pointer_to_integer_memory_is_constant():
    r, v = run("""
define double @f(ptr %counts, ptr %x, i64 %i) {
  %cp = getelementptr inbounds i32, ptr %counts, i64 %i
  %c = load i32, ptr %cp
  %c1 = add i32 %c, 1
  %c2 = mul i32 %c1, 1
  store i32 %c2, ptr %cp
  %xp = getelementptr inbounds double, ptr %x, i64 %i
  %xv = load double, ptr %xp
  ret double %xv
}""", ["dup", "dup", "const"], True)
    assert not active(r, v["cp"]) and not active(r, v["c"])
    assert r.is_constant_instruction(r.function.blocks[0].instructions[4])  # the int store


def test_unknown_function_is_conservative():
    r, v = run("""
declare double @mystery(double, ptr)
define double @f(double %x, ptr %p) {
  %y = call double @mystery(double %x, ptr %p)
  ret double %y
}""", ["active", "dup"], True)
    assert active(r, v["y"]) and not r.is_constant_instruction(v["y"])


def test_unknown_function_taking_only_constants_is_constant():
    r, v = run("""
declare double @mystery(double)
define double @f(double %x, double %c) {
  %y = call double @mystery(double %c)
  %z = fmul double %x, %y
  ret double %z
}""", ["active", "const"], True)
    assert not active(r, v["y"]) and r.is_constant_instruction(v["y"])


def test_returned_pointer_memory_is_active():
    r, v = run("""
declare ptr @malloc(i64)
define ptr @f(double %x) {
  %m = call ptr @malloc(i64 8)
  store double %x, ptr %m
  ret ptr %m
}""", ["active"], True)
    assert active(r, v["m"]) and not r.is_constant_instruction(v["m"])


def test_callee_merges_but_constant_call_stays_constant():
    r, v = run("""
define internal double @sq(double %a) {
  %r = fmul double %a, %a
  ret double %r
}
define double @f(double %x, double %c) {
  %s = call double @sq(double %x)
  %t = call double @sq(double %c)
  %u = fadd double %s, %t
  ret double %u
}""", ["active", "const"], True)
    assert active(r, v["s"]) and not active(r, v["t"])
    assert r.is_constant_instruction(v["t"])


def test_callee_writing_through_pointer_is_active():
    r, v = run("""
define internal void @set(ptr %p, double %a) {
  store double %a, ptr %p
  ret void
}
define void @f(double %x, ptr %out) {
  call void @set(ptr %out, double %x)
  ret void
}""", ["active", "dup"], False)
    call = r.function.blocks[0].instructions[0]
    assert not r.is_constant_instruction(call)
    assert active(r, v["x"])


def test_const_buffer_error_names_instruction_and_fix():
    r, _ = run("""
define double @f(double %x, ptr %buf) {
  %y = fmul double %x, %x
  store double %y, ptr %buf
  %z = load double, ptr %buf
  ret double %z
}""", ["active", "const"], True)
    assert len(r.errors) == 1
    assert "`store double %y, ptr %buf` in @f" in r.errors[0]
    assert "enzyme_dup" in r.errors[0] and "shadow buffer" in r.errors[0]


def test_active_globals_are_recorded():
    r, _ = run("""
@g = global double 0.0
@h = global double 0.0
define double @f(double %x) {
  store double %x, ptr @g
  %y = load double, ptr @h
  ret double %y
}""", ["active"], True)
    assert [g.name for g in r.active_globals] == ["g"]


def test_usage_errors():
    m = parse_module(SUMSQ)
    f = m.get_function("f")
    with pytest.raises(UsageError, match="2 arguments"):
        analyze_activity(m, f, ["dup"], True)
    with pytest.raises(UsageError, match="pointer"):
        analyze_activity(m, f, ["active", "const"], True)
    with pytest.raises(UsageError, match="unknown argument activity"):
        analyze_activity(m, f, ["dupp", "const"], True)


def test_reuses_given_type_analysis():
    m = parse_module(SUMSQ)
    f = m.get_function("f")
    types = TypeAnalysis(m).analyze(f)
    r = analyze_activity(m, f, ["dup", "const"], True, types=types)
    assert r.types is types


SHADOWED_GLOBAL = """
@w = global [2 x double] zeroinitializer
define double @f(double %x) {
  %w0 = load double, ptr @w
  %y = fmul double %w0, %x
  %dead = fmul double %y, %y
  %bin = fptosi double %dead to i32
  ret double %y
}"""


def test_shadowed_globals_are_active_memory():
    """A global the caller gave a shadow (enzyme_shadow) holds active data: what is loaded from it is active."""
    m = parse_module(SHADOWED_GLOBAL)
    f = m.get_function("f")
    values = {i.name: i for i in f.instructions() if i.name}
    plain = analyze_activity(m, f, ["const"], True)
    assert plain.is_constant_value(values["w0"]) and plain.is_constant_value(values["y"])
    w = [g for g in m.global_variables if g.name == "w"]
    shadowed = analyze_activity(m, f, ["const"], True, shadowed_globals=w)
    assert not shadowed.is_constant_value(values["w0"]) and not shadowed.is_constant_value(values["y"])
    assert shadowed.is_constant_value(values["dead"])  # varied, but it reaches only an integer

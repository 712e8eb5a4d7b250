"""Requests that cannot be differentiated correctly fail with a clear message, never a wrong number."""
from __future__ import annotations

from pathlib import Path

import pytest

from enzyme.errors import DifferentiationError, UsageError
from enzyme.pipeline import CompileOptions, TransformOptions, compile_sources, transform_module

HEADER = """
extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
"""


def differentiate(tmp_path: Path, body: str, opt_level: int = 2) -> None:
    src = tmp_path / "prog.c"
    src.write_text(HEADER + body)
    module = compile_sources([src], CompileOptions(opt_level=opt_level, debug=True))
    transform_module(module, TransformOptions(postopt_level=0), name="prog.c")


@pytest.mark.parametrize("opt_level", [0, 2])
def test_active_value_stored_into_const_buffer(tmp_path: Path, opt_level: int) -> None:
    body = """
double f(double x, double *scratch) { scratch[0] = x * x; return scratch[0] * 5.0; }
double g(double x, double *s) { return __enzyme_autodiff((void *)f, x, enzyme_const, s); }
"""
    with pytest.raises(DifferentiationError, match=r"stored into memory that has no shadow.*enzyme_dup") as e:
        differentiate(tmp_path, body, opt_level)
    assert "@f" in str(e.value) and "prog.c:" in str(e.value)


def test_function_without_body_or_rule(tmp_path: Path) -> None:
    body = """
double besselish(double);
double f(double x) { return besselish(x) * 2.0; }
double g(double x) { return __enzyme_autodiff((void *)f, x); }
"""
    with pytest.raises(DifferentiationError, match=r"no derivative rule for @besselish.*mark it inactive"):
        differentiate(tmp_path, body)


def test_forward_mode_missing_function_rule(tmp_path: Path) -> None:
    body = """
double besselish(double);
double f(double x) { return besselish(x); }
double g(double x) { return __enzyme_fwddiff((void *)f, x, 1.0); }
"""
    with pytest.raises(DifferentiationError, match=r"no derivative rule for @besselish"):
        differentiate(tmp_path, body)


def test_too_few_arguments(tmp_path: Path) -> None:
    body = """
double f(double x, double y) { return x * y; }
double g(double x) { return __enzyme_autodiff((void *)f, x); }
"""
    with pytest.raises(UsageError, match=r"@f takes 2 arguments but only 1"):
        differentiate(tmp_path, body)


def test_missing_shadow(tmp_path: Path) -> None:
    body = """
double f(double *x) { return x[0]; }
double g(double *x) { return __enzyme_autodiff((void *)f, enzyme_dup, x); }
"""
    with pytest.raises(UsageError, match=r"dup but has no shadow"):
        differentiate(tmp_path, body)


def test_out_marker_on_pointer(tmp_path: Path) -> None:
    body = """
double f(double *x) { return x[0]; }
double g(double *x) { return __enzyme_autodiff((void *)f, enzyme_out, x); }
"""
    with pytest.raises(UsageError, match=r"only floating-point values can be enzyme_out"):
        differentiate(tmp_path, body)


def test_function_pointer_not_constant(tmp_path: Path) -> None:
    body = """
double f(double x) { return x * x; }
double h(double x) { return x; }
double g(double x, int k) { return __enzyme_autodiff((void *)(k ? f : h), x); }
"""
    with pytest.raises(UsageError, match=r"must be a function known at compile time"):
        differentiate(tmp_path, body, opt_level=0)


def test_out_in_forward_mode(tmp_path: Path) -> None:
    body = """
double f(double x) { return x * x; }
double g(double x) { return __enzyme_fwddiff((void *)f, enzyme_out, x); }
"""
    with pytest.raises(UsageError, match=r"enzyme_out is a reverse-mode marker"):
        differentiate(tmp_path, body)

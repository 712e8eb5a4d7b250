"""What the engine cannot differentiate yet is refused with a message naming the operation and its source line.

Each case is a construct the engine refuses today (checked by hand first); the
matching programs in tests/ad/programs/ show the nearby constructs that work
(realloc, memcpy and memmove in forward mode, for instance).  When the engine
learns one of these, move the case into a program that checks the numbers.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from enzyme.errors import DifferentiationError, UsageError
from enzyme.pipeline import CompileOptions, TransformOptions, compile_sources, transform_module

HEADER = """
#include <stdlib.h>
#include <string.h>
extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
"""


def differentiate(tmp_path: Path, body: str, opt_level: int) -> None:
    src = tmp_path / "prog.c"
    src.write_text(HEADER + body)
    module = compile_sources([src], CompileOptions(opt_level=opt_level, debug=True))
    transform_module(module, TransformOptions(postopt_level=0), name="prog.c")


def refused(tmp_path: Path, body: str, opt_level: int, pattern: str, error: type[Exception] = DifferentiationError) -> str:
    """Differentiate ``body``; it must fail with ``error`` matching ``pattern`` and citing the source line."""
    with pytest.raises(error, match=pattern) as info:
        differentiate(tmp_path, body, opt_level)
    message = str(info.value)
    assert "\n" not in message, "error messages are one line"
    assert "prog.c:" in message, f"no source location in: {message}"
    return message


LEVELS = pytest.mark.parametrize("opt_level", [0, 2])


@LEVELS
def test_realloc_of_active_memory_in_reverse(tmp_path: Path, opt_level: int) -> None:
    body = """
double f(double *x, int n) {
  double *b = malloc(sizeof(double));
  b[0] = x[0];
  b = realloc(b, n * sizeof(double));
  for (int i = 1; i < n; i++) b[i] = x[i] * b[i - 1];
  double s = b[n - 1];
  free(b);
  return s;
}
double g(double *x, double *d, int n) { return __enzyme_autodiff((void *)f, enzyme_dup, x, d, enzyme_const, n); }
"""
    message = refused(tmp_path, body, opt_level, r"realloc of memory that may hold active values is not supported in reverse mode")
    assert "@f" in message and "@realloc" in message


@LEVELS
@pytest.mark.parametrize("entry", ["__enzyme_autodiff((void *)f, enzyme_const, fn, x)",
                                   "__enzyme_fwddiff((void *)f, enzyme_const, fn, x, 1.0)"])
def test_indirect_call_with_active_argument(tmp_path: Path, opt_level: int, entry: str) -> None:
    body = f"""
double f(double (*fn)(double), double x) {{ return fn(x) * x; }}
double g(double (*fn)(double), double x) {{ return {entry}; }}
"""
    message = refused(tmp_path, body, opt_level, r"indirect calls are not supported")
    assert "@f" in message


@LEVELS
def test_active_store_into_global(tmp_path: Path, opt_level: int) -> None:
    body = """
double last;
double f(double x) { last = x; return __builtin_sin(last) * last; }
double g(double x) { return __enzyme_autodiff((void *)f, x); }
"""
    message = refused(tmp_path, body, opt_level, r"active value is stored into memory that has no shadow: global @last")
    assert "@f" in message and "enzyme_dup" in message


@LEVELS
def test_float_promoted_through_varargs(tmp_path: Path, opt_level: int) -> None:
    """C promotes float to double through "..."; like upstream Enzyme, the mismatch is an error, not a silent cast."""
    body = """
float f(float x) { return x * x; }
double g(float x) { return __enzyme_autodiff((void *)f, x); }
"""
    refused(tmp_path, body, opt_level, r"argument 1 of @f has type float but double was passed", UsageError)

"""C++ exception handlers inside a differentiated function.

Landing pads that only clean up and resume are left out of the derivative
(tests/ad/programs/cpp_std_vector.cpp checks the numbers); a handler that
catches and carries on would change the control flow, so it is refused.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from enzyme.errors import DifferentiationError
from enzyme.pipeline import CompileOptions, TransformOptions, compile_sources, transform_module

CATCHING = """
#include <stdexcept>
extern "C" { extern int enzyme_dup, enzyme_const; double __enzyme_autodiff(void *, ...);
             double __enzyme_fwddiff(void *, ...); }
__attribute__((noinline)) double risky(double x) { if (x > 100) throw std::runtime_error("big"); return x * x; }
double f(double x) {
  double r;
  try { r = risky(x); } catch (const std::exception &) { r = 0; }
  return r * x;
}
double g(double x) { return %s; }
"""


@pytest.mark.parametrize("opt_level", [0, 2])
@pytest.mark.parametrize("entry", ["__enzyme_autodiff((void *)f, x)", "__enzyme_fwddiff((void *)f, x, 1.0)"],
                         ids=["reverse", "forward"])
def test_handler_that_resumes_normal_execution_is_refused(tmp_path: Path, opt_level: int, entry: str) -> None:
    src = tmp_path / "prog.cpp"
    src.write_text(CATCHING % entry)
    module = compile_sources([src], CompileOptions(opt_level=opt_level, debug=True))
    with pytest.raises(DifferentiationError, match=r"exception handler in @_Z1fd resumes normal execution") as info:
        transform_module(module, TransformOptions(postopt_level=0), name="prog.cpp")
    assert "\n" not in str(info.value)


INVOKING = """
#include <vector>
extern "C" { extern int enzyme_dup, enzyme_const; double __enzyme_autodiff(void *, ...); }
void external_fill(double *p, int n);  // no body in the program
double f(double x) {
  std::vector<double> v(3, x);
  external_fill(v.data(), 3);  // an invoke: v is destroyed if it throws
  return v[0] * v[1];
}
double g(double x) { return __enzyme_autodiff((void *)f, x); }
"""


@pytest.mark.parametrize("opt_level", [0, 2])
def test_refusing_an_invoke_names_it_on_one_line(tmp_path: Path, opt_level: int) -> None:
    """An invoke prints its destinations on a second line; the refusal quoting it stays one line."""
    src = tmp_path / "prog.cpp"
    src.write_text(INVOKING)
    module = compile_sources([src], CompileOptions(opt_level=opt_level, debug=True))
    with pytest.raises(DifferentiationError, match=r"`invoke void @_Z13external_fillPdi\(.* to label .* unwind label "
                                                   r".*` in @_Z1fd at .*prog.cpp:7") as info:
        transform_module(module, TransformOptions(postopt_level=0), name="prog.cpp")
    assert "\n" not in str(info.value)

"""C++ exception handlers inside a differentiated function.

Landing pads that only clean up and resume are left out of the derivative
(tests/ad/programs/cpp_std_vector.cpp checks the numbers).  Handlers that catch
and carry on are differentiated along the path the primal took
(tests/ad/cxx_programs/cpp_caught_*.cpp check the numbers); in reverse mode an
exception caught outside the loop it is thrown in is refused.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from enzyme.errors import DifferentiationError
from enzyme.pipeline import CompileOptions, TransformOptions, compile_sources, transform_module

CAUGHT_OUTSIDE_LOOP = """
#include <stdexcept>
extern "C" { double __enzyme_autodiff(void *, ...); }
__attribute__((noinline)) double step(double x) { if (x > 100) throw std::runtime_error("big"); return x * 1.5; }
double f(double x) {
  try { for (int i = 0; i < 10; ++i) x = step(x); } catch (const std::exception &) { x = -x; }
  return x;
}
double g(double x) { return __enzyme_autodiff((void *)f, x); }
"""


@pytest.mark.parametrize("opt_level", [0, 2])
def test_exception_leaving_a_loop_is_refused_in_reverse_mode(tmp_path: Path, opt_level: int) -> None:
    """The loop's reverse counts its iterations from its exits; an unwind edge out of it is not one."""
    src = tmp_path / "prog.cpp"
    src.write_text(CAUGHT_OUTSIDE_LOOP)
    module = compile_sources([src], CompileOptions(opt_level=opt_level, debug=True))
    with pytest.raises(DifferentiationError, match=r"caught outside the loop it is thrown in, in @_Z1fd") as info:
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


CATCHING = """
#include <stdexcept>
extern "C" { double __enzyme_autodiff(void *, ...); double __enzyme_fwddiff(void *, ...); }
__attribute__((noinline)) double risky(double x) {
  double s = 0;
  for (int i = 0; i < 8; ++i) s += x * i;
  if (s > 100) throw std::runtime_error("big");
  return s * x;
}
double f(double x) {
  double r;
  try { r = risky(x); } catch (const std::exception &) { r = x; }
  return r * x;
}
double g(double x) { return __enzyme_autodiff((void *)f, x) + __enzyme_fwddiff((void *)f, x, 1.0); }
"""


@pytest.mark.parametrize("opt_level", [0, 2])
def test_caught_exception_keeps_its_landing_pad(tmp_path: Path, opt_level: int) -> None:
    """The augmented sweep and the tangent of f invoke risky's derivative with an unwind edge to a copy of the
    handler (with f's personality); the augmented sweep's landing pad sets the tape's top back."""
    from enzyme import llvm

    src = tmp_path / "prog.cpp"
    src.write_text(CATCHING)
    module = compile_sources([src], CompileOptions(opt_level=opt_level))
    text = llvm.to_text(transform_module(module, TransformOptions(postopt_level=0), name="prog.cpp"))
    bodies = {}
    for chunk in text.split("\ndefine ")[1:]:
        head, _, body = chunk.partition("\n")  # the define line, then the body
        name = head.split("@", 1)[1].split("(", 1)[0]
        bodies[name] = (head, body.split("\n}\n", 1)[0])
    for prefix in ("augmented_", "fwddiffe"):
        (head, body), = [v for k, v in bodies.items() if k.startswith(prefix) and "_Z1fd" in k]
        assert "personality ptr @__gxx_personality_v0" in head
        assert "landingpad" in body and "invoke " in body and "unwind label" in body
        if prefix == "augmented_":  # the saved tape top is stored back after the landing pad
            lp = body.index("landingpad")
            assert "phi i64" in body[:lp] and "store i64" in body[lp:]

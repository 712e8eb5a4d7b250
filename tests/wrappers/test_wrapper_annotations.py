"""Enzyme's source attributes through the compiler wrappers: honoured, and an unknown one is a build error."""
from __future__ import annotations

import pytest
from test_wrapper_errors import assert_one_line_error
from wrapper_env import Wrappers

# Written like upstream's test/Integration/ReverseMode/inactivefn.c, marker variables defined here.
INACTIVEFN_C = """\
#include <stdio.h>
int enzyme_dup, enzyme_const, enzyme_out, enzyme_nofree;
double __enzyme_autodiff(void *, ...);

__attribute__((enzyme_inactive))
double log1p_like_function(double a) { return 2 * a; }

double test(double a) { return log1p_like_function(a) + a * a; }

int main(void) {
  double out = __enzyme_autodiff((void *)test, enzyme_out, 2.0);
  printf("out=%.17g\\n", out);
  return out == 4.0 ? 0 : 1;
}
"""


@pytest.mark.parametrize("level", ["-O0", "-O2"])
def test_upstream_style_program(wrappers: Wrappers, level: str) -> None:
    wrappers.write("inactivefn.c", INACTIVEFN_C)
    wrappers.run("enzyme-cc", level, "-c", "inactivefn.c", "-o", "inactivefn.o")
    wrappers.run("enzyme-cc", level, "inactivefn.o", "-o", "inactivefn", "-lm")
    assert wrappers.run("./inactivefn").stdout == "out=4\n"


@pytest.mark.parametrize("tool, name, text, attribute", [
    ("enzyme-cc", "bad.c", "__attribute__((enzyme_inactiv)) double f(double x) { return x; }\n", "enzyme_inactiv"),
    ("enzyme-c++", "bad.cpp", ("struct S { [[enzyme::nofre]] static double f(double x) { return x; } };\n"
                              "double g(double x) { return S::f(x); }\n"), "enzyme::nofre"),
])
@pytest.mark.parametrize("flags", [[], ["-w"]], ids=["plain", "-w"])
def test_unknown_enzyme_attribute_fails_the_build(wrappers: Wrappers, tool: str, name: str, text: str,
                                                   attribute: str, flags: list[str]) -> None:
    wrappers.write(name, text)
    result = wrappers.run(tool, *flags, "-c", name, "-o", "bad.o", check=False)
    assert_one_line_error(result, f"{name}:1:", f"unknown attribute '{attribute}'", "enzyme_inactive")
    assert not (wrappers.cwd / "bad.o").exists()

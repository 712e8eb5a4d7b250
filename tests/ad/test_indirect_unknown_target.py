"""An indirect call whose target has no derivative (a function whose code the link does not see) stops the
program with a message at run time instead of returning a wrong number."""
from __future__ import annotations

import subprocess
from pathlib import Path

MAIN = r"""
#include <stdio.h>
double __enzyme_autodiff(void *, ...);
double outside(double x);  /* in a plain object: no bitcode, no rule */
static double inside(double x) { return x * x; }
__attribute__((noinline)) double apply(double (*g)(double), double x) { return g(x) * x; }
double f_in(double x) { return apply(inside, x); }
double f_out(double x) { return apply(outside, x); }
int main(int argc, char **argv) {
  printf("inside %.6f\n", __enzyme_autodiff((void *)f_in, 2.0));
  if (argc > 1) printf("outside %.6f\n", __enzyme_autodiff((void *)f_out, 2.0));
  return 0;
}
"""


def test_unknown_target_aborts_with_a_message(tmp_path: Path) -> None:
    (tmp_path / "main.c").write_text(MAIN)
    (tmp_path / "outside.c").write_text("double outside(double x) { return 3 * x; }\n")
    subprocess.run(["clang-22", "-c", "-O1", "outside.c", "-o", "outside.o"], cwd=tmp_path, check=True)
    built = subprocess.run(["enzyme-cc", "-O1", "main.c", "outside.o", "-o", "prog"], cwd=tmp_path,
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    ok = subprocess.run(["./prog"], cwd=tmp_path, capture_output=True, text=True)
    assert ok.returncode == 0 and "inside 12.000000" in ok.stdout, ok.stdout + ok.stderr
    bad = subprocess.run(["./prog", "outside"], cwd=tmp_path, capture_output=True, text=True)
    assert bad.returncode != 0
    assert "outside " not in bad.stdout  # no number came out
    assert "indirect call reached a function whose derivative was not generated" in bad.stdout + bad.stderr

"""Fortran allocatable arrays: assignment through flang's runtime (_FortranAAssign, differentiated through
pyenzyme's body of it) and, with -fno-realloc-lhs at -O1+, as a loop: the gradient matches finite differences."""
from __future__ import annotations

import subprocess
from pathlib import Path

from enzyme import llvm, toolchain
from enzyme.pipeline import CompileOptions, TransformOptions, compile_sources, transform_module
from enzyme.toolchain.flang import runtime_archive

MODEL = """
module model
  use iso_c_binding
  implicit none
contains
  function energy(x, n) result(e) bind(C, name="energy")
    integer(c_int), value :: n
    real(c_double), intent(in) :: x(n)
    real(c_double) :: e
    real(c_double), allocatable :: w(:)
    allocate(w(n))
    w = x * x
    w(2:n) = w(2:n) + 0.5d0 * x(1:n-1)
    e = sum(w) + dot_product(x, w) + maxval(x)
    deallocate(w)
  end function
end module
"""

MAIN = r"""
#include <math.h>
#include <stdio.h>
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double energy(const double *x, int n);
int main(void) {
  double x[4] = {0.3, -1.2, 0.8, 2.0}, dx[4] = {0, 0, 0, 0};
  int bad = 0;
  __enzyme_autodiff((void *)energy, enzyme_dup, x, dx, enzyme_const, 4);
  for (int k = 0; k < 4; k++) {
    double h = 1e-6, o = x[k];
    x[k] = o + h; double p = energy(x, 4); x[k] = o - h; double m = energy(x, 4); x[k] = o;
    double fd = (p - m) / (2 * h);
    printf("dx[%d] = %.12g (central %.12g)\n", k, dx[k], fd);
    bad |= !(fabs(fd - dx[k]) <= 1e-6 * (1 + fabs(fd)));
  }
  return bad;
}
"""


def _sources(tmp_path: Path) -> list[Path]:
    (tmp_path / "model.f90").write_text(MODEL)
    (tmp_path / "main.c").write_text(MAIN)
    return [tmp_path / "model.f90", tmp_path / "main.c"]


def test_runtime_assignment_gradient_is_right(tmp_path: Path) -> None:
    module = compile_sources(_sources(tmp_path), CompileOptions(opt_level=0))
    result = transform_module(module, TransformOptions(postopt_level=0))
    (tmp_path / "prog.bc").write_bytes(llvm.to_bitcode(result))
    obj = toolchain.compile_ir_object(tmp_path / "prog.bc", tmp_path / "prog.o", opt_level=0)
    exe = toolchain.link_executable([obj], tmp_path / "prog",
                                    libraries=[str(runtime_archive()), "-lstdc++", "-lm"])
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 0, run.stdout + run.stderr


def test_with_no_realloc_lhs_the_gradient_is_right(tmp_path: Path) -> None:
    sources = _sources(tmp_path)
    bitcode = [toolchain.compile_to_bitcode(sources[0], tmp_path / "model.bc", opt_level=2,
                                            flags=("-fno-realloc-lhs",)),
               toolchain.compile_to_bitcode(sources[1], tmp_path / "main.bc", opt_level=2)]
    module = compile_sources(bitcode, CompileOptions(opt_level=2))
    result = transform_module(module, TransformOptions(postopt_level=2))
    (tmp_path / "prog.bc").write_bytes(llvm.to_bitcode(result))
    obj = toolchain.compile_ir_object(tmp_path / "prog.bc", tmp_path / "prog.o", opt_level=2)
    exe = toolchain.link_executable([obj], tmp_path / "prog", libraries=["-lm"])
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 0, run.stdout + run.stderr

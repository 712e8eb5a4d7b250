"""The link step reads inputs as a linker does: whole archives, mixed archives, assembler, -x, LTO bitcode."""
from __future__ import annotations

import ctypes

import pytest
from wrapper_env import Wrappers

SQUARES_C = """\
double squares(const double *x, int n) {
    double s = 0;
    for (int i = 0; i < n; i++) s += x[i] * x[i] * x[i];
    return s;
}
"""
GRADIENT_C = """\
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double squares(const double *x, int n);
void squares_gradient(const double *x, double *dx, int n) {
    for (int i = 0; i < n; i++) dx[i] = 0;
    __enzyme_autodiff((void *)squares, enzyme_dup, x, dx, enzyme_const, n);
}
"""
MAIN_C = """\
#include <stdio.h>
void squares_gradient(const double *x, double *dx, int n);
int label(void);
int main(void) {
    double x[3] = {1, 2, -3}, dx[3];
    squares_gradient(x, dx, 3);
    printf("%d %g %g %g\\n", label(), dx[0], dx[1], dx[2]);
    return !(dx[0] == 3 && dx[1] == 12 && dx[2] == 27);
}
"""


def test_shared_library_from_a_whole_archive(wrappers: Wrappers) -> None:
    w = wrappers
    w.write("squares.c", SQUARES_C)
    w.write("gradient.c", GRADIENT_C)
    w.run("enzyme-cc", "-O2", "-fPIC", "-c", "squares.c", "gradient.c")
    w.run("ar", "rcs", "libsq.a", "squares.o", "gradient.o")
    w.run("enzyme-cc", "-O2", "-shared", "-Wl,--whole-archive", "libsq.a", "-Wl,--no-whole-archive",
          "-o", "libsq.so")
    lib = ctypes.CDLL(str(w.cwd / "libsq.so"))
    x = (ctypes.c_double * 2)(2.0, -1.0)
    dx = (ctypes.c_double * 2)()
    lib.squares_gradient(x, dx, 2)
    assert list(dx) == [12.0, 3.0]


def test_archive_with_foreign_and_bitcode_members(wrappers: Wrappers) -> None:
    # label.o comes from plain clang (no bitcode): the real linker takes it from the archive.
    w = wrappers
    w.write("squares.c", SQUARES_C)
    w.write("gradient.c", GRADIENT_C)
    w.write("label.c", "int label(void) { return 42; }\n")
    w.write("main.c", MAIN_C)
    w.run("clang-22", "-O2", "-c", "label.c")
    w.run("enzyme-cc", "-O2", "-c", "squares.c", "gradient.c", "main.c")
    w.run("ar", "rcs", "libmixed.a", "label.o", "gradient.o", "squares.o")
    w.run("enzyme-cc", "-O2", "main.o", "libmixed.a", "-o", "prog")
    assert w.run(w.cwd / "prog").stdout.startswith("42 3 12 27")


def test_lto_bitcode_object_and_assembler_source(wrappers: Wrappers) -> None:
    w = wrappers
    w.write("squares.c", SQUARES_C)
    w.write("gradient.c", GRADIENT_C)
    w.write("main.c", MAIN_C)
    w.write("label.S", ".globl label\nlabel:\n    movl $7, %eax\n    ret\n")
    # A clang -flto object is plain bitcode: the link step takes it as bitcode.
    w.run("clang-22", "-O1", "-flto", "-c", "squares.c", "-o", "squares.o")
    w.run("enzyme-cc", "-O2", "main.c", "gradient.c", "squares.o", "label.S", "-o", "prog")
    assert w.run(w.cwd / "prog").stdout.startswith("7 3 12 27")


def test_language_given_with_x(wrappers: Wrappers) -> None:
    w = wrappers
    w.write("squares.inc", SQUARES_C)
    w.write("gradient.c", GRADIENT_C)
    w.write("main.c", MAIN_C.replace("int label(void);", "static int label(void) { return 1; }"))
    w.run("enzyme-cc", "-O2", "-c", "-x", "c", "squares.inc", "-o", "squares.o", "-x", "none")
    w.run("enzyme-cc", "-O2", "squares.o", "gradient.c", "main.c", "-o", "prog")
    assert w.run(w.cwd / "prog").stdout.startswith("1 3 12 27")


@pytest.mark.parametrize("flags", [["-MD"], ["-MMD", "-MT", "custom.o"]])
def test_fortran_dependency_file(wrappers: Wrappers, flags: list[str]) -> None:
    # flang-22 has no -MD; the wrapper writes the one dependency it knows.
    w = wrappers
    w.write("sub.f90", "subroutine twice(x) bind(C, name=\"twice\")\n  real(8) :: x\n  x = 2 * x\nend subroutine\n")
    w.run("enzyme-flang", *flags, "-c", "sub.f90", "-o", "sub.o")
    target = flags[-1] if "-MT" in flags else "sub.o"
    assert (w.cwd / "sub.d").read_text() == f"{target}: sub.f90\n"

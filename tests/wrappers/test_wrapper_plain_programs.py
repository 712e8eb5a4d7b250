"""Programs without ``__enzyme_*`` calls build and behave exactly as with clang/flang.

Multi-file builds with -c then link, static archives, shared libraries, a
Makefile project with CC=enzyme-cc, dependency files.
"""
from __future__ import annotations

import ctypes

import pytest
from wrapper_env import Wrappers

STATS_C = """\
#include <math.h>
#include <stdlib.h>
#include "stats.h"
static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
double median(double *v, int n) {
    qsort(v, n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
double rms(const double *v, int n) {
    double s = 0;
    for (int i = 0; i < n; i++) s += v[i] * v[i];
    return sqrt(s / n);
}
"""
STATS_H = "double median(double *v, int n);\ndouble rms(const double *v, int n);\n"
MAIN_C = """\
#include <stdio.h>
#include <string.h>
#include "stats.h"
struct counter { const char *name; int hits; };
static struct counter counters[] = {{"alpha", 0}, {"beta", 0}};
int main(int argc, char **argv) {
    double v[7];
    for (int i = 0; i < 7; i++) v[i] = (i * 37 % 11) / 3.0 - 1.0;
    printf("rms=%.17g median=%.17g argc=%d\\n", rms(v, 7), median(v, 7), argc);
    for (int i = 1; i < argc; i++)
        for (unsigned k = 0; k < sizeof counters / sizeof *counters; k++)
            if (strcmp(argv[i], counters[k].name) == 0) counters[k].hits++;
    for (unsigned k = 0; k < sizeof counters / sizeof *counters; k++)
        printf("%s %d\\n", counters[k].name, counters[k].hits);
    return 3;
}
"""


@pytest.fixture
def stats(wrappers: Wrappers) -> Wrappers:
    wrappers.write("stats.c", STATS_C)
    wrappers.write("stats.h", STATS_H)
    wrappers.write("main.c", MAIN_C)
    return wrappers


def _behaviour(w: Wrappers, program: str) -> tuple[int, str, str]:
    result = w.run(w.cwd / program, "beta", "alpha", "beta", check=False)
    return result.returncode, result.stdout, result.stderr


@pytest.mark.parametrize("level", ["-O0", "-O2", "-Os"])
def test_separate_compilation_matches_clang(stats: Wrappers, level: str) -> None:
    w = stats
    w.run("clang-22", level, "main.c", "stats.c", "-lm", "-o", "reference")
    w.run("enzyme-cc", level, "-Wall", "-c", "main.c", "-o", "main.o")
    w.run("enzyme-cc", level, "-Wall", "-c", "stats.c", "-o", "stats.o")
    w.run("enzyme-cc", level, "main.o", "stats.o", "-lm", "-o", "prog")
    assert _behaviour(w, "prog") == _behaviour(w, "reference")
    assert _behaviour(w, "prog")[0] == 3


def test_static_archive_matches_clang(stats: Wrappers) -> None:
    w = stats
    w.run("clang-22", "-O2", "main.c", "stats.c", "-lm", "-o", "reference")
    w.run("enzyme-cc", "-O2", "-c", "stats.c", "main.c")
    w.run("ar", "rcs", "libstats.a", "stats.o")
    w.run("enzyme-cc", "main.o", "-L.", "-lstats", "-lm", "-o", "prog")
    assert _behaviour(w, "prog") == _behaviour(w, "reference")


def test_shared_library_matches_clang(stats: Wrappers) -> None:
    w = stats
    w.run("enzyme-cc", "-O2", "-fPIC", "-c", "stats.c", "-o", "stats.o")
    w.run("enzyme-cc", "-shared", "stats.o", "-o", "libstats.so", "-lm")
    w.run("enzyme-cc", "-O2", "main.c", "-L.", "-lstats", "-Wl,-rpath,$ORIGIN", "-o", "prog")
    w.run("clang-22", "-O2", "main.c", "stats.c", "-lm", "-o", "reference")
    assert _behaviour(w, "prog") == _behaviour(w, "reference")
    lib = ctypes.CDLL(str(w.cwd / "libstats.so"))
    lib.rms.restype = ctypes.c_double
    values = (ctypes.c_double * 2)(3.0, 4.0)
    assert lib.rms(values, 2) == pytest.approx((12.5) ** 0.5)


CXX_PROGRAM = """\
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>
struct Shape { virtual ~Shape() = default; virtual double area() const = 0; };
struct Square : Shape { double s; explicit Square(double s) : s(s) {} double area() const override { return s * s; } };
struct Disc : Shape { double r; explicit Disc(double r) : r(r) {} double area() const override { return 3.0 * r * r; } };
static std::map<std::string, int> registry = {{"square", 1}, {"disc", 2}};
template <typename T> T checked_div(T a, T b) { if (b == T(0)) throw std::domain_error("division by zero"); return a / b; }
int main() {
    std::vector<std::unique_ptr<Shape>> shapes;
    shapes.push_back(std::make_unique<Square>(2.0));
    shapes.push_back(std::make_unique<Disc>(1.5));
    double total = 0;
    for (const auto &shape : shapes) total += shape->area();
    std::cout << "total " << total << " kinds " << registry.size() << "\\n";
    try { checked_div(1, 0); } catch (const std::exception &e) { std::cout << "caught " << e.what() << "\\n"; }
    return checked_div(7, 2);
}
"""


def test_cxx_program_matches_clangxx(wrappers: Wrappers) -> None:
    w = wrappers
    w.write("shapes.cpp", CXX_PROGRAM)
    w.run("clang++-22", "-O2", "-std=c++17", "shapes.cpp", "-o", "reference")
    w.run("enzyme-c++", "-O2", "-std=c++17", "-c", "shapes.cpp", "-o", "shapes.o")
    w.run("enzyme-c++", "-O2", "shapes.o", "-o", "prog")
    assert _behaviour(w, "prog") == _behaviour(w, "reference")
    assert "caught division by zero" in _behaviour(w, "prog")[1]


FORTRAN_MODULE = """\
module geometry
  implicit none
contains
  pure function norm2_of(v) result(r)
    real(8), intent(in) :: v(:)
    real(8) :: r
    r = sqrt(sum(v * v))
  end function
end module
"""
FORTRAN_PROGRAM = """\
program main
  use geometry
  implicit none
  real(8), allocatable :: v(:)
  integer :: i
  allocate(v(5))
  v = [(real(i, 8) / 2, i = 1, 5)]
  print '(A, F12.8)', 'norm ', norm2_of(v)
  deallocate(v)
end program
"""


def test_fortran_program_with_module_matches_flang(wrappers: Wrappers) -> None:
    w = wrappers
    w.write("geometry.f90", FORTRAN_MODULE)
    w.write("main.f90", FORTRAN_PROGRAM)
    (w.cwd / "ref").mkdir()
    w.run("flang-22", "-O2", "-J", "ref", "geometry.f90", "main.f90", "-o", "reference")
    w.run("enzyme-flang", "-O2", "-c", "geometry.f90")  # geometry.mod lands here, as with flang
    assert (w.cwd / "geometry.mod").is_file()
    w.run("enzyme-flang", "-O2", "-c", "main.f90")
    w.run("enzyme-flang", "-O2", "geometry.o", "main.o", "-o", "prog")
    assert _behaviour(w, "prog") == _behaviour(w, "reference")


MAKEFILE = """\
CC = enzyme-cc
CFLAGS = -O2 -Wall -MMD -MP
LDLIBS = -lm
OBJS = main.o stats.o

prog: $(OBJS) libstats.a
\t$(CC) $(CFLAGS) main.o -L. -lstats $(LDLIBS) -o $@

libstats.a: stats.o
\t$(AR) rcs $@ $^

-include $(OBJS:.o=.d)
"""


def test_makefile_project(stats: Wrappers) -> None:
    w = stats
    w.write("Makefile", MAKEFILE)
    w.run("make", "--no-print-directory")
    w.run("clang-22", "-O2", "main.c", "stats.c", "-lm", "-o", "reference")
    assert _behaviour(w, "prog") == _behaviour(w, "reference")
    depends = (w.cwd / "main.d").read_text()
    assert depends.startswith("main.o:") and "stats.h" in depends
    # Nothing to do the second time; touching the header rebuilds both objects.
    assert "enzyme-cc" not in w.run("make", "--no-print-directory").stdout
    (w.cwd / "stats.h").write_text(STATS_H + "/* touched */\n")
    rebuilt = w.run("make", "--no-print-directory").stdout
    assert "main.c" in rebuilt and "stats.c" in rebuilt


def test_dependency_file_names_the_object(stats: Wrappers) -> None:
    w = stats
    (w.cwd / "build").mkdir()
    w.run("enzyme-cc", "-MD", "-c", "main.c", "-o", "build/main.o")
    assert (w.cwd / "build" / "main.d").read_text().startswith("build/main.o:")
    w.run("enzyme-cc", "-MD", "-MF", "deps.txt", "-MT", "custom", "-c", "stats.c", "-o", "build/stats.o")
    assert (w.cwd / "deps.txt").read_text().startswith("custom:")


def test_delegated_commands(stats: Wrappers) -> None:
    w = stats
    assert "clang version 22" in w.run("enzyme-cc", "--version").stdout
    assert "flang version 22" in w.run("enzyme-flang", "--version").stdout
    assert "int answer = 42;" in w.run("enzyme-cc", "-E", "-DANSWER=42", "-x", "c", "-",
                                       stdin="int answer = ANSWER;\n").stdout
    w.write("p.c", "int answer = ANSWER;\n")
    assert "int answer = 42;" in w.run("enzyme-cc", "-E", "-DANSWER=42", "p.c").stdout
    w.run("enzyme-cc", "-S", "-O2", "stats.c", "-o", "stats.s")
    assert "rms" in (w.cwd / "stats.s").read_text()
    assert "stats.h" in w.run("enzyme-cc", "-MM", "stats.c").stdout

"""Gradients through the compiler wrappers: -c per file, then link; archives; C++, Fortran, shared libraries.

Every program checks its derivatives against the analytic values itself and
exits with 0 only if they agree.
"""
from __future__ import annotations

import ctypes
import shutil

import numpy as np
import pytest
from wrapper_env import ENZYME_INCLUDE, Wrappers

# f(x) = sum x_i^2 + sin(x_i), differentiated from another translation unit.
F_C = """\
#include <math.h>
double f(const double *x, int n) {
    double s = 0;
    for (int i = 0; i < n; i++) s += x[i] * x[i] + sin(x[i]);
    return s;
}
"""
MAIN_C = """\
#include <math.h>
#include <stdio.h>
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double f(const double *x, int n);
int main(void) {
    double x[4] = {0.5, -1.0, 2.0, 3.5}, dx[4] = {0};
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 4);
    int bad = 0;
    for (int i = 0; i < 4; i++) {
        double want = 2 * x[i] + cos(x[i]);
        printf("dx[%d] = %.17g (want %.17g)\\n", i, dx[i], want);
        if (fabs(dx[i] - want) > 1e-12 * (1 + fabs(want))) bad = 1;
    }
    return bad;
}
"""


@pytest.fixture
def two_files(wrappers: Wrappers) -> Wrappers:
    wrappers.write("f.c", F_C)
    wrappers.write("main.c", MAIN_C)
    return wrappers


@pytest.mark.parametrize("level", ["-O0", "-O2", "-O3"])
def test_two_files_compiled_separately(two_files: Wrappers, level: str) -> None:
    w = two_files
    w.run("enzyme-cc", level, "-c", "main.c", "-o", "main.o")
    w.run("enzyme-cc", level, "-c", "f.c")  # no -o: f.o, as with clang
    w.run("enzyme-cc", level, "main.o", "f.o", "-o", "prog", "-lm")
    result = w.run(w.cwd / "prog")
    assert result.stdout.count("dx[") == 4


def test_objects_are_real_objects_with_bitcode(two_files: Wrappers) -> None:
    w = two_files
    w.run("enzyme-cc", "-O2", "-c", "f.c", "-o", "f.o")
    data = (w.cwd / "f.o").read_bytes()
    assert data[:4] == b"\x7fELF"
    from enzyme.wrappers.objects import read_object

    obj = read_object("f.o", data)
    assert obj is not None and obj.bitcode is not None and obj.bitcode[:2] == b"BC"
    assert "f" in obj.defined and "sin" in obj.undefined
    # A plain link of such objects works for code without requests (the bitcode section is excluded).
    w.write("use_f.c", "#include <stdio.h>\ndouble f(const double*, int);\n"
            "int main(void) { double x[2] = {1, 2}; printf(\"%.6f\\n\", f(x, 2)); return 0; }\n")
    w.run("clang-22", "use_f.c", "f.o", "-lm", "-o", "plain")
    assert w.run(w.cwd / "plain").stdout.strip() == f"{1 + 4 + np.sin(1) + np.sin(2):.6f}"


def test_static_archive(two_files: Wrappers) -> None:
    w = two_files
    w.run("enzyme-cc", "-O2", "-c", "main.c", "f.c")
    w.run("ar", "rcs", "libf.a", "f.o")
    w.run("enzyme-cc", "-O2", "main.o", "libf.a", "-o", "prog_archive", "-lm")
    w.run(w.cwd / "prog_archive")
    w.run("enzyme-cc", "-O2", "main.o", "-L.", "-lf", "-lm", "-o", "prog_lib")
    w.run(w.cwd / "prog_lib")


def test_archive_members_are_taken_like_a_linker_does(two_files: Wrappers) -> None:
    # unused.o defines main too and needs a symbol nobody provides: a linker never takes it.
    w = two_files
    w.write("unused.c", "int missing_everywhere(void);\nint main(void) { return missing_everywhere(); }\n")
    w.run("enzyme-cc", "-O1", "-c", "main.c", "f.c", "unused.c")
    w.run("llvm-ar-22", "rcs", "libmix.a", "unused.o", "f.o")
    w.run("enzyme-cc", "-O1", "main.o", "libmix.a", "-o", "prog", "-lm")
    w.run(w.cwd / "prog")


def test_sources_on_the_link_line(two_files: Wrappers) -> None:
    w = two_files
    w.run("enzyme-cc", "-O2", "main.c", "f.c", "-o", "prog", "-lm")
    w.run(w.cwd / "prog")


def test_forward_mode_across_files(wrappers: Wrappers) -> None:
    w = wrappers
    w.write("g.c", "double g(double x, double y) { return x * x * y + y; }\n")
    w.write("main.c", """\
#include <math.h>
double __enzyme_fwddiff(void *, ...);
double g(double x, double y);
int main(void) {
    double x = 1.5, y = -2.0;
    double dgdx = __enzyme_fwddiff((void *)g, x, 1.0, y, 0.0);
    double dgdy = __enzyme_fwddiff((void *)g, x, 0.0, y, 1.0);
    return !(fabs(dgdx - 2 * x * y) < 1e-14 && fabs(dgdy - (x * x + 1)) < 1e-14);
}
""")
    w.run("enzyme-cc", "-O2", "-c", "g.c", "main.c")
    w.run("enzyme-cc", "-O2", "g.o", "main.o", "-o", "prog")
    w.run(w.cwd / "prog")


CXX_PROGRAM = """\
#include <cmath>
#include <cstdio>
#include <enzyme/enzyme.h>

template <typename T> class Spring {
  public:
    Spring(T k, T rest) : k_(k), rest_(rest) {}
    T energy(T x) const { T d = x - rest_; return T(0.5) * k_ * d * d + std::sin(x); }
  private:
    T k_, rest_;
};

template <typename T> T total_energy(const T *x, int n) {
    Spring<T> spring(T(3), T(1));
    T sum = 0;
    for (int i = 0; i < n; ++i) sum += spring.energy(x[i]);
    return sum;
}

extern "C" double total_energy_d(const double *x, int n) { return total_energy<double>(x, n); }

int main() {
    double x[4] = {0.25, 1.5, -2.0, 4.0}, dx[4] = {0};
    __enzyme_autodiff((void *)total_energy_d, enzyme_dup, x, dx, enzyme_const, 4);
    int bad = 0;
    for (size_t i = 0; i < 4; ++i) {
        double want = 3 * (x[i] - 1) + std::cos(x[i]);
        std::printf("%zu %.17g %.17g\\n", i, dx[i], want);
        if (std::fabs(dx[i] - want) > 1e-12) bad = 1;
    }
    return bad;
}
"""


@pytest.mark.parametrize("level", ["-O0", "-O2"])
def test_cxx_class_and_template(wrappers: Wrappers, level: str) -> None:
    w = wrappers
    w.write("spring.cpp", CXX_PROGRAM)
    w.run("enzyme-c++", level, f"-I{ENZYME_INCLUDE}", "-std=c++17", "-c", "spring.cpp", "-o", "spring.o")
    w.run("enzyme-c++", level, "spring.o", "-o", "spring")
    assert w.run(w.cwd / "spring").stdout.count("\n") == 4


# A request made where an exception may unwind (here: past the vectors' destructors) is an
# `invoke`, which the AD driver does not handle yet: it replaces the invoke by a call and
# leaves its block without a terminator.
INVOKE_REQUEST_CPP = """\
#include <vector>
extern "C" { extern int enzyme_dup, enzyme_const; double __enzyme_autodiff(void *, ...); }
extern "C" double sq(const double *x, int n) { double s = 0; for (int i = 0; i < n; ++i) s += x[i] * x[i]; return s; }
int main() {
    std::vector<double> x(2, 1.0), dx(2, 0.0);
    __enzyme_autodiff((void *)sq, enzyme_dup, x.data(), dx.data(), enzyme_const, 2);
    return dx[0] == 2 ? 0 : 1;
}
"""


def test_cxx_request_as_invoke(wrappers: Wrappers) -> None:
    wrappers.write("invoke.cpp", INVOKE_REQUEST_CPP)
    wrappers.run("enzyme-c++", "-O2", "invoke.cpp", "-o", "invoke")
    wrappers.run(wrappers.cwd / "invoke")


FORTRAN_SUBROUTINE = """\
subroutine weighted_sumsq(x, w, n, res) bind(C, name="weighted_sumsq")
  use iso_c_binding
  implicit none
  integer(c_int), value :: n
  real(c_double), intent(in) :: x(n), w(n)
  real(c_double), intent(out) :: res
  integer :: i
  res = 0.0d0
  do i = 1, n
    res = res + w(i) * x(i)**2 + sin(x(i))
  end do
end subroutine
"""
FORTRAN_MAIN_C = """\
#include <math.h>
#include <stdio.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
void weighted_sumsq(const double *x, const double *w, int n, double *res);
int main(void) {
    double x[3] = {1.0, -2.0, 0.5}, w[3] = {2.0, 3.0, 4.0}, dx[3] = {0}, res = 0, dres = 1;
    __enzyme_autodiff((void *)weighted_sumsq, enzyme_dup, x, dx, enzyme_const, w, enzyme_const, 3,
                      enzyme_dup, &res, &dres);
    int bad = 0;
    for (int i = 0; i < 3; i++) {
        double want = 2 * w[i] * x[i] + cos(x[i]);
        printf("%.17g %.17g\\n", dx[i], want);
        if (fabs(dx[i] - want) > 1e-12) bad = 1;
    }
    return bad;
}
"""


@pytest.mark.parametrize("linker", ["enzyme-cc", "enzyme-flang"])
def test_fortran_subroutine_called_from_c(wrappers: Wrappers, linker: str) -> None:
    w = wrappers
    w.write("sumsq.f90", FORTRAN_SUBROUTINE)
    w.write("main.c", FORTRAN_MAIN_C)
    w.run("enzyme-flang", "-O2", "-c", "sumsq.f90", "-o", "sumsq.o")
    w.run("enzyme-cc", "-O2", "-c", "main.c", "-o", "main.o")
    w.run(linker, "-O2", "main.o", "sumsq.o", "-o", "prog")
    assert w.run(w.cwd / "prog").stdout.count("\n") == 3


def test_fortran_needing_its_runtime_linked_by_enzyme_cc(wrappers: Wrappers) -> None:
    # The Fortran code prints, so it calls flang's runtime: enzyme-cc adds the runtime by itself.
    w = wrappers
    w.write("talk.f90", "subroutine talk(x) bind(C, name=\"talk\")\n  use iso_c_binding\n"
            "  real(c_double), value :: x\n  print '(F6.2)', x\nend subroutine\n")
    w.write("main.c", "void talk(double);\nint main(void) { talk(2.5); return 0; }\n")
    w.run("enzyme-flang", "-c", "talk.f90")
    w.run("enzyme-cc", "-c", "main.c")
    w.run("enzyme-cc", "main.o", "talk.o", "-o", "prog")
    assert w.run(w.cwd / "prog").stdout.strip() == "2.50"


SHARED_C = """\
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

static double rosenbrock(const double *x, int n) {
    double s = 0;
    for (int i = 0; i + 1 < n; i++) {
        double a = 1 - x[i], b = x[i + 1] - x[i] * x[i];
        s += a * a + 100 * b * b;
    }
    return s;
}

double rosenbrock_value(const double *x, int n) { return rosenbrock(x, n); }

void rosenbrock_gradient(const double *x, double *gradient, int n) {
    for (int i = 0; i < n; i++) gradient[i] = 0;
    __enzyme_autodiff((void *)rosenbrock, enzyme_dup, x, gradient, enzyme_const, n);
}
"""


def _rosenbrock_gradient(x: np.ndarray) -> np.ndarray:
    g = np.zeros_like(x)
    g[:-1] += -2 * (1 - x[:-1]) - 400 * x[:-1] * (x[1:] - x[:-1] ** 2)
    g[1:] += 200 * (x[1:] - x[:-1] ** 2)
    return g


def test_shared_library_loaded_with_ctypes(wrappers: Wrappers) -> None:
    w = wrappers
    w.write("rosen.c", SHARED_C)
    w.run("enzyme-cc", "-O2", "-fPIC", "-c", "rosen.c", "-o", "rosen.o")
    w.run("enzyme-cc", "-O2", "-shared", "rosen.o", "-o", "librosen.so")
    lib = ctypes.CDLL(str(w.cwd / "librosen.so"))
    pointer = ctypes.POINTER(ctypes.c_double)
    lib.rosenbrock_gradient.argtypes = [pointer, pointer, ctypes.c_int]
    lib.rosenbrock_value.argtypes = [pointer, ctypes.c_int]
    lib.rosenbrock_value.restype = ctypes.c_double
    x = np.array([0.3, -1.2, 2.0, 0.7])
    gradient = np.zeros_like(x)
    lib.rosenbrock_gradient(x.ctypes.data_as(pointer), gradient.ctypes.data_as(pointer), len(x))
    np.testing.assert_allclose(gradient, _rosenbrock_gradient(x), rtol=1e-13)
    assert lib.rosenbrock_value(x.ctypes.data_as(pointer), len(x)) == pytest.approx(
        float(np.sum((1 - x[:-1]) ** 2 + 100 * (x[1:] - x[:-1] ** 2) ** 2)), rel=1e-14)


CMAKE_PROJECT = """\
cmake_minimum_required(VERSION 3.20)
project(gradient_demo C)
add_library(f STATIC f.c)
add_executable(prog main.c)
target_link_libraries(prog PRIVATE f m)
"""


def test_cmake_project_with_cc_set_to_the_wrapper(two_files: Wrappers) -> None:
    # CMake's compiler checks (identification, ABI, a test link) pass through the wrapper.
    w = two_files
    w.write("CMakeLists.txt", CMAKE_PROJECT)
    w.env["CC"] = str(w.bin_dir / "enzyme-cc")
    w.run("cmake", "-S", ".", "-B", "build", "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release")
    assert 'CMAKE_C_COMPILER_ID "Clang"' in "".join(
        path.read_text() for path in (w.cwd / "build" / "CMakeFiles").glob("*/CMakeCCompiler.cmake"))
    w.run("cmake", "--build", "build")
    w.run(w.cwd / "build" / "prog")


def test_installed_console_scripts(wrappers: Wrappers) -> None:
    # ci/setup.sh installs pyenzyme (editable): the console scripts are on PATH.
    for script, banner in (("enzyme-cc", "clang version 22"), ("enzyme-c++", "clang version 22"),
                           ("enzyme-flang", "flang version 22")):
        found = shutil.which(script)
        assert found, f"{script} is not on PATH; run `pip install -e .` (ci/setup.sh does)"
        assert banner in wrappers.run(found, "--version").stdout


# The same sum as a parallel loop with a reduction: -fopenmp when compiling and when linking (libomp).
F_OPENMP_C = """\
#include <math.h>
double f(const double *x, int n) {
    double s = 0;
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < n; i++) s += x[i] * x[i] + sin(x[i]);
    return s;
}
"""


def test_openmp_compiled_separately(wrappers: Wrappers) -> None:
    w = wrappers
    w.write("f.c", F_OPENMP_C)
    w.write("main.c", MAIN_C)
    w.run("enzyme-cc", "-O2", "-fopenmp", "-c", "main.c", "-o", "main.o")
    w.run("enzyme-cc", "-O2", "-fopenmp", "-c", "f.c")
    w.run("enzyme-cc", "-fopenmp", "main.o", "f.o", "-o", "prog", "-lm")
    for threads in ("1", "2"):
        w.env["OMP_NUM_THREADS"] = threads
        assert w.run(w.cwd / "prog").stdout.count("dx[") == 4

"""OpenMP programs (tests/ad/openmp/) differentiated in forward and reverse mode, run on 1 and 2 threads.

Each program checks its derivatives against central differences of its own primal and prints ALL OK;
the same executable runs with OMP_NUM_THREADS=1 and 2 (the derivative forks as the primal does).
Constructs reverse mode cannot differentiate are refused with a message naming the call and its line.
"""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from enzyme import llvm, toolchain
from enzyme.errors import DifferentiationError
from enzyme.pipeline import CompileOptions, TransformOptions, compile_sources, transform_module

PROGRAMS = Path(__file__).parent / "openmp"
OPENMP = ("-fopenmp",)

# Every program at -O0 and -O2, the stencil at -O3 too: a build is the expensive part (3-10 s).
CASES = [(name, level) for name in ("stencil", "reductions", "libm_loop", "helper_calls", "dynamic_schedule",
                                    "clauses", "fortran_stencil", "vector_loss", "struct_params")
         for level in (0, 2)] + [("stencil", 3), ("struct_params_cpp", 0)]


def _transformed(source: Path | str, opt_level: int, tmp_path: Path, extra: tuple[str, ...] = ()) -> llvm.ModuleRef:
    if isinstance(source, str):
        path = tmp_path / "kernel.c"
        path.write_text(source)
        source = path
    module = compile_sources([source], CompileOptions(opt_level=opt_level, include_dirs=(PROGRAMS,),
                                                      flags=OPENMP + extra))
    return transform_module(module, TransformOptions(postopt_level=opt_level), name=source.name)


def _build(name: str, opt_level: int, tmp_path: Path) -> Path:
    fortran, cxx = PROGRAMS / f"{name}.f90", PROGRAMS / f"{name}.cpp"
    # A Fortran program: its kernel in .f90, its driver in _main.c.
    sources = [fortran, PROGRAMS / f"{name}_main.c"] if fortran.exists() else [cxx] if cxx.exists() else \
        [PROGRAMS / f"{name}.c"]
    module = compile_sources(sources, CompileOptions(opt_level=opt_level, include_dirs=(PROGRAMS,), flags=OPENMP))
    result = transform_module(module, TransformOptions(postopt_level=opt_level), name=name)
    bitcode = tmp_path / "prog.bc"
    bitcode.write_bytes(llvm.to_bitcode(result))
    obj = toolchain.compile_ir_object(bitcode, tmp_path / "prog.o", opt_level=opt_level)
    languages = ["fortran", "c"] if fortran.exists() else ["cxx"] if cxx.exists() else ["c"]
    return toolchain.link_executable([obj], tmp_path / "prog", libraries=[*toolchain.link_libraries(languages),
                                                                          *OPENMP])


@pytest.mark.parametrize(("program", "opt_level"), CASES)
def test_openmp_program(program: str, opt_level: int, tmp_path: Path) -> None:
    exe = _build(program, opt_level, tmp_path)
    for threads in (1, 2):
        env = {**os.environ, "OMP_NUM_THREADS": str(threads)}
        run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120, env=env, check=False)
        mismatches = "\n".join(run.stdout.splitlines()[:20])
        assert run.returncode == 0 and "ALL OK" in run.stdout, \
            f"{program} at -O{opt_level} on {threads} threads:\n{mismatches}\n{run.stderr}"


_DYNAMIC_REVERSE = """\
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
void square(const double *x, double *y, int n) {
#pragma omp parallel for schedule(dynamic, 4)
  for (int i = 0; i < n; i++) y[i] = x[i] * x[i];
}
void grad(double *x, double *dx, double *y, double *dy, int n) {
  __enzyme_autodiff((void *)square, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n);
}
"""

_TASKS = """\
extern int enzyme_dup, enzyme_const;
double __enzyme_fwddiff(void *, ...);
void square(const double *x, double *y, int n) {
#pragma omp parallel
  {
#pragma omp task
    y[0] = x[0] * x[0];
  }
}
void tangent(double *x, double *dx, double *y, double *dy, int n) {
  __enzyme_fwddiff((void *)square, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n);
}
"""


_MAX_REDUCTION = """\
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double peak(const double *x, int n) {
  double m = -1e300;
#pragma omp parallel for reduction(max : m)
  for (int i = 0; i < n; i++) m = m > x[i] * x[i] ? m : x[i] * x[i];
  return m;
}
void grad(double *x, double *dx, int n) { __enzyme_autodiff((void *)peak, enzyme_dup, x, dx, enzyme_const, n); }
"""


_SCALING_CRITICAL = """\
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double grow(const double *x, int n) {
  double s = 1;
#pragma omp parallel
  {
    double local = 0;
#pragma omp for
    for (int i = 0; i < n; i++) local += x[i];
#pragma omp critical
    s = s + 0.5 * s * local;
  }
  return s;
}
void grad(double *x, double *dx, int n) { __enzyme_autodiff((void *)grow, enzyme_dup, x, dx, enzyme_const, n); }
"""


@pytest.mark.parametrize(("source", "expected"), [
    (_DYNAMIC_REVERSE, r"kernel\.c:5:.*OpenMP schedule\(dynamic\).*\(@__kmpc_dispatch_init_4\) is not differentiated "
                       r"in reverse mode"),
    (_TASKS, r"kernel\.c:6:.*OpenMP a task \(@__kmpc_omp_task_alloc\) is not differentiated"),
    (_MAX_REDUCTION, r"kernel\.c:\d+:.*OpenMP critical section \(or reduction other than \+\) stores a value that is "
                     r"not a sum"),
    (_SCALING_CRITICAL, r"kernel\.c:11:.*OpenMP critical section \(or reduction other than \+\) stores a value "
                        r"that is not a sum"),
], ids=["dynamic schedule in reverse mode", "task", "max reduction in reverse mode", "scaling critical section"])
def test_openmp_refusals(source: str, expected: str, tmp_path: Path) -> None:
    with pytest.raises(DifferentiationError, match=expected) as info:
        _transformed(source, 0, tmp_path, ("-g",))
    assert "\n" not in str(info.value)


def test_reverse_region_shape(tmp_path: Path) -> None:
    """The reverse sweep forks on as many threads as the augmented sweep had; adjoints into the shared array
    are added atomically."""
    source = """\
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
void smooth(const double *x, double *y, int n) {
#pragma omp parallel for
  for (int i = 1; i < n - 1; i++) y[i] = x[i - 1] * x[i + 1];
}
void grad(double *x, double *dx, double *y, double *dy, int n) {
  __enzyme_autodiff((void *)smooth, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n);
}
"""
    text = llvm.to_text(_transformed(source, 0, tmp_path))
    assert "@__kmpc_push_num_threads" in text
    assert "omp_augmented" in text and "omp_reverse" in text
    start = re.search(r"^define .*@reverse_smooth\.omp_outlined\(", text, re.M)
    assert start is not None
    reverse = text[start.start():]
    reverse = reverse[:reverse.index("\n}\n")]
    # x[i - 1] and x[i + 1] may be read by two threads: their adjoints are added atomically (unless the
    # region runs on one thread and no enclosing team is active).
    assert reverse.count("@__pyenzyme_omp_add.double(") == 2, reverse
    add = text[text.index("define internal void @__pyenzyme_omp_add.double("):]
    assert "atomicrmw fadd ptr %p, double %d monotonic" in add[:add.index("\n}\n")]


def test_python_api(tmp_path: Path) -> None:
    """enzyme.compile(..., flags=["-fopenmp"]) loads libomp for the JIT; both modes against the formula."""
    import math

    import numpy as np

    import enzyme
    source = tmp_path / "energy.c"
    source.write_text("#include <math.h>\n" + PYTHON_KERNEL)
    lib = enzyme.compile(source, flags=["-fopenmp"])
    x = np.array([0.1, 0.4, 0.9, 1.3, 2.0, -0.7, 1.1])
    want = [math.sin(v) + v * math.cos(v) for v in x]
    assert lib.energy(x, len(x)) == pytest.approx(sum(math.sin(v) * v for v in x), rel=1e-14)
    assert list(enzyme.gradient(enzyme.Reverse, lib.energy, x, len(x))) == pytest.approx(want, rel=1e-13)
    assert list(enzyme.gradient(enzyme.Forward, lib.energy, x, len(x))) == pytest.approx(want, rel=1e-13)


PYTHON_KERNEL = """\
double energy(const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += sin(x[i]) * x[i];
  return s;
}
"""

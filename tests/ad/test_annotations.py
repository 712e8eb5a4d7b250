"""Enzyme's source annotations: what cannot be honoured is an error, never a warning or a wrong derivative.

The derivatives of supported annotations are checked by the ``annotate_*`` programs of
tests/ad/programs (every mode, -O0..-O3); here: the errors on each compile path that goes
through the Python API, IR written by hand or by upstream Enzyme's plugin, and programs
written the way upstream's tests are.  The compiler wrappers, the ``enzyme`` command and
CMake are covered in tests/wrappers/test_wrapper_annotations.py,
tests/cli/test_cli_annotation_errors.py and tests/cmake/test_cmake_annotation_errors.py.
"""
from __future__ import annotations

import math
from pathlib import Path

import pytest

import enzyme
from enzyme import toolchain
from enzyme.errors import CompileError, DifferentiationError, UsageError
from enzyme.pipeline import CompileOptions, TransformOptions, compile_sources, transform_module
from enzyme.toolchain import clang as clang_driver
from enzyme.toolchain.clang_plugin import PluginStatus

HEADER = "double __enzyme_autodiff(void *, ...);\ndouble __enzyme_fwddiff(void *, ...);\n"


def differentiate(tmp_path: Path, text: str, name: str = "prog.c", opt_level: int = 2) -> None:
    """Compile ``text`` and run the differentiation pipeline on it (raising what it raises)."""
    source = tmp_path / name
    source.write_text(HEADER + text)
    module = compile_sources([source], CompileOptions(opt_level=opt_level))
    transform_module(module, TransformOptions(postopt_level=0), name=name)


@pytest.mark.parametrize("spelling, name", [
    ("__attribute__((enzyme_inactiv))", "enzyme_inactiv"),
    ("[[enzyme::inactiv]]", "enzyme::inactiv"),
    ("[[enzyme_inactiv]]", "enzyme_inactiv"),
    ("__attribute__((enzyme_inactive_nobloc))", "enzyme_inactive_nobloc"),
])
@pytest.mark.parametrize("flags", [(), ("-w",), ("-Wno-unknown-attributes",)], ids=["plain", "-w", "-Wno"])
def test_unknown_enzyme_attribute_is_a_compile_error(tmp_path: Path, spelling: str, name: str,
                                                     flags: tuple[str, ...]) -> None:
    source = tmp_path / "model.c"
    source.write_text(f"\n{spelling} double noise(double x) {{ return 2 * x; }}\n")
    with pytest.raises(CompileError, match=rf"model\.c:2:\d+: unknown attribute '{name}': pyenzyme implements "
                                           r"enzyme_inactive, .*wrong derivative") as info:
        toolchain.compile_to_bitcode(source, tmp_path / "model.bc", flags=flags)
    assert "\n" not in str(info.value)


def test_unknown_enzyme_attribute_in_cxx_through_enzyme_compile(tmp_path: Path) -> None:
    source = tmp_path / "model.cpp"
    source.write_text("struct S { [[enzyme::inactive_nobloc]] double f(double x) { return x; } };\n"
                      "double g(double x) { return S().f(x); }\n")
    with pytest.raises(CompileError, match=r"unknown attribute 'enzyme::inactive_nobloc'"):
        enzyme.compile([source])


def test_other_unknown_attributes_stay_warnings(tmp_path: Path) -> None:
    source = tmp_path / "model.c"
    source.write_text("__attribute__((frobnicate)) double f(double x) { return x; }\n")
    toolchain.compile_to_bitcode(source, tmp_path / "model.bc")


def test_supported_attribute_without_the_plugin_names_the_fix(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Without clang's headers the plugin cannot be built: the attribute is then refused, with the fix."""
    missing = PluginStatus(None, "the clang 22 headers are not installed; install them with "
                                 "`apt-get install libclang-22-dev`")
    monkeypatch.setattr(clang_driver, "clang_plugin", lambda: missing)
    source = tmp_path / "model.c"
    source.write_text("__attribute__((enzyme_inactive)) double f(double x) { return x; }\n")
    with pytest.raises(CompileError, match=r"'enzyme_inactive' needs pyenzyme's clang plugin, which is "
                                           r"unavailable: .*libclang-22-dev"):
        toolchain.compile_to_bitcode(source, tmp_path / "model.bc")
    plain = tmp_path / "plain.c"
    plain.write_text("double f(double x) { return x; }\n")
    toolchain.compile_to_bitcode(plain, tmp_path / "plain.bc")  # what uses no attribute does not need it


@pytest.mark.parametrize("text, message", [
    ("double d;\n__attribute__((enzyme_shadow(d))) double f(double x) { return x; }\n",
     "'enzyme_shadow' applies to global variables only"),
    ("float d;\ndouble g __attribute__((enzyme_shadow(d)));\n",
     "the shadow 'd' must be another global variable of the same type as 'g'"),
    ("double g __attribute__((enzyme_shadow(later)));\ndouble later;\n",
     "'enzyme_shadow' takes global variables declared before it"),
    ("__attribute__((enzyme_function_like(exp))) double f(double x) { return x; }\n",
     "takes the name of a function as a string literal"),
    (("__attribute__((always_inline, enzyme_inactive)) inline double f(double x) { return x; }\n"
     "double g(double x) { return f(x); }\n"),
     "carries an enzyme attribute and always_inline"),
    ("__attribute__((enzyme_inactive(1))) double f(double x) { return x; }\n", "takes no arguments"),
    ("double f(double x) { __attribute__((enzyme_inactive)) double y = x; return y; }\n",
     "applies to functions and global variables only"),
])
def test_misplaced_attributes_are_compile_errors(tmp_path: Path, text: str, message: str) -> None:
    source = tmp_path / "model.c"
    source.write_text(text)
    with pytest.raises(CompileError, match=message):
        toolchain.compile_to_bitcode(source, tmp_path / "model.bc")


@pytest.mark.parametrize("text, error, message", [
    (('__attribute__((enzyme_function_like("besselk"))) double k(double x) { return x; }\n'
     "double f(double x) { return k(x); }\n"), UsageError, ("@k is declared like besselk, which pyenzyme has no "
                                                          "derivative rule for")),
    (('__attribute__((enzyme_function_like("exp"))) double k(double x, double y) { return x + y; }\n'
     "double f(double x) { return k(x, x); }\n"), UsageError, "does not match exp's"),
    (("__attribute__((noinline)) void *grab(long n) { static char b[64]; (void)n; return b; }\n"
     "__attribute__((noinline)) void drop(void *p) { (void)p; }\n"
     'void *__enzyme_allocation_like[4] = {(void *)grab, (void *)0, (void *)"0", (void *)drop};\n'
     "double f(double x) { double *p = grab(8); *p = x; return *p; }\n"),
     UsageError, r"the deallocator arguments \"0\" must list"),
    (("__attribute__((noinline)) void *grab(long n) { static char b[64]; (void)n; return b; }\n"
     "__attribute__((noinline)) void drop(void *p) { (void)p; }\n"
     'void *__enzyme_allocation_like[4] = {(void *)grab, (void *)3, (void *)"-1", (void *)drop};\n'
     "double f(double x) { double *p = grab(8); *p = x; return *p; }\n"),
     UsageError, "argument index 3 is not an argument of @grab"),
    (("void enzymeLogGrad(const char *id, double grad) { (void)id; (void)grad; }\n"
     "double f(double x) { return x * x; }\n"),
     UsageError, r"@enzymeLogGrad has type void \(ptr, double\); the reverse sweep calls it as upstream"),
    (("double ds;\ndouble state __attribute__((enzyme_shadow(ds), enzyme_inactive));\n"
     "double f(double x) { return state * x; }\n"),
     UsageError, "declared both inactive and with a shadow"),
])
def test_annotations_that_cannot_be_honoured(tmp_path: Path, text: str, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        differentiate(tmp_path, text + "double df(double x) { return __enzyme_autodiff((void *)f, x); }\n")


def test_batch_needs_one_shadow_per_direction(tmp_path: Path) -> None:
    text = ("typedef struct { double d[2]; } v2;\nv2 __enzyme_fwddiff_v2(void *, ...);\nextern int enzyme_width;\n"
            "double dstate;\ndouble state __attribute__((enzyme_shadow(dstate))) = 2;\n"
            "double f(double x) { return state * x; }\n"
            "v2 df(double x) { return __enzyme_fwddiff_v2((void *)f, enzyme_width, 2, x, 1.0, 0.0); }\n")
    with pytest.raises(DifferentiationError, match=r"@f uses @state, which has 1 shadow\(s\), in a derivative of "
                                                   r"2 directions"):
        differentiate(tmp_path, text)


UPSTREAM_STYLE = """\
int enzyme_dup, enzyme_const, enzyme_out, enzyme_nofree;   /* markers defined, as upstream tests do */
int enzyme_inactive = 3;                                  /* an attribute's name as a plain variable */

__attribute__((enzyme_inactive))
double log1p_like_function(double a) { return 2 * a; }

double test(double a) { return log1p_like_function(a) + a * a; }

double grad(double a) { return __enzyme_autodiff((void *)test, enzyme_out, a); }
int marker(void) { return enzyme_inactive + (&enzyme_nofree != 0); }
"""


@pytest.mark.parametrize("opt_level", [0, 2])
def test_upstream_style_program_with_marker_variables(tmp_path: Path, opt_level: int) -> None:
    source = tmp_path / "inactivefn.c"
    source.write_text(HEADER + UPSTREAM_STYLE)
    lib = enzyme.compile([source], opt_level=opt_level)
    assert lib.grad(2.0) == pytest.approx(4.0, rel=1e-15)  # d(a^2)/da only: the marked call is constant
    assert lib.marker() == 4


UPSTREAM_IR = """\
@dglobal = global double 0.0
@global = global double 3.0, !enzyme_shadow !0
@table = global double 5.0
@__enzyme_inactive_global_table = global ptr @table
@.str = private unnamed_addr constant [16 x i8] c"enzyme_inactive\\00", section "llvm.metadata"
@.str.1 = private unnamed_addr constant [7 x i8] c"prog.c\\00", section "llvm.metadata"
@.str.2 = private unnamed_addr constant [25 x i8] c"enzyme_function_like=sin\\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @noise, ptr @.str, ptr @.str.1, i32 1, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @my_sin, ptr @.str.2, ptr @.str.1, i32 2, ptr null }], section "llvm.metadata"

define double @noise(double %x) noinline {
  %y = fmul double %x, 5.0
  ret double %y
}

declare double @my_sin(double)

define double @f(double %x) {
  %g = load double, ptr @global
  %a = fmul double %g, %x
  %n = call double @noise(double %x)
  %s = call double @my_sin(double %x)
  store double %a, ptr @table
  %b = fadd double %a, %n
  %c = fadd double %b, %s
  ret double %c
}

define double @df(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

define double @shadow() {
  %v = load double, ptr @dglobal
  ret double %v
}

declare double @__enzyme_autodiff(ptr, ...)

!0 = !{ptr @dglobal}
"""


def test_ir_written_the_upstream_way(tmp_path: Path) -> None:
    """Hand-written IR and upstream's plugin spell annotations the same way: metadata, annotations, tables."""
    sine = tmp_path / "my_sin.c"
    sine.write_text("#include <math.h>\n__attribute__((noinline)) double my_sin(double x) { return sin(x); }\n")
    lib = enzyme.compile([UPSTREAM_IR, sine])
    x = 0.5
    # d/dx (global * x + noise(x) + my_sin(x)) with noise inactive and my_sin like sin; global's adjoint is x.
    assert lib.df(x) == pytest.approx(3.0 + math.cos(x), rel=1e-14)
    assert lib.shadow() == pytest.approx(x, rel=1e-15)


def test_inactive_global_declared_but_defined_nowhere(tmp_path: Path) -> None:
    """An ``enzyme_inactive`` variable only declared (upstream's customglob.cpp: its value is passed to a
    function that ignores it, so -O2 drops the load): the attribute's carrier must not keep a reference to it,
    or the link fails."""
    source = tmp_path / "customglob.c"
    source.write_text(HEADER + """
#include <stdlib.h>
__attribute__((enzyme_inactive)) extern int memory_kind;
__attribute__((noinline)) void *alloc(int size, int kind) { (void)kind; return malloc(size); }
double square(double a) {
  double *d = (double *)alloc(sizeof(double), memory_kind);
  d[0] = a * a;
  double r = d[0];
  free(d);
  return r;
}
double grad(double a) { return __enzyme_autodiff((void *)square, a); }
""")
    lib = enzyme.compile([source], opt_level=2)
    assert lib.grad(3.0) == pytest.approx(6.0, rel=1e-15)


INACTIVE_GLOBAL_SELECTED = """
#include <stdio.h>
#include <stdlib.h>
extern int enzyme_const;
__attribute__((enzyme_inactive)) double scratch = 5.5;
__attribute__((noinline)) void scale(int into_scratch, double a, double *c) {
  double *p = into_scratch ? &scratch : c;
  *p *= a;
}
double test(int into_scratch, double a) { double dat = a; scale(into_scratch, a, &dat); return dat; }
int main(int argc, char **argv) {
  int into_scratch = argc > 1;
  double g = __enzyme_autodiff((void *)test, enzyme_const, into_scratch, 3.0);
  printf("%g %g\\n", g, scratch);
  return 0;
}
"""


@pytest.mark.parametrize("opt_level", [0, 2])
def test_select_of_an_inactive_global_stops_only_where_taken(tmp_path: Path, opt_level: int) -> None:
    """upstream's inactiveglob.cpp: a pointer that is either an ``enzyme_inactive`` global (no shadow) or a
    shadowed one.  The derivative follows the shadowed pointer; where the program picks the global, it stops
    with a message naming the select instead of computing with a shadow that does not exist."""
    import subprocess
    from enzyme import llvm
    source = tmp_path / "prog.c"
    source.write_text(HEADER + INACTIVE_GLOBAL_SELECTED)
    module = compile_sources([source], CompileOptions(opt_level=opt_level))
    result = transform_module(module, TransformOptions(postopt_level=opt_level), name="prog.c")
    bitcode = tmp_path / "prog.bc"
    bitcode.write_bytes(llvm.to_bitcode(result))
    obj = toolchain.compile_ir_object(bitcode, tmp_path / "prog.o", opt_level=opt_level)
    exe = toolchain.link_executable([obj], tmp_path / "prog", libraries=["-lm"])
    ok = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60, check=False)
    assert ok.returncode == 0 and ok.stdout == "6 5.5\n"  # d(a*a)/da at a = 3; the global untouched
    stopped = subprocess.run([str(exe), "scratch"], capture_output=True, text=True, timeout=60, check=False)
    assert stopped.returncode != 0 and stopped.stdout == ""
    assert "pyenzyme: " in stopped.stderr and "which has no shadow" in stopped.stderr, stopped.stderr

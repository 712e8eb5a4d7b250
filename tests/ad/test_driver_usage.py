"""Malformed batch and split-mode requests are refused with one-line messages naming the call site.

Also: a tape handed to the reverse sweep of another function stops the
program (a trap) instead of producing adjoints read with the wrong layout.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from enzyme import llvm, toolchain
from enzyme.errors import DifferentiationError, UsageError
from enzyme.pipeline import CompileOptions, TransformOptions, compile_sources, transform_module

HEADER = """
extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_width, enzyme_dupv, enzyme_nofree;
typedef struct { double d[2]; } v2;
typedef struct { void *tape; double primal; } aug_t;
double __enzyme_fwddiff(void *, ...);
v2 __enzyme_fwddiff_v2(void *, ...);
double __enzyme_autodiff(void *, ...);
aug_t __enzyme_augmentfwd(void *, ...);
void *__enzyme_augmentfwd_ptr(void *, ...);
double __enzyme_reverse(void *, ...); double __enzyme_fwdsplit(void *, ...);
double f(double *x, int n) { double s = 0; for (int i = 0; i < n; i++) s += x[i] * x[i]; return s; }
double sq(double x) { return x * x; }
"""


def differentiate(tmp_path: Path, body: str) -> llvm.ModuleRef:
    src = tmp_path / "prog.c"
    src.write_text(HEADER + body)
    module = compile_sources([src], CompileOptions(opt_level=2, debug=True))
    return transform_module(module, TransformOptions(postopt_level=0), name="prog.c")


def assert_stops_after_before(tmp_path: Path, body: str) -> None:
    """The program ``body`` built and run prints "before" and then stops (a trap), never "after"."""
    bitcode = tmp_path / "prog.bc"
    bitcode.write_bytes(llvm.to_bitcode(differentiate(tmp_path, body)))
    obj = toolchain.compile_ir_object(bitcode, tmp_path / "prog.o", opt_level=0)
    exe = toolchain.link_executable([obj], tmp_path / "prog", libraries=["-lm"])
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60, check=False)
    assert run.stdout == "before\n" and run.returncode != 0


def refused(tmp_path: Path, body: str, pattern: str, error: type[Exception] = UsageError) -> str:
    with pytest.raises(error, match=pattern) as info:
        differentiate(tmp_path, body)
    message = str(info.value)
    assert "\n" not in message, "error messages are one line"
    assert "in @g (" in message and "prog.c:13:" in message, f"no call site in: {message}"
    return message


@pytest.mark.parametrize("call, pattern", [
    ("__enzyme_fwddiff_v2((void *)f, enzyme_width, n, x, d, d, n)",
     r"enzyme_width must be followed by a positive integer constant, got a value computed at run time"),
    ("__enzyme_fwddiff_v2((void *)f, enzyme_width, 0, x, d, n)",
     r"enzyme_width must be followed by a positive integer constant, got 0"),
    ("__enzyme_fwddiff_v2((void *)f, enzyme_width, -2, x, d, d, n)", r"got -2"),
    ("__enzyme_fwddiff_v2((void *)f, enzyme_width, 3, x, d, d, enzyme_const, n)",
     r"argument 1 of @f is dup and needs 3 shadows after it \(enzyme_width 3\), got 2"),
    ("__enzyme_fwddiff_v2((void *)f, enzyme_width, 2, x, d, n)",
     r"shadow 2 of argument 1 of @f has type i32, expected ptr"),
    ("__enzyme_fwddiff_v2((void *)f, enzyme_width, 2, x, d, enzyme_const, n)",
     r"needs 2 shadows after it \(enzyme_width 2\), got 1 \(one shadow holding every direction of each element"),
    ("__enzyme_fwddiff_v2((void *)f, x, enzyme_width, 2, d, d, n)",
     r"enzyme_width must come right after the function"),
    ("__enzyme_fwddiff_v2((void *)f, enzyme_width, 2, enzyme_dupv, 8, x, 1.0, n)",
     r"the shadow of an enzyme_dupv argument \(1 of @f\) must be a pointer, got double"),
])
def test_batch_misuse(tmp_path: Path, call: str, pattern: str) -> None:
    refused(tmp_path, f"v2 g(double *x, double *d, int n) {{ return {call}; }}", pattern)


@pytest.mark.parametrize("call, pattern", [
    ("__enzyme_autodiff((void *)f, enzyme_width, n, x, d, d, n)",
     r"enzyme_width must be followed by a positive integer constant, got a value computed at run time"),
    ("__enzyme_autodiff((void *)f, enzyme_width, 3, x, d, d, enzyme_const, n)",
     r"argument 1 of @f is dup and needs 3 shadows after it \(enzyme_width 3\), got 2"),
    ("__enzyme_autodiff((void *)f, enzyme_width, 2, x, d, n)",
     r"shadow 2 of argument 1 of @f has type i32, expected ptr"),
    ("__enzyme_autodiff((void *)sq, enzyme_width, 2, 3.0)",
     r"declared to return double but the derivative of @sq is \[2 x double\]"),
])
def test_batch_reverse_misuse(tmp_path: Path, call: str, pattern: str) -> None:
    refused(tmp_path, f"double g(double *x, double *d, int n) {{ return {call}; }}", pattern)


def test_batch_split_reverse_needs_a_dret_per_direction(tmp_path: Path) -> None:
    body = ("double g(double *x, double *d, int n, void *t) { return __enzyme_reverse((void *)f, enzyme_width, 2, "
            "x, d, d, n, 1.0, t); }")
    refused(tmp_path, body, r"@f returns double: pass its 2 adjoints \(one dret per direction\) and then the tape")


@pytest.mark.parametrize("body, pattern", [
    ("""
__attribute__((noinline)) double cube(double x) { return x * x * x; }
static struct { double r; void *t; } cube_aug(double x) { return (typeof(cube_aug(0))){x * x * x, 0}; }
static double cube_rev(double x, double dr, void *t) { return 3 * x * x * dr; }
void *__enzyme_register_gradient_cube[3] = {(void *)cube, (void *)cube_aug, (void *)cube_rev};
double h(double *x) { return cube(x[0]) + x[1]; }
void g(double *x, double *a, double *b) { __enzyme_autodiff((void *)h, enzyme_width, 2, x, a, b); }
""", r"the registered gradient of @cube is not supported in batch reverse mode \(enzyme_width 2\) yet"),
    ("""
#include <stdlib.h>
double h(double *x, int n) {
  double *t = malloc(sizeof(double)); t[0] = x[0];
  t = realloc(t, n * sizeof(double)); for (int i = 1; i < n; i++) t[i] = t[i - 1] * x[i];
  double r = t[n - 1]; free(t); return r;
}
void g(double *x, double *a, double *b, int n) { __enzyme_autodiff((void *)h, enzyme_width, 2, x, a, b, n); }
""", r"realloc is not supported in batch reverse mode \(enzyme_width 2\) yet; call once per direction"),
])
def test_batch_reverse_refuses_what_it_cannot_batch(tmp_path: Path, body: str, pattern: str) -> None:
    with pytest.raises(DifferentiationError, match=pattern) as info:
        differentiate(tmp_path, body)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("call, pattern", [
    ("__enzyme_reverse((void *)f, x, d, n, 1.0)", r"missing the tape: pass the pointer __enzyme_augmentfwd returned"),
    ("__enzyme_reverse((void *)f, x, d, n)", r"@f returns double: pass its adjoint \(dret\) and then the tape"),
    ("__enzyme_reverse((void *)f, x, d, n, 1.0, 2.0)", r"the tape must be the pointer __enzyme_augmentfwd returned, got a double"),
    ("__enzyme_reverse((void *)f, x, d, n, 1, t)", r"the adjoint of the result \(dret\) of @f must be a double, got i32"),
    ("__enzyme_reverse((void *)f, x, d, n, 1.0, t, t)", r"@f takes 2 arguments but 1 more were given"),
])
def test_split_reverse_misuse(tmp_path: Path, call: str, pattern: str) -> None:
    refused(tmp_path, f"double g(double *x, double *d, int n, void *t) {{ return {call}; }}", pattern)


def test_augmentfwd_declared_with_the_wrong_result(tmp_path: Path) -> None:
    body = "void *g(double *x, double *d, int n) { return __enzyme_augmentfwd_ptr((void *)f, x, d, n); }"
    refused(tmp_path, body, r"declared to return ptr but the derivative of @f is \{ ?ptr, double ?\}")


def test_tape_of_another_function_traps(tmp_path: Path) -> None:
    """The tape tag: a tape from @f's forward sweep given to @sq's reverse sweep stops the program."""
    body = """
#include <stdio.h>
int main(void) {
  double x[2] = {1, 2}, d[2] = {0, 0};
  aug_t r = __enzyme_augmentfwd((void *)f, x, d, 2);
  printf("before\\n");
  fflush(stdout);
  double dx = __enzyme_reverse((void *)sq, 3.0, 1.0, r.tape);
  printf("after %g\\n", dx);
  return 0;
}
"""
    assert_stops_after_before(tmp_path, body)


@pytest.mark.parametrize("call, pattern", [
    ("__enzyme_fwdsplit((void *)f, x, d, n)", r"missing the tape: pass the pointer __enzyme_augmentfwd returned"),
    ("__enzyme_fwdsplit((void *)f, x, d, n, 1.0)",
     r"the tape must be the pointer __enzyme_augmentfwd returned, got a double"),
    ("__enzyme_fwdsplit((void *)f, x, d, enzyme_out, n, t)", r"enzyme_out is a reverse-mode marker"),
])
def test_forward_split_misuse(tmp_path: Path, call: str, pattern: str) -> None:
    refused(tmp_path, f"double g(double *x, double *d, int n, void *t) {{ return {call}; }}", pattern)


def test_nofree_on_split_reverse_is_refused(tmp_path: Path) -> None:
    """enzyme_nofree would let the caller use a tape again, which a reverse sweep's tape cannot be."""
    body = ("double g(double *x, double *d, int n, void *t) { "
            "return __enzyme_reverse((void *)f, enzyme_nofree, x, d, n, 1.0, t); }")
    refused(tmp_path, body, r"enzyme_nofree is not supported with __enzyme_reverse \(its reverse sweep uses its tape "
            r"up\)", DifferentiationError)


def test_forward_split_and_split_reverse_of_one_function_are_refused(tmp_path: Path) -> None:
    """A tape of __enzyme_augmentfwd is either a log for __enzyme_fwdsplit or a reverse sweep's tape, not both."""
    body = ("double g(double *x, double *d, int n, void *t) { return __enzyme_reverse((void *)f, x, d, n, 1.0, t) + "
            "__enzyme_fwdsplit((void *)f, x, d, n, t); }")
    refused(tmp_path, body, r"@f is also differentiated by __enzyme_fwdsplit", DifferentiationError)


def test_forward_split_refuses_what_it_cannot_log(tmp_path: Path) -> None:
    """A volatile read cannot be replayed from a log: refused, naming the instruction and its line."""
    src = tmp_path / "prog.c"
    src.write_text(HEADER + """
double vol(double *x) { volatile double *v = x; return v[0] * v[1]; }
double g(double *x, double *d, void *t) { return __enzyme_fwdsplit((void *)vol, x, d, t); }
""")
    module = compile_sources([src], CompileOptions(opt_level=2, debug=True))
    with pytest.raises(DifferentiationError, match=r"^__enzyme_fwdsplit: .*load volatile.*@vol.*prog\.c:\d+.*an "
                       r"atomic or volatile memory access") as info:
        transform_module(module, TransformOptions(postopt_level=0), name="prog.c")
    assert "\n" not in str(info.value)


def test_forward_split_refuses_recursion(tmp_path: Path) -> None:
    """A function that calls itself: its replay would be its own callee, which is not supported yet."""
    src = tmp_path / "prog.c"
    src.write_text(HEADER + """
#include <math.h>
double rec(double *x, int n) { return n == 0 ? 0.0 : x[0] + sin(rec(x + 1, n - 1)); }
double g(double *x, double *d, void *t) { return __enzyme_fwdsplit((void *)rec, x, d, 3, t); }
""")
    module = compile_sources([src], CompileOptions(opt_level=2, debug=True))
    with pytest.raises(DifferentiationError, match=r"^__enzyme_fwdsplit: @rec calls itself \(recursively\)"
                       r"; forward split mode does not replay recursion yet") as info:
        transform_module(module, TransformOptions(postopt_level=0), name="prog.c")
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("calls", [
    # a reverse tape given to the forward split derivative
    "aug_t r = __enzyme_augmentfwd((void *)f, x, d, 2); ... __enzyme_fwdsplit((void *)sq, 3.0, 1.0, r.tape)",
    # a forward split log read twice (the first call frees it): the caller's tape memory keeps its tag cleared
    "extern int enzyme_allocated, enzyme_tape; double __enzyme_augmentfwd_d(void *, ...); char t[64]; "
    "__enzyme_augmentfwd_d((void *)sq, 3.0, enzyme_allocated, 64, enzyme_tape, t); double once = "
    "__enzyme_fwdsplit((void *)sq, 3.0, 1.0, enzyme_allocated, 64, enzyme_tape, t); (void)once "
    "... __enzyme_fwdsplit((void *)sq, 3.0, 1.0, enzyme_allocated, 64, enzyme_tape, t)",
    # a forward split log given to the reverse sweep of another function
    "aug_t r = __enzyme_augmentfwd((void *)sq, 3.0); ... __enzyme_reverse((void *)cube, 2.0, 1.0, r.tape) + "
    "__enzyme_fwdsplit((void *)sq, 3.0, 1.0, r.tape)",
])
def test_forward_split_tape_of_another_kind_traps(tmp_path: Path, calls: str) -> None:
    first, second = calls.split(" ... ")
    body = f"""
#include <stdio.h>
double cube(double x) {{ return x * x * x; }}
int main(void) {{
  double x[2] = {{1, 2}}, d[2] = {{0, 0}};
  {first};
  printf("before\\n");
  fflush(stdout);
  double dx = {second};
  printf("after %g\\n", dx);
  return 0;
}}
"""
    assert_stops_after_before(tmp_path, body)


@pytest.mark.parametrize("lang, decl, call, pattern", [
    ("c", "double __enzyme_checkpoint_for(double);",
     "return sq(x[0]) * __enzyme_checkpoint_for(x[1]);",
     r"^__enzyme_checkpoint_for in @g\b.*: the first argument must be the step function"),
    ("cpp", "double __enzyme_checkpoint_while(double);",
     "return sq(x[0]) * __enzyme_checkpoint_while(x[1]);",
     r"^__enzyme_checkpoint_while in @_Z1gPd\b.*: the first argument must be the step function"),
])
def test_unsupported_entry_points_are_refused(tmp_path: Path, lang: str, decl: str, call: str, pattern: str) -> None:
    """Other upstream entry points (also C++-mangled), or checkpointed loops called wrongly, are named in a one-line
    refusal, not left to the linker."""
    prelude = HEADER if lang == "c" else CXX_HEADER
    src = tmp_path / f"prog.{lang}"
    src.write_text(f"{prelude}{decl}\ndouble g(double *x) {{ {call} }}\n"
                   "double h(double *x, double *d) { return __enzyme_autodiff((void *)g, x, d); }\n")
    module = compile_sources([src], CompileOptions(opt_level=0))
    with pytest.raises((DifferentiationError, UsageError), match=pattern) as info:  # UsageError: a malformed call
        transform_module(module, TransformOptions(postopt_level=0), name=src.name)
    assert "\n" not in str(info.value)


CXX_HEADER = """
extern int enzyme_width;
double __enzyme_autodiff(void *, ...);
double sq(double x) { return x * x; }
"""


@pytest.mark.parametrize("call,pattern", [
    ("__enzyme_autodiff((void *)sq, &enzyme_dup_return, 2.0)",
     r"enzyme_dup_return is not a reverse-mode return activity; use enzyme_const_return or enzyme_active_return"),
    ("__enzyme_fwddiff((void *)sq, &enzyme_active_return, 2.0, 1.0)",
     r"enzyme_active_return is not a forward-mode return activity"),
    ("__enzyme_autodiff((void *)sq, &enzyme_primal_return, &enzyme_noret, 2.0)",
     r"enzyme_noret contradicts an earlier return marker"),
    ("__enzyme_autodiff((void *)touch, &enzyme_primal_return, enzyme_dup, &v, &dv)",
     r"enzyme_primal_return but @touch returns void"),
    ("__enzyme_fwddiff((void *)count, &enzyme_dup_return, enzyme_dup, &v, &dv)",
     r"enzyme_dup_return but @count returns i32, which has no derivative; use enzyme_const_return"),
])
def test_return_marker_misuse(tmp_path: Path, call: str, pattern: str) -> None:
    body = ("extern int enzyme_primal_return, enzyme_noret, enzyme_dup_return, enzyme_active_return; "
            "double v, dv; void touch(double *p) { *p *= 2; } int count(double *p) { return *p > 0; } "
            f"double g(void) {{ return {call}; }}\n")
    refused(tmp_path, body, pattern)


TAPE_HEADER = ("extern int enzyme_allocated, enzyme_tape; void __enzyme_augmentfwd_void(void *, ...); "
               "unsigned long __enzyme_augmentsize(void *, ...); void scale(double *x) { x[0] = x[0] * x[0] * 3.0; }\n")


@pytest.mark.parametrize("call, pattern, error", [
    ("__enzyme_augmentfwd_void((void *)scale, x, d, enzyme_allocated, 1, enzyme_tape, t)",
     r"enzyme_allocated gives 1 bytes of tape memory but @scale needs 56 \(ask __enzyme_augmentsize\)", UsageError),
    ("__enzyme_augmentfwd_void((void *)scale, x, d, enzyme_allocated, 64)",
     r"enzyme_allocated gives the size of the caller's tape memory; pass that memory with enzyme_tape, ptr",
     UsageError),
    ("__enzyme_augmentfwd_void((void *)scale, x, d, enzyme_tape, t)",
     r"enzyme_tape in __enzyme_augmentfwd needs enzyme_allocated, size before it", UsageError),
    ("__enzyme_augmentfwd_void((void *)scale, x, d, enzyme_allocated, 64, enzyme_tape, 1.0)",
     r"enzyme_tape must be followed by a pointer, got a double", UsageError),
    ("__enzyme_augmentfwd_void((void *)scale, x, d, enzyme_allocated, 64, enzyme_allocated, 64, enzyme_tape, t)",
     r"enzyme_allocated is given twice", UsageError),
    ("__enzyme_autodiff((void *)scale, x, d, enzyme_allocated, 64, enzyme_tape, t)",
     r"@scale takes 1 arguments but 4 more were given", UsageError),
    ("__enzyme_autodiff((void *)scale, enzyme_tape, t, x, d)",
     r"enzyme_tape belongs to split mode \(__enzyme_augmentfwd / __enzyme_reverse / __enzyme_fwdsplit\), not to "
     r"__enzyme_autodiff",
     UsageError),
    ("__enzyme_augmentsize(x)", r"the first argument must be the function whose augmented forward sweep", UsageError),
])
def test_caller_tape_misuse(tmp_path: Path, call: str, pattern: str, error: type[Exception]) -> None:
    refused(tmp_path, TAPE_HEADER.replace("\n", " ") + f"void g(double *x, double *d, void *t) {{ {call}; }}",
            pattern, error)


def test_caller_tape_too_small_at_run_time_traps(tmp_path: Path) -> None:
    """A tape size known only at run time is checked by the sweep: too small stops the program."""
    body = TAPE_HEADER + """
#include <stdio.h>
int main(int argc, char **argv) {
  double x[1] = {0.5}, d[1] = {1.0};
  char tape[64];
  unsigned long n = __enzyme_augmentsize((void *)scale, enzyme_dup) - (unsigned long)argc;
  printf("before\\n");
  fflush(stdout);
  __enzyme_augmentfwd_void((void *)scale, x, d, enzyme_allocated, n, enzyme_tape, tape);
  printf("after\\n");
  return 0;
}
"""
    assert_stops_after_before(tmp_path, body)


CONTEXT_HEADER = ("extern int enzyme_context; void *__enzyme_context(int); void *__enzyme_shadow(void *, void *, int); "
                  "void *__enzyme_query(void *, int, int) __asm__(\"__enzyme_shadow\"); "
                  "double gp = 2.0; double *gptr; void point(void) { gptr = &gp; } "
                  "double model(double x) { return gp * x; }\n")


@pytest.mark.parametrize("body, pattern, error", [
    (("void *c = __enzyme_context(1), *c2 = __enzyme_context(1); void *v[2] = {c, c2}; "
      "return __enzyme_autodiff((void *)model, enzyme_context, v[x > 0], x);"),
     r"the value after enzyme_context must be what one __enzyme_context call returned, known at compile time",
     DifferentiationError),
    ("void *c = __enzyme_context(2); return __enzyme_fwddiff((void *)model, enzyme_width, 3, enzyme_context, c, x);",
     r"enzyme_width 3 contradicts the width 2 of the context", UsageError),
    ("void *c = __enzyme_context(2); return __enzyme_fwddiff((void *)model, x, 1.0, enzyme_context, c);",
     r"a context of width 2 must come before the arguments", UsageError),
    ("void *c = __enzyme_context(0); return 0;", r"the width of the context must be a positive integer", UsageError),
    ("void *c = __enzyme_context(1); return *(double *)__enzyme_shadow(c, &gp, 1);",
     r"lane 1 of a width-1 shadow; lanes are 0 to 0", UsageError),
    ("return *(double *)__enzyme_query(&gp, 2, 2);", r"lane 2 of a width-2 shadow; lanes are 0 to 1", UsageError),
    ("return *(double *)__enzyme_query(&gp, 0, 0);", r"the width must be a positive integer constant", UsageError),
    ("void *c = __enzyme_context(1); return **(double **)__enzyme_shadow(c, &gptr, 0);",
     (r"@gptr holds pointers, whose shadow would have to point to shadow memory; supported are globals of numbers, "
      r"globals whose initializer points to other globals and whose pointers the program never writes, and a "
      r"plain pointer global that only ever holds what malloc/calloc/aligned_alloc/realloc returned"),
     DifferentiationError),
    ("void *c = __enzyme_context(1); return *(double *)__enzyme_shadow(c, x > 0 ? &gp : &x, 0);",
     r"the global must be named at compile time", DifferentiationError),
    ("void *c = __enzyme_context(1); *(double *)__enzyme_shadow(c, &gp, 0) = 0; return __enzyme_autodiff((void *)model, x);",
     r"@model uses @gp, whose shadow the program asked for with a context; pass enzyme_context, ctx",
     DifferentiationError),
    (("*(double *)__enzyme_query(&gp, 1, 0) = 0; void *c = __enzyme_context(1); "
      "return __enzyme_autodiff((void *)model, enzyme_context, c, x);"),
     r"@model uses @gp, whose shadow the program asked for without a context; drop enzyme_context",
     DifferentiationError),
    ("return __enzyme_autodiff((void *)model, enzyme_context);",
     r"enzyme_context is not followed by the context", UsageError),
])
def test_global_shadow_api_misuse(tmp_path: Path, body: str, pattern: str, error: type[Exception]) -> None:
    refused(tmp_path, CONTEXT_HEADER.replace("\n", " ") + f"double g(double x) {{ {body} }}", pattern, error)


def test_global_shadow_of_another_width_is_refused(tmp_path: Path) -> None:
    """Only width-1 shadows were asked for: a derivative of 2 directions has none to use."""
    body = (CONTEXT_HEADER + "double g(double x) { return __enzyme_fwddiff_v2((void *)model, enzyme_width, 2, x, "
            "1.0, 0.0).d[0] + *(double *)__enzyme_query(&gp, 1, 0); }\n")
    with pytest.raises(DifferentiationError, match=r"@model uses @gp, which has 1 shadow\(s\), in a derivative of 2"):
        differentiate(tmp_path, body)


def test_virtual_reverse_misuse(tmp_path: Path) -> None:
    body = ("long __enzyme_virtualreverse_long(void *) __asm__(\"__enzyme_virtualreverse\"); "
            "long g(void) { return __enzyme_virtualreverse_long((void *)sq); }")
    refused(tmp_path, body, r"takes one function or vtable pointer and returns a pointer of the same type")


def test_iteration_count_misuse(tmp_path: Path) -> None:
    body = ("double __enzyme_iter_f(double, double) __asm__(\"__enzyme_iter\"); "
            "double g(double x) { return __enzyme_autodiff((void *)sq, x) * __enzyme_iter_f(2.0, 1.0); }")
    refused(tmp_path, body, r"__enzyme_iter in @g .*: takes two integers \(count, step\) and returns one of the same type")


def test_global_shadow_in_both_forms_is_refused(tmp_path: Path) -> None:
    body = (CONTEXT_HEADER + "double g(double x) { void *c = __enzyme_context(1); "
            "return *(double *)__enzyme_shadow(c, &gp, 0) + *(double *)__enzyme_query(&gp, 1, 0); }\n")
    with pytest.raises(DifferentiationError, match=r"^@gp: its shadow is asked for both with a context and in the "
                       r"query form"):
        differentiate(tmp_path, body)


def test_runtime_activity_stops_on_an_argument_passed_as_its_own_shadow(tmp_path: Path) -> None:
    # Upstream would take the argument as inactive at run time; pyenzyme's derivative would write into it.
    assert_stops_after_before(tmp_path, """
#include <stdio.h>
extern int enzyme_runtime_activity;
int main(void) {
  double x[2] = {1, 2}, dx[2] = {0};
  __enzyme_autodiff((void *)f, enzyme_runtime_activity, enzyme_dup, x, dx, enzyme_const, 2);
  printf("before\\n"); fflush(stdout);
  __enzyme_autodiff((void *)f, enzyme_runtime_activity, enzyme_dup, x, x, enzyme_const, 2);
  printf("after\\n");
  return 0;
}
""")


FIXED_POINT_HEADER = ("extern int enzyme_fp_state, enzyme_fp_reduction, enzyme_fp_control, enzyme_checkpoint_region; "
                      "void __enzyme_fixed_point(void *, ...); "
                      "void __enzyme_set_fixed_point(double, long, void *, ...); "
                      "int step(long i, double *u, double *tol) { u[0] = 0.5 * u[0] + 1; return u[0] > *tol; }\n")


@pytest.mark.parametrize("body, pattern, error", [
    ("__enzyme_set_fixed_point(1e-12, -1, 0, u, 8L); return 0;",
     r"the marker is not inside a loop", DifferentiationError),
    ("for (int i = 0; i < 9; i++) { __enzyme_set_fixed_point(*tol, -1, 0, u, 8L); step(i, u, tol); } return 0;",
     r"the reduction and max_iters must be constants here", DifferentiationError),
    ("for (double *v = u; *v < 9; v++) { __enzyme_set_fixed_point(1e-9, -1, 0, v, 8L); step(0, v, tol); } return 0;",
     r"the state's address must be computed before the loop", DifferentiationError),
    ("__enzyme_fixed_point((void *)step, u, tol); return 0;", r"name the state with enzyme_fp_state", UsageError),
    ("__enzyme_fixed_point((void *)step, enzyme_fp_state, u, 8L, enzyme_fp_reduction, *tol, u, tol); return 0;",
     r"enzyme_fp_reduction must be a constant here", DifferentiationError),
    ("__enzyme_fixed_point((void *)step, enzyme_fp_state, u, 12L, u, tol); return 0;",
     r"the state is 12 bytes; states of doubles are supported", DifferentiationError),
    ("__enzyme_fixed_point((void *)step, enzyme_fp_state, u, 8L, u); return 0;",
     r"@step takes 2 arguments after the iteration count, 1 were given", UsageError),
    ("__enzyme_fixed_point((void *)step, enzyme_fp_state, u, 8L, enzyme_checkpoint_region, u, 8L, u, tol); return 0;",
     r"enzyme_checkpoint_region is not supported yet", DifferentiationError),
])
def test_fixed_point_misuse(tmp_path: Path, body: str, pattern: str, error: type[Exception]) -> None:
    refused(tmp_path, FIXED_POINT_HEADER.replace("\n", " ") + f"double g(double *u, double *tol) {{ {body} }}",
            pattern, error)

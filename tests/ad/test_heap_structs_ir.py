"""The shape of the derivative code for heap-allocated structs holding pointers.

Matrix structs ``{int n, stride; double *data}`` built by constructors, copied
as headers, passed and returned by value, and freed away from where they were
allocated (tests/ad/programs/tiled_matmul.c and matrix_views.c check the
numbers).  Each case compiles a small C program at -O2 (helpers kept out of
line) and looks at pyenzyme's output before LLVM optimizes it.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from enzyme.errors import DifferentiationError
from enzyme.pipeline import CompileOptions, TransformOptions, _through_enzyme_ir, compile_sources, transform_module

HEADER = """
#include <stdlib.h>
#include <string.h>
typedef struct { int n, stride; double *data; } Mat;
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
#define OUT_OF_LINE __attribute__((noinline))
"""


def generated(tmp_path: Path, body: str, opt_level: int = 2, debug: bool = False) -> str:
    """pyenzyme's output for ``body``, as text, before post-optimization."""
    src = tmp_path / "prog.c"
    src.write_text(HEADER + body)
    captured: list[str] = []

    def capture(text: str) -> str:
        captured.append(_through_enzyme_ir(text))
        return captured[-1]

    transform_module(compile_sources([src], CompileOptions(opt_level=opt_level, debug=debug)),
                     TransformOptions(postopt_level=0, transform=capture), name="prog.c")
    return captured[0]


def function(text: str, name: str) -> str:
    """The definition of ``@name`` in ``text``."""
    m = re.search(rf"^define [^\n]*@{re.escape(name)}\(.*?^}}", text, re.MULTILINE | re.DOTALL)
    assert m is not None, f"@{name} not generated"
    return m.group(0)


def test_copied_header_takes_the_data_pointers_shadow(tmp_path: Path) -> None:
    """memcpy of a struct holding a pointer: the augmented sweep copies the pointer's shadow (was: left null,
    and the reverse sweep wrote adjoints through null)."""
    text = generated(tmp_path, """
OUT_OF_LINE Mat *header_copy(const Mat *a) { Mat *m = malloc(sizeof *m); memcpy(m, a, sizeof *m); return m; }
OUT_OF_LINE double first(const Mat *a) { return a->data[0] * a->data[a->n - 1]; }
double f(double *x) { Mat a = {4, 4, x}; Mat *h = header_copy(&a); double s = first(h); free(h); return s; }
void g(double *x, double *dx) { __enzyme_autodiff((void *)f, enzyme_dup, x, dx); }
""")
    aug = function(text, "augmented_header_copy")
    shadow_src = re.search(r"@augmented_header_copy\(ptr %\w+, ptr (%\w+)", aug)
    assert shadow_src is not None
    load = re.search(rf"(%\w+) = getelementptr i8, ptr {shadow_src.group(1)}, i64 8\n\s*(%\w+) = load ptr, ptr \1", aug)
    assert load is not None, aug
    assert re.search(rf"store ptr {re.escape(load.group(2))}, ptr %\w+", aug), aug
    # Nothing floating-point was copied: the reverse sweep has nothing to move back.
    assert "llvm.memcpy" not in function(text, "reverse_header_copy")


def test_frees_are_deferred_to_the_end_of_the_reverse_sweep(tmp_path: Path) -> None:
    """A block freed by a helper, away from its allocation: recorded on the tape's second stack, freed by the
    tape's release after the reverse sweep (was: dropped, leaking the block and its shadow)."""
    text = generated(tmp_path, """
OUT_OF_LINE Mat *mat_new(int n) { Mat *m = malloc(sizeof *m); m->n = m->stride = n; m->data = malloc(8 * n * n);
                                  return m; }
OUT_OF_LINE void mat_free(Mat *m) { free(m->data); free(m); }
double f(double *x) {
  Mat *m = mat_new(2);
  for (int i = 0; i < 4; i++) m->data[i] = x[i] * x[i];
  double s = m->data[0] * m->data[3];
  mat_free(m);
  return s;
}
void g(double *x, double *dx) { __enzyme_autodiff((void *)f, enzyme_dup, x, dx); }
""")
    aug = function(text, "augmented_mat_free")
    assert "call void @free" not in aug
    deferred = re.findall(r"getelementptr i8, ptr %tape, i64 24\n\s*%\w+ = call ptr @__pyenzyme_tape_push", aug)
    assert len(deferred) == 4, "two blocks and their two shadows"
    diffe = function(text, "diffef")
    assert "call void @__pyenzyme_tape_release(ptr %tape)" in diffe


def test_constructor_with_constant_arguments_returns_a_shadow(tmp_path: Path) -> None:
    """``mat_new(2)`` has no active argument, but what it returns is written with active values: the call goes
    through its augmented sweep, which returns the shadow beside the pointer (was: no shadow, refused)."""
    text = generated(tmp_path, """
OUT_OF_LINE Mat *mat_new(int n) { Mat *m = malloc(sizeof *m); m->n = m->stride = n; m->data = malloc(8 * n * n);
                                  return m; }
double f(double *x) { Mat *m = mat_new(2); m->data[1] = x[0] * 3; return m->data[1] * m->data[1]; }
void g(double *x, double *dx) { __enzyme_autodiff((void *)f, enzyme_dup, x, dx); }
double h(double *x, double *tx) { return __enzyme_fwddiff((void *)f, enzyme_dup, x, tx); }
""")
    assert re.search(r"call \{ ptr, ptr \} @augmented_mat_new\(i32 2, ptr %tape\)", function(text, "augmented_f"))
    assert re.search(r"define internal \{ ptr, ptr \} @fwddiffe_?mat_new\(i32", text)


def test_struct_returned_by_value_carries_its_pointers_shadow(tmp_path: Path) -> None:
    """``Mat view(Mat m, ...)`` returns ``{i64, ptr}``: both modes return a shadow of the same type beside it
    (was: none, and the derivative through ``v.data`` was silently zero)."""
    text = generated(tmp_path, """
OUT_OF_LINE Mat view(Mat m, int qi, int qj) {
  int h = m.n / 2; Mat v = {h, m.stride, m.data + qi * h * m.stride + qj * h}; return v; }
OUT_OF_LINE double sumsq(Mat m) {
  double s = 0;
  for (int i = 0; i < m.n; i++) for (int j = 0; j < m.n; j++) s += m.data[i * m.stride + j] * m.data[i * m.stride + j];
  return s; }
double f(double *x) { Mat a = {4, 4, x}; return sumsq(view(a, 1, 0)); }
void g(double *x, double *dx) { __enzyme_autodiff((void *)f, enzyme_dup, x, dx); }
double h(double *x, double *tx) { return __enzyme_fwddiff((void *)f, enzyme_dup, x, tx); }
""")
    pair = r"\{ \{ i64, ptr \}, \{ i64, ptr \} \}"
    assert re.search(rf"define internal {pair} @augmented_view\(i64 %\w+, ptr %\w+, ptr %\w+,", text)
    assert re.search(rf"define internal {pair} @fwddiffe_?view\(", text)


@pytest.mark.parametrize("opt_level", [0, 2])
@pytest.mark.parametrize("mode", ["__enzyme_autodiff", "__enzyme_fwddiff"])
def test_constant_pointer_returned_in_a_struct_is_refused(tmp_path: Path, mode: str, opt_level: int) -> None:
    """A struct returned by value whose pointer has no shadow (a global table of doubles): callers following
    it would lose derivatives, so it is refused with the source line, not given a null shadow."""
    with pytest.raises(DifferentiationError, match=r"prog\.c:\d+.*no shadow") as info:
        generated(tmp_path, f"""
static double TABLE[4] = {{1, 2, 3, 4}};
OUT_OF_LINE Mat table_or_data(double *x, int k) {{ x[0] *= 2; Mat m = {{2, 2, k ? TABLE : TABLE + 1}}; return m; }}
double f(double *x) {{ Mat m = table_or_data(x, 1); return m.data[0] * x[0]; }}
double g(double *x, double *dx) {{ return {mode}((void *)f, enzyme_dup, x, dx); }}
""", opt_level, debug=True)
    assert "\n" not in str(info.value)

"""Random C programs for differential testing of the AD engine (tests/ad/test_random_programs.py).

``program(seed, count)`` is C source with ``count`` random functions ``double f_i(const double *x, int n)``
(libm expressions, loops carrying a value, stencils on a local array, branches followed by a data-dependent
while loop, heap scratch memory, struct copies, tables of function pointers, recursion, linked lists) and a
``main`` that checks each function five ways: reverse mode, forward mode, batch forward and batch reverse
(width 2) and central differences.  It prints a ``MISMATCH`` line per disagreement and exits non-zero if there was one.
Comparisons where the finite difference or the derivative is not finite are skipped: ``0 * inf`` at a
kink of ``cbrt`` or an overflowing ``pow`` says nothing about the engine.

Run by hand: ``python tests/ad/random/generate.py SEED COUNT > p.c && enzyme-cc p.c -lm && ./a.out``.
"""
from __future__ import annotations

import random
import sys

UNARY = ("sin({0})", "cos({0})", "exp(0.3 * ({0}))", "sqrt(({0}) * ({0}) + 1.0)", "tanh({0})",
         "log(({0}) * ({0}) + 2.0)", "fabs({0})", "atan({0})", "cbrt({0})")
BINARY = ("({0} + {1})", "({0} - {1})", "({0} * {1})", "({0} / (1.5 + ({1}) * ({1})))", "fmax({0}, {1})",
          "fmin({0}, {1})", "pow(fabs({0}) + 1.0, 0.5 * tanh({1}))", "hypot({0}, {1})",
          "atan2({0}, 1.0 + fabs({1}))")

HARNESS = r"""
static int bad = 0;
struct pair { double a, b; };
static int close_to(double got, double want, double rtol) {
  return !isfinite(got) || !isfinite(want) || fabs(got - want) <= rtol * (1 + fabs(want));
}
#define CHECK(name, f) do {                                                                              \
  double x[4] = {0.31, -0.72, 0.55, 1.13}, dx[4] = {0, 0, 0, 0}, r1[4] = {0, 0, 0, 0}, r2[4] = {0, 0, 0, 0}; \
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 5);                                     \
  __enzyme_autodiff((void *)f, enzyme_width, 2, enzyme_dup, x, r1, r2, enzyme_const, 5);                \
  for (int k = 0; k < 4; k++) {                                                                         \
    double h = 1e-6, o = x[k];                                                                          \
    x[k] = o + h; double p = f(x, 5); x[k] = o - h; double m = f(x, 5); x[k] = o;                       \
    double fd = (p - m) / (2 * h), t[4] = {0, 0, 0, 0}, t2[4] = {0, 0, 0, 0};                           \
    t[k] = 1; t2[(k + 1) % 4] = 1;                                                                       \
    double fw = __enzyme_fwddiff((void *)f, enzyme_dup, x, t, enzyme_const, 5);                         \
    struct pair w = ((struct pair (*)(void *, ...))__enzyme_fwddiff)(                                    \
        (void *)f, enzyme_width, 2, enzyme_dup, x, t, t2, enzyme_const, 5);                              \
    int ok = close_to(dx[k], fd, 2e-5) && close_to(fw, dx[k], 1e-9) && close_to(w.a, fw, 1e-12)         \
             && close_to(w.b, dx[(k + 1) % 4], 1e-9) && close_to(r1[k], dx[k], 1e-12)                    \
             && close_to(r2[k], dx[k], 1e-12);                                                          \
    if (!ok) {                                                                                          \
      printf("MISMATCH %s x%d: reverse %.12g forward %.12g central %.12g batch %.12g %.12g %.12g\n",      \
             name, k, dx[k], fw, fd, w.a, r1[k], r2[k]);                                                \
      bad = 1;                                                                                          \
    }                                                                                                   \
  }                                                                                                     \
} while (0)
"""


def program(seed: int, count: int) -> str:
    rng = random.Random(seed)

    def expr(depth: int, names: list[str]) -> str:
        if depth == 0 or rng.random() < 0.2:
            return rng.choice([*names, f"{rng.uniform(-2, 2):.3f}"])
        if rng.random() < 0.35:
            return rng.choice(UNARY).format(expr(depth - 1, names))
        return rng.choice(BINARY).format(expr(depth - 1, names), expr(depth - 1, names))

    xs = ["x[0]", "x[1]", "x[2]", "x[3]"]
    helpers: list[str] = []
    functions: list[str] = []
    for i in range(count):
        kind = rng.choice(("plain", "loop", "stencil", "branch", "heap", "struct", "table", "recursion", "list"))
        if kind == "plain":
            body = f"return {expr(4, xs)};"
        elif kind == "loop":
            body = (f"double s = x[0];\n  for (int i = 0; i < n; i++) {{ double t = x[i % 4]; "
                    f"s = 0.5 * {expr(3, ['s', 't', 'x[(i + 1) % 4]'])}; }}\n  return s;")
        elif kind == "stencil":
            body = (f"double w[6];\n  for (int i = 0; i < 6; i++) w[i] = {expr(2, ['x[i % 4]', 'x[(i + 2) % 4]'])};\n"
                    f"  for (int r = 0; r < 2; r++) for (int i = 1; i < 6; i++) "
                    f"w[i] = 0.7 * {expr(2, ['w[i]', 'w[i - 1]'])};\n"
                    "  double s = 0; for (int i = 0; i < 6; i++) s += w[i] * (i + 1);\n  return s;")
        elif kind == "branch":
            body = (f"double a = {expr(3, xs)};\n  if (a > {rng.uniform(-1, 1):.3f}) a = {expr(2, ['a', *xs])}; "
                    f"else a = {expr(2, ['a', *xs])};\n  while (fabs(a) > 10.0) a *= 0.5;\n  return a;")
        elif kind == "heap":
            body = (f"double *b = malloc(2 * n * sizeof(double));\n"
                    f"  for (int i = 0; i < 2 * n; i++) b[i] = {expr(2, ['x[i % 4]', 'x[(i + 3) % 4]'])};\n"
                    "  double s = 0; for (int i = 0; i < 2 * n; i++) s += b[i] * b[(i + 1) % (2 * n)];\n"
                    "  free(b);\n  return s;")
        elif kind == "struct":
            body = (f"struct {{ double a; int k; double b[2]; }} S, T;\n  S.a = {expr(2, xs)}; S.k = n; "
                    f"S.b[0] = {expr(2, xs)}; S.b[1] = x[3];\n  T = S; T.a *= T.k;\n"
                    f"  return {expr(2, ['T.a', 'T.b[0]', 'T.b[1]'])};")
        elif kind == "recursion":
            helpers.append(f"static double rec{i}(const double *x, int d) {{\n  if (d == 0) return x[0];\n"
                           f"  double r = rec{i}(x, d - 1), t = x[d % 4];\n  return 0.5 * {expr(2, ['r', 't'])};\n}}")
            body = f"return rec{i}(x, n);"
        elif kind == "list":
            body = ("struct node { double v; struct node *next; } nodes[5];\n"
                    "  for (int i = 0; i < 5; i++) { nodes[i].v = x[i % 4] * (i + 1); "
                    "nodes[i].next = i + 1 < n ? &nodes[(i + 1) % 5] : 0; }\n"
                    f"  double s = 0; int steps = 0;\n  for (struct node *p = &nodes[0]; p && steps < 7; "
                    f"p = p->next, steps++) {{ double v = p->v; s = {expr(2, ['s', 'v'])}; }}\n  return s;")
        else:
            names = [f"g{i}_{j}" for j in range(3)]
            helpers += [f"static double {g}(double a, double b) {{ return {expr(2, ['a', 'b'])}; }}" for g in names]
            helpers.append(f"static double (*const table{i}[3])(double, double) = {{{', '.join(names)}}};")
            call = f"table{i}[i % 3](x[i % 4], x[(i + 1) % 4])"
            body = f"double s = 0;\n  for (int i = 0; i < n; i++) s += 0.5 * {call};\n  return s;"
        functions.append(f"__attribute__((noinline)) double f{i}(const double *x, int n) {{\n  {body}\n}}")
    checks = "\n".join(f'  CHECK("f{i}", f{i});' for i in range(count))
    return "\n".join([
        "#include <math.h>", "#include <stdio.h>", "#include <stdlib.h>",
        "extern int enzyme_dup, enzyme_const, enzyme_width;",
        "double __enzyme_autodiff(void *, ...);", "double __enzyme_fwddiff(void *, ...);",
        *helpers, *functions, HARNESS,
        f"int main(void) {{\n{checks}\n  printf(bad ? \"BAD\\n\" : \"ALL OK\\n\");\n  return bad;\n}}", ""])


if __name__ == "__main__":
    sys.stdout.write(program(int(sys.argv[1]), int(sys.argv[2])))

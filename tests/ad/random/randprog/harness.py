"""The C side of the tester: comparisons, the per-function check macros and ``main``'s report format.

The program prints ``BEGIN f<i>`` before checking a function (so a crash names it), one ``MISMATCH`` line per
failed comparison, ``DONE f<i> <checks> <mismatches>`` after it, and ``ALL OK`` or ``BAD`` at the end.
Comparisons where either side is not finite are skipped: ``0 * inf`` at a kink of ``cbrt`` or an overflowing
``pow`` says nothing about the engine, and one mode may meet such a product where another does not (forward
mode multiplies the infinite partial by a zero tangent, reverse mode never forms that product).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Program:
    """A generated C program and the kind of each of its functions f0, f1, ..."""

    source: str
    kinds: tuple[str, ...]

COMMON = r"""
struct pair { double a, b; };
static int checks = 0, mismatches = 0, before = 0;
static int close_to(double got, double want, double rtol) {
  return !isfinite(got) || !isfinite(want) || fabs(got - want) <= rtol * (1 + fabs(want));
}
static void expect(const char *fn, const char *what, int k, double got, double want, double rtol) {
  checks++;
  if (!close_to(got, want, rtol)) {
    mismatches++;
    printf("MISMATCH %s x%d %s: got %.17g want %.17g\n", fn, k, what, got, want);
  }
}
static void begin(const char *fn) { printf("BEGIN %s\n", fn); fflush(stdout); before = mismatches; }
static void done(const char *fn, int first_check) {
  printf("DONE %s %d %d\n", fn, checks - first_check, mismatches - before);
  fflush(stdout);
}
/* Reverse mode into dx, batch reverse (width 2) into r1 and r2 (both lanes seeded with the same adjoint). */
#define REVERSE_ALL(f, x, dx, r1, r2) do {                                                                    \
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 5);                                         \
  __enzyme_autodiff((void *)f, enzyme_width, 2, enzyme_dup, x, r1, r2, enzyme_const, 5);                    \
} while (0)
/* Forward mode along e_k into fw, batch forward along e_k and e_{k+1} into w. */
#define FORWARD_ALL(f, x, k, fw, w) do {                                                                      \
  double t[4] = {0, 0, 0, 0}, t2[4] = {0, 0, 0, 0};                                                         \
  t[k] = 1; t2[(k + 1) % 4] = 1;                                                                            \
  fw = __enzyme_fwddiff((void *)f, enzyme_dup, x, t, enzyme_const, 5);                                      \
  w = ((struct pair (*)(void *, ...))__enzyme_fwddiff)((void *)f, enzyme_width, 2, enzyme_dup, x, t, t2,    \
                                                       enzyme_const, 5);                                    \
} while (0)
/* Every mode against every other: forward against reverse within mode_tol (they sum in different orders),
   each batch lane against its one-lane mode exactly. */
#define MODES_AGREE(name, k, dx, fw, w, r1, r2, mode_tol) do {                                                \
  expect(name, "forward vs reverse", k, fw, dx[k], mode_tol);                                               \
  expect(name, "batch forward lane 0 vs forward", k, w.a, fw, 1e-12);                                       \
  expect(name, "batch forward lane 1 vs reverse", (k + 1) % 4, w.b, dx[(k + 1) % 4], mode_tol);             \
  expect(name, "batch reverse lane 0 vs reverse", k, r1[k], dx[k], 1e-12);                                  \
  expect(name, "batch reverse lane 1 vs reverse", k, r2[k], dx[k], 1e-12);                                  \
} while (0)
"""

# Away from kinks: every mode against central differences.
SMOOTH = r"""
#define CHECK(name, f) do {                                                                                   \
  begin(name); int first = checks;                                                                          \
  double x[4] = {0.31, -0.72, 0.55, 1.13}, dx[4] = {0}, r1[4] = {0}, r2[4] = {0};                           \
  REVERSE_ALL(f, x, dx, r1, r2);                                                                            \
  for (int k = 0; k < 4; k++) {                                                                             \
    double h = 1e-6, o = x[k];                                                                              \
    x[k] = o + h; double p = f(x, 5); x[k] = o - h; double m = f(x, 5); x[k] = o;                           \
    double fw; struct pair w;                                                                               \
    FORWARD_ALL(f, x, k, fw, w);                                                                            \
    expect(name, "reverse vs central difference", k, dx[k], (p - m) / (2 * h), 2e-5);                       \
    MODES_AGREE(name, k, dx, fw, w, r1, r2, 1e-9);                                                          \
  }                                                                                                         \
  done(name, first);                                                                                        \
} while (0)
"""

# At kinks (see randprog/kinks.py for why these checks are valid there): x[0] == x[1] == 0 with opposite
# signs, x[2] == x[3]; the modes must agree exactly, and with ``one_sided`` the forward derivative must be
# the left or the right difference quotient (second order, so the smooth side is resolved to ~h^2).
KINKS = r"""
#define KINK_CHECK(name, f, one_sided, mode_tol) do {                                                         \
  begin(name); int first = checks;                                                                          \
  const double points[2][4] = {{0.0, -0.0, 0.625, 0.625}, {-0.0, 0.0, -0.4, -0.4}};                         \
  for (int q = 0; q < 2; q++) {                                                                             \
    double x[4], dx[4] = {0}, r1[4] = {0}, r2[4] = {0};                                                     \
    for (int k = 0; k < 4; k++) x[k] = points[q][k];                                                        \
    REVERSE_ALL(f, x, dx, r1, r2);                                                                          \
    for (int k = 0; k < 4; k++) {                                                                           \
      double fw; struct pair w;                                                                             \
      FORWARD_ALL(f, x, k, fw, w);                                                                          \
      MODES_AGREE(name, k, dx, fw, w, r1, r2, mode_tol);                                                    \
      if (one_sided) {                                                                                      \
        double h = 1e-5, o = x[k], here = f(x, 5), fp[2], fm[2];                                              \
        for (int s = 1; s <= 2; s++) {                                                                      \
          x[k] = o + s * h; fp[s - 1] = f(x, 5); x[k] = o - s * h; fm[s - 1] = f(x, 5); x[k] = o;           \
        }                                                                                                   \
        double right = (-3 * here + 4 * fp[0] - fp[1]) / (2 * h), left = (3 * here - 4 * fm[0] + fm[1]) / (2 * h); \
        checks++;                                                                                           \
        if (!close_to(fw, right, 1e-6) && !close_to(fw, left, 1e-6)) {                                      \
          mismatches++;                                                                                     \
          printf("MISMATCH %s x%d at point %d: forward %.17g is neither one-sided derivative "             \
                 "(left %.17g right %.17g)\n", name, k, q, fw, left, right);                                \
        }                                                                                                   \
      }                                                                                                     \
    }                                                                                                       \
  }                                                                                                         \
  done(name, first);                                                                                        \
} while (0)
"""

HEADERS = ("#include <math.h>", "#include <stdio.h>", "#include <stdlib.h>", "#include <stdint.h>",
           "#include <string.h>", "extern int enzyme_dup, enzyme_const, enzyme_width;",
           "double __enzyme_autodiff(void *, ...);", "double __enzyme_fwddiff(void *, ...);")


def main(calls: list[str]) -> str:
    body = "\n".join(f"  {c}" for c in calls)
    report = 'printf(mismatches ? "BAD\\n" : "ALL OK\\n");'
    return f"int main(void) {{\n{body}\n  {report}\n  return mismatches != 0;\n}}"

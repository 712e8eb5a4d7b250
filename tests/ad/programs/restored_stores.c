#include "check.h"
/* Functions that read their inputs in loops and then write the result through an argument: the reverse
   sweep re-reads the inputs instead of taping them, putting back what the result stores overwrote
   (enzyme/ad/reread.py), which matters when the result pointer aliases an input. */
void sq_out(const double *x, int n, double *out) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i] * (1 + 0.1 * i);
  *out = s;
}
/* Two stores; the second loop reads the inputs after the first store (it sees the stored value when
   out aliases x). */
void two_stores(const double *x, int n, double *out) {
  double s = 0;
  for (int i = 0; i < n; i++) s += sin(x[i]) * x[i];
  *out = s;
  double t = 0;
  for (int i = 0; i < n; i++) t += x[i] * x[i] * x[i];
  *out = *out * 0.5 + t;
}

enum { N = 6 };
/* The result, the function applied to a copy of x with out = &copy[at] (at < 0: a separate result). */
static double run(void (*f)(const double *, int, double *), const double *x, int at) {
  double y[N], r;
  for (int k = 0; k < N; k++) y[k] = x[k];
  f(y, N, at < 0 ? &r : &y[at]);
  return at < 0 ? r : y[at];
}

/* The gradient of the result through __enzyme_autodiff (a macro: the function must be known when compiling). */
#define GRADIENT(name, f, at) do { \
  double x[N] = {0.3, -0.7, 1.2, 0.9, -1.5, 0.4}, x0[N], dx[N] = {0}, r = 0, dr = 1; \
  for (int k = 0; k < N; k++) x0[k] = x[k]; \
  double expect_value = run(f, x0, at); \
  if (at < 0) { \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N, enzyme_dup, &r, &dr); \
    check(name, r, expect_value, 1e-14); \
  } else { \
    dx[at] = 1; /* the result's seed, in the shadow of the element it overwrites */ \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N, enzyme_dup, &x[at], &dx[at]); \
    check(name, x[at], expect_value, 1e-14); \
  } \
  for (int k = 0; k < N; k++) { \
    if (k != at) check(name, x[k], x0[k], 0); \
    check(name, dx[k], CENTRAL(run(f, x0, at), x0[k], x0[k]), 1e-6); \
  } \
} while (0)

int main(void) {
  GRADIENT("sq_out", sq_out, -1);
  GRADIENT("sq_out, out = &x[0]", sq_out, 0);
  GRADIENT("sq_out, out = &x[3]", sq_out, 3);
  GRADIENT("two stores", two_stores, -1);
  GRADIENT("two stores, out = &x[2]", two_stores, 2);
  GRADIENT("two stores, out = &x[5]", two_stores, 5);
  return finish();
}

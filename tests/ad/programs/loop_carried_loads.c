#include "check.h"
/* Loops whose optimized form carries a loaded value into the next iteration (x[i+1] becomes the
   next x[i]); the reverse sweep re-reads it for the previous iteration instead of taping it. */
double rosen(const double *x, long n) {
  double s = 0;
  for (long i = 0; i + 1 < n; i++) { double a = x[i + 1] - x[i] * x[i], b = 1.0 - x[i]; s += 100.0 * a * a + b * b; }
  return s;
}
double diffs(const double *x, int n) { double s = 0; for (int i = 1; i < n; i++) { double d = x[i] - x[i - 1]; s += d * d * x[i]; } return s; }
double early_stop(const double *x, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; i++) { if (x[i] > 10.0) break; s += x[i] * x[i + 1]; }
  return s;
}
/* The carried value starts from another array: in iteration 0 it is not the latch's load for iteration -1. */
double seeded(const double *x, const double *y0, int n) {
  double p = y0[0], s = 0;
  for (int i = 0; i < n; i++) { s += p * x[i] * x[i]; p = x[i]; }
  return s;
}

int main(void) {
  enum { N = 7 };
  double x[N] = {0.3, -0.7, 1.2, 0.9, -1.5, 2.0, 0.4}, d[N], w;
  for (int k = 0; k < N; k++) d[k] = 0;
  __enzyme_autodiff((void *)rosen, enzyme_dup, x, d, enzyme_const, (long)N);
  for (int k = 0; k < N; k++) {
    double e = 0;
    if (k + 1 < N) e += -400 * x[k] * (x[k + 1] - x[k] * x[k]) - 2 * (1 - x[k]);
    if (k > 0) e += 200 * (x[k] - x[k - 1] * x[k - 1]);
    check("rosenbrock", d[k], e, 1e-12);
    check("rosenbrock fd", d[k], CENTRAL(rosen(x, N), x[k], x[k]), 1e-6);
  }
  double xd[N] = {1, -1, 0.5, 2, 0, -0.5, 1};
  check("rosenbrock forward = <grad, v>", __enzyme_fwddiff((void *)rosen, enzyme_dup, x, xd, enzyme_const, (long)N),
        dot(d, xd, N), 1e-10);
  for (int k = 0; k < N; k++) d[k] = 0;
  __enzyme_autodiff((void *)diffs, enzyme_dup, x, d, enzyme_const, N);
  for (int k = 0; k < N; k++) check("diffs fd", d[k], CENTRAL(diffs(x, N), x[k], x[k]), 1e-6);
  double y[N] = {0.5, 1.5, 20.0, 3.0, 1.0, 2.0, 1.0};
  for (int k = 0; k < N; k++) d[k] = 0;
  __enzyme_autodiff((void *)early_stop, enzyme_dup, y, d, enzyme_const, N);
  for (int k = 0; k < N; k++) check("early stop fd", d[k], CENTRAL(early_stop(y, N), y[k], y[k]), 1e-6);
  double y0[1] = {-0.8}, dy0[1] = {0};
  for (int k = 0; k < N; k++) d[k] = 0;
  __enzyme_autodiff((void *)seeded, enzyme_dup, x, d, enzyme_dup, y0, dy0, enzyme_const, N);
  for (int k = 0; k < N; k++) check("seeded fd", d[k], CENTRAL(seeded(x, y0, N), x[k], x[k]), 1e-6);
  check("seeded d/dy0", dy0[0], CENTRAL(seeded(x, y0, N), y0[0], y0[0]), 1e-6);
  (void)w;
  return finish();
}

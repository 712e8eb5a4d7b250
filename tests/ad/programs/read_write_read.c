#include "check.h"
/* The same memory read, overwritten and read again: the reverse sweep must use the values from before each write. */
double rwr_loop(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) { double old = x[i]; x[i] = old * old; s += x[i] * old; x[i] = sin(x[i]); s += x[i]; }
  return s;
}
double ping(double *a) { a[0] = a[0] * a[1]; a[1] = a[0] + a[1]; a[0] = a[1] * a[0]; return a[0] + a[1]; }
double aliasing(double *x, double *y) { *y = *x * 2.0; *x = *y * *x; return *x + *y; }

int main(void) {
  enum { N = 3 };
  double x0[N] = {0.4, -0.9, 1.3}, x[N], d[N] = {0};
  for (int i = 0; i < N; i++) x[i] = x0[i];
  __enzyme_autodiff((void *)rwr_loop, enzyme_dup, x, d, enzyme_const, N);
  /* s = sum x^3 + sin(x^2) */
  for (int i = 0; i < N; i++) check("rwr loop", d[i], 3 * x0[i] * x0[i] + 2 * x0[i] * cos(x0[i] * x0[i]), 1e-12);
  double a[2] = {0.7, 1.1}, da[2] = {0}, w[2];
  __enzyme_autodiff((void *)ping, enzyme_dup, a, da);
  /* p = a0 a1; q = p + a1; r = q p; return r + q */
  double p = 0.7 * 1.1, q = p + 1.1;
  double dp = q + 1 + p, dq = p + 1;            /* d(r+q)/dp via r and q, d/dq */
  check("ping d0", da[0], dp * 1.1, 1e-12);
  check("ping d1", da[1], dp * 0.7 + dq, 1e-12);
  #define PING_AT(i, val) ({ w[0] = 0.7; w[1] = 1.1; w[i] = (val); ping(w); })
  double v;
  check("ping d0 central", da[0], CENTRAL(PING_AT(0, v), v, 0.7), 1e-6);
  check("ping d1 central", da[1], CENTRAL(PING_AT(1, v), v, 1.1), 1e-6);
  double xs = 0.6, ys = 5.0, dxs = 0, dys = 0;
  __enzyme_autodiff((void *)aliasing, enzyme_dup, &xs, &dxs, enzyme_dup, &ys, &dys);
  /* y = 2x; x' = 2x^2; return 2x^2 + 2x ; the old value of *y is dead */
  check("aliasing dx", dxs, 4 * 0.6 + 2, 1e-12);
  check("aliasing dy (overwritten input)", dys, 0.0, 0.0);
  return finish();
}

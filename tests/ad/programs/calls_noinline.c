#include "check.h"
/* Calls to noinline functions: helpers with pointer outputs, a helper called twice with different activity,
   helpers whose result is unused, and calls inside loops. */
__attribute__((noinline)) double sq(double x) { return x * x; }
__attribute__((noinline)) void axpy(double a, const double *x, double *y, int n) { for (int i = 0; i < n; i++) y[i] += a * x[i]; }
__attribute__((noinline)) double norm2(const double *x, int n) { double s = 0; for (int i = 0; i < n; i++) s += sq(x[i]); return s; }
__attribute__((noinline)) double logged(double x) { static int calls; calls++; return x; }
double f(double a, double *x, double *y, const double *c, int n) {
  axpy(a, x, y, n);          /* active a, x, y */
  axpy(2.0, c, y, n);        /* only y active */
  (void)logged(a);           /* result unused */
  double s = 0;
  for (int i = 0; i < n; i++) s += sq(y[i]) * 0.5;
  return s + norm2(x, n) * a;
}

int main(void) {
  enum { N = 3 };
  double a = 0.7, x[N] = {1.0, -0.5, 0.25}, y0[N] = {0.3, 0.2, -0.1}, c[N] = {0.5, 0.5, -1.0};
  double y[N], dx[N] = {0}, dy[N] = {0}, w[N];
  for (int i = 0; i < N; i++) y[i] = y0[i];
  double da = __enzyme_autodiff((void *)f, a, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, c, enzyme_const, N);
  double yf[N], nx = 0;
  for (int i = 0; i < N; i++) { yf[i] = y0[i] + a * x[i] + 2 * c[i]; nx += x[i] * x[i]; }
  check("da", da, dot(yf, x, N) + nx, 1e-12);
  for (int i = 0; i < N; i++) {
    check("dx", dx[i], yf[i] * a + 2 * x[i] * a, 1e-12);
    check("dy", dy[i], yf[i], 1e-12);
  }
  double v;
  #define F_AT(av) ({ for (int _i = 0; _i < N; _i++) w[_i] = y0[_i]; f(av, x, w, c, N); })
  check("da central", da, CENTRAL(F_AT(v), v, a), 1e-6);
  double xd[N] = {1, 0, 2}, yd[N] = {0, 1, -1}, xdc[N] = {1, 0, 2}, ydc[N] = {0, 1, -1};
  for (int i = 0; i < N; i++) w[i] = y0[i];
  double fw = __enzyme_fwddiff((void *)f, a, 0.5, enzyme_dup, x, xd, enzyme_dup, w, yd, enzyme_const, c, enzyme_const, N);
  check("forward", fw, 0.5 * da + dot(dx, xdc, N) + dot(dy, ydc, N), 1e-12);
  return finish();
}

#include "check.h"
/* Arguments that alias inside a callee: y += a x with x == y, out = a * b with all three the same array, and
   shifted overlapping windows (the loop-carried dependence through memory must be taped in order). */
__attribute__((noinline)) void axpy(double a, const double *x, double *y, int n) { for (int i = 0; i < n; i++) y[i] += a * x[i]; }
__attribute__((noinline)) void mulinto(const double *a, const double *b, double *out, int n) { for (int i = 0; i < n; i++) out[i] = a[i] * b[i]; }
double alias(double *x, int n) { axpy(2.0, x, x, n); double s = 0; for (int i = 0; i < n; i++) s += x[i] * x[i]; return s; }
double alias2(double *x, int n) { mulinto(x, x, x, n); double s = 0; for (int i = 0; i < n; i++) s += x[i]; return s; }
double alias3(double *x, int n) { mulinto(x, x + 1, x + 1, n - 1); double s = 0; for (int i = 0; i < n; i++) s += x[i]; return s; }
int main(void) {
  double y0[3] = {0.5, -1, 2}, y[3] = {0.5, -1, 2}, dy[3] = {0};
  __enzyme_autodiff((void *)alias, enzyme_dup, y, dy, enzyme_const, 3);
  for (int i = 0; i < 3; i++) check("aliased call args", dy[i], 18 * y0[i], 1e-12);
  double z[3] = {0.5, -1, 2}, dz[3] = {0};
  __enzyme_autodiff((void *)alias2, enzyme_dup, z, dz, enzyme_const, 3);
  for (int i = 0; i < 3; i++) check("x = x*x via call", dz[i], 2 * y0[i], 1e-12);
  double w[4] = {0.5, -1, 2, 1.5}, dw[4] = {0}, w0[4] = {0.5, -1, 2, 1.5}, t[4];
  __enzyme_autodiff((void *)alias3, enzyme_dup, w, dw, enzyme_const, 4);
  for (int i = 0; i < 4; i++) { double v; check("shifted alias central", dw[i], CENTRAL(({ for (int k = 0; k < 4; k++) t[k] = w0[k]; t[i] = v; alias3(t, 4); }), v, w0[i]), 1e-6); }
  double f3[4] = {0.5, -1, 2, 1.5}, fd[4] = {1, 0.5, -2, 1}, fdc[4] = {1, 0.5, -2, 1};
  check("shifted alias forward", __enzyme_fwddiff((void *)alias3, enzyme_dup, f3, fd, enzyme_const, 4), dot(dw, fdc, 4), 1e-12);
  double f1[3] = {0.5, -1, 2}, f1d[3] = {1, 1, 1};
  check("aliased call args forward", __enzyme_fwddiff((void *)alias, enzyme_dup, f1, f1d, enzyme_const, 3), 18 * (0.5 - 1 + 2), 1e-12);
  return finish();
}

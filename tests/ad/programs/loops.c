#include "check.h"
/* Counted, nested and data-dependent loops, early exit, switch. */
double sumsq_cos(const double *x, int n) { double s = 0; for (int i = 0; i < n; i++) s += x[i] * x[i] * cos(x[i]); return s; }
double matvec_norm(const double *a, const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) { double r = 0; for (int j = 0; j < n; j++) r += a[i * n + j] * x[j]; s += r * r; }
  return s;
}
double grow(double x) { double y = x; int k = 0; while (y < 100.0) { y = y * y + 1.0; k++; } return y + k; }
double early(const double *x, int n) {
  double p = 1.0;
  for (int i = 0; i < n; i++) { if (x[i] > 5.0) return p * 2.0; p *= x[i]; }
  return p;
}
double sw(double x, int mode) {
  double r;
  switch (mode) { case 0: r = sin(x); break; case 1: r = x * x * x; break; case 7: r = exp(-x); break; default: r = x; }
  return r * 2.0;
}

int main(void) {
  double x[4] = {0.1, 0.5, 0.9, 1.7}, dx[4] = {0};
  __enzyme_autodiff((void *)sumsq_cos, enzyme_dup, x, dx, enzyme_const, 4);
  for (int i = 0; i < 4; i++) check("sumsq_cos", dx[i], 2 * x[i] * cos(x[i]) - x[i] * x[i] * sin(x[i]), 1e-12);
  double a[9] = {1, 2, 0.5, -1, 3, 0.2, 0.7, -0.4, 2}, da[9] = {0}, dx3[3] = {0}, x3[3] = {0.3, -0.2, 0.8};
  __enzyme_autodiff((void *)matvec_norm, enzyme_dup, a, da, enzyme_dup, x3, dx3, enzyme_const, 3);
  for (int j = 0; j < 3; j++) {
    double v, fd = CENTRAL(matvec_norm(a, x3, 3), x3[j], x3[j]);
    check("matvec_norm dx", dx3[j], fd, 1e-6);
    (void)v;
  }
  for (int k = 0; k < 9; k++) check("matvec_norm da", da[k], CENTRAL(matvec_norm(a, x3, 3), a[k], a[k]), 1e-6);
  double v;
  double dg = __enzyme_autodiff((void *)grow, 1.5);
  check("while loop reverse", dg, CENTRAL(grow(v), v, 1.5), 1e-6);
  check("while loop forward", __enzyme_fwddiff((void *)grow, 1.5, 1.0), dg, 1e-12);
  double y[4] = {1.5, 2.0, 7.0, 3.0}, dy[4] = {0};
  __enzyme_autodiff((void *)early, enzyme_dup, y, dy, enzyme_const, 4);
  check("early exit d0", dy[0], 4.0, 1e-12);
  check("early exit d1", dy[1], 3.0, 1e-12);
  check("early exit d2", dy[2], 0.0, 1e-12);
  check("early exit d3 (never read)", dy[3], 0.0, 1e-12);
  int modes[4] = {0, 1, 7, 3};
  for (int m = 0; m < 4; m++) {
    double r = __enzyme_autodiff((void *)sw, 0.4, enzyme_const, modes[m]);
    check("switch reverse", r, CENTRAL(sw(v, modes[m]), v, 0.4), 1e-6);
    check("switch forward", __enzyme_fwddiff((void *)sw, 0.4, 1.0, enzyme_const, modes[m]), r, 1e-12);
  }
  return finish();
}

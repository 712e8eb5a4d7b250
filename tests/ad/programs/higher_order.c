#include "check.h"
/* Second derivatives by nesting entry points: forward over reverse (Hessian-vector products of a function of an
   array), forward over forward, reverse over forward and reverse over reverse, also where the inner reverse
   sweep's tape grows (realloc) part-way: the outer reverse sweep must move the adjoints of what was pushed
   before the growth (they used to be lost). */
double f(const double *x) { return sin(x[0]) * x[1] * x[1] + exp(x[0] * x[1]); }
void grad(const double *x, double *g) { g[0] = g[1] = 0; __enzyme_autodiff((void *)f, enzyme_dup, x, g); }
double s(double x) { return x * x * x * cos(x); }
double ds(double x) { return __enzyme_fwddiff((void *)s, x, 1.0); }
double g0(const double *x) { double g[2] = {0, 0}; __enzyme_autodiff((void *)f, enzyme_dup, x, g); return g[0]; }
/* Each recursion level tapes a value: a deep recursion grows the tape past its first block. */
double deep(const double *x, int n) {
  if (n == 0) return 0.0;
  double r = deep(x, n - 1);
  return r + x[1] * sin(x[0] * r + 1e-3 * n);
}
double deep_g0(const double *x, int n) {
  double g[2] = {0, 0};
  __enzyme_autodiff((void *)deep, enzyme_dup, x, g, enzyme_const, n);
  return g[0];
}

int main(void) {
  double x[2] = {0.6, -0.9}, e = exp(x[0] * x[1]);
  double H[2][2] = {{-sin(x[0]) * x[1] * x[1] + x[1] * x[1] * e, 2 * cos(x[0]) * x[1] + e + x[0] * x[1] * e},
                    {0, 2 * sin(x[0]) + x[0] * x[0] * e}};
  H[1][0] = H[0][1];
  for (int j = 0; j < 2; j++) {
    double xd[2] = {0, 0}, g[2], gd[2] = {0, 0};
    xd[j] = 1.0;
    __enzyme_fwddiff((void *)grad, enzyme_dup, x, xd, enzyme_dup, g, gd);
    for (int i = 0; i < 2; i++) check("Hessian column (forward over reverse)", gd[i], H[i][j], 1e-12);
    check("gradient computed alongside", g[0], cos(x[0]) * x[1] * x[1] + x[1] * e, 1e-12);
  }
  double y = 1.1, v;
  double d2 = 6 * y * cos(y) - 6 * y * y * sin(y) - y * y * y * cos(y);
  check("forward over forward", __enzyme_fwddiff((void *)ds, y, 1.0), d2, 1e-12);
  check("forward over forward central", CENTRAL(ds(v), v, y), d2, 1e-6);
  check("reverse over forward", __enzyme_autodiff((void *)ds, y), d2, 1e-12);
  double dg[2] = {0, 0};
  __enzyme_autodiff((void *)g0, enzyme_dup, x, dg);
  for (int i = 0; i < 2; i++) check("Hessian row 0 (reverse over reverse)", dg[i], H[0][i], 1e-12);
  const int depths[3] = {5, 100, 700};
  for (int k = 0; k < 3; k++) {
    int n = depths[k];
    double xs[2] = {0.6, 0.9}, dd[2] = {0, 0};
    __enzyme_autodiff((void *)deep_g0, enzyme_dup, xs, dd, enzyme_const, n);
    for (int i = 0; i < 2; i++) {
      double t[2] = {0, 0}, xc[2] = {xs[0], xs[1]};
      t[i] = 1.0;
      check("deep Hessian row 0 (reverse over reverse vs forward over reverse)", dd[i],
            __enzyme_fwddiff((void *)deep_g0, enzyme_dup, xs, t, enzyme_const, n), 1e-10);
      check("deep Hessian row 0 central", dd[i], CENTRAL(deep_g0(xc, n), xc[i], xs[i]), 1e-6);
    }
  }
  return finish();
}

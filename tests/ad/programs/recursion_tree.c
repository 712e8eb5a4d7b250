#include "check.h"
/* Divide-and-conquer recursion over an array (two recursive calls per level) and recursion with a pointer walk. */
double tree_sum(const double *x, int lo, int hi) {
  if (hi - lo == 1) return x[lo] * x[lo];
  int mid = (lo + hi) / 2;
  double l = tree_sum(x, lo, mid), r = tree_sum(x, mid, hi);
  return l * 0.5 + r * 1.5 + l * r * 0.1;
}
double horner_rec(const double *c, int n, double x) { return n == 0 ? 0.0 : c[0] + x * horner_rec(c + 1, n - 1, x); }

int main(void) {
  enum { N = 6 };
  double x[N] = {0.5, -0.2, 0.9, 0.3, -0.7, 1.1}, d[N] = {0}, xd[N] = {1, 0, -1, 2, 0.5, 0.25};
  __enzyme_autodiff((void *)tree_sum, enzyme_dup, x, d, enzyme_const, 0, enzyme_const, N);
  for (int i = 0; i < N; i++) check("tree recursion central", d[i], CENTRAL(tree_sum(x, 0, N), x[i], x[i]), 1e-6);
  check("tree recursion forward", __enzyme_fwddiff((void *)tree_sum, enzyme_dup, x, xd, enzyme_const, 0, enzyme_const, N), dot(d, xd, N), 1e-12);
  double c[4] = {1.0, -0.5, 0.25, 2.0}, dc[4] = {0}, t = 0.7, v;
  double dt = __enzyme_autodiff((void *)horner_rec, enzyme_dup, c, dc, enzyme_const, 4, t);
  check("recursive horner d/dx", dt, c[1] + 2 * c[2] * t + 3 * c[3] * t * t, 1e-12);
  for (int i = 0; i < 4; i++) check("recursive horner d/dc", dc[i], pow(t, i), 1e-12);
  check("recursive horner central", dt, CENTRAL(horner_rec(c, 4, v), v, t), 1e-6);
  double cz[4] = {0};
  check("recursive horner forward", __enzyme_fwddiff((void *)horner_rec, enzyme_dup, c, cz, enzyme_const, 4, t, 1.0), dt, 1e-12);
  return finish();
}

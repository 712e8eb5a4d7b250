#include "check.h"
/* Ternaries that become select instructions: on active values, on pointers (select between two arrays),
   branch-free max/abs idioms, and a select whose condition depends on an int argument. */
double relu_sum(const double *x, int n) { double s = 0; for (int i = 0; i < n; i++) s += x[i] > 0 ? x[i] : 0.1 * x[i]; return s; }
double pick_array(const double *a, const double *b, int use_a, int n) {
  const double *p = use_a ? a : b;
  double s = 0;
  for (int i = 0; i < n; i++) s += p[i] * p[i];
  return s;
}
double smooth_abs(double x) { return x * x < 1e-2 ? x * x * 50 + 0.005 : (x < 0 ? -x : x); }
double huber(double r, double delta) { double a = fabs(r); return a <= delta ? 0.5 * r * r : delta * (a - 0.5 * delta); }

int main(void) {
  enum { N = 5 };
  double x[N] = {0.5, -1.0, 2.0, -0.3, 0.1}, d[N] = {0}, xd[N] = {1, 1, 1, 1, 1};
  __enzyme_autodiff((void *)relu_sum, enzyme_dup, x, d, enzyme_const, N);
  for (int i = 0; i < N; i++) check("leaky relu select", d[i], x[i] > 0 ? 1.0 : 0.1, 1e-12);
  check("leaky relu forward", __enzyme_fwddiff((void *)relu_sum, enzyme_dup, x, xd, enzyme_const, N), 3.2, 1e-12);
  double a[3] = {1, 2, 3}, b[3] = {-1, 0.5, 4}, da[3] = {0}, db[3] = {0};
  for (int use_a = 0; use_a < 2; use_a++) {
    for (int i = 0; i < 3; i++) da[i] = db[i] = 0;
    __enzyme_autodiff((void *)pick_array, enzyme_dup, a, da, enzyme_dup, b, db, enzyme_const, use_a, enzyme_const, 3);
    for (int i = 0; i < 3; i++) {
      check("pointer select: chosen array", use_a ? da[i] : db[i], 2 * (use_a ? a[i] : b[i]), 1e-12);
      check("pointer select: other array", use_a ? db[i] : da[i], 0.0, 0.0);
    }
  }
  CHECK_SCALAR("smooth abs inner", smooth_abs, 0.05, 100 * 0.05);
  CHECK_SCALAR("smooth abs negative", smooth_abs, -0.7, -1.0);
  CHECK_SCALAR("smooth abs positive", smooth_abs, 0.7, 1.0);
  double v;
  double rs[3] = {0.3, -2.0, 1.5};
  for (int k = 0; k < 3; k++) {
    double r = rs[k], g = fabs(r) <= 1.0 ? r : (r < 0 ? -1.0 : 1.0);
    check("huber reverse", __enzyme_autodiff((void *)huber, r, enzyme_const, 1.0), g, 1e-12);
    check("huber forward", __enzyme_fwddiff((void *)huber, r, 1.0, enzyme_const, 1.0), g, 1e-12);
    check("huber central", CENTRAL(huber(v, 1.0), v, r), g, 1e-6);
  }
  return finish();
}

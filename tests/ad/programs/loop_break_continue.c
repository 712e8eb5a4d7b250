#include "check.h"
/* break and continue on data; a loop with two exits; nested loop with labelled-style early outer exit. */
double skip_negative(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) { if (x[i] < 0) continue; if (s > 5.0) break; s += x[i] * x[i]; }
  return s;
}
double two_exits(const double *x, int n, double lim) {
  double p = 1;
  for (int i = 0; i < n; i++) {
    if (x[i] == 0.0) return 0.0;
    p *= x[i];
    if (fabs(p) > lim) return p * 0.5;
  }
  return p;
}
double nested_break(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    int done = 0;
    for (int j = 0; j < n; j++) { if (j > i) break; s += x[i] * x[j]; if (s > 4.0) { done = 1; break; } }
    if (done) break;
  }
  return s;
}

int main(void) {
  enum { N = 6 };
  double x[N] = {1.0, -2.0, 1.5, 2.2, 0.3, 0.7}, d[N] = {0}, xd[N] = {0.5, 1, -1, 2, 3, -0.5};
  __enzyme_autodiff((void *)skip_negative, enzyme_dup, x, d, enzyme_const, N);
  /* 1 + 2.25 = 3.25, + 4.84 = 8.09 > 5 -> break before 0.3 */
  double exp_sn[N] = {2.0, 0, 3.0, 4.4, 0, 0};
  for (int i = 0; i < N; i++) check("break/continue", d[i], exp_sn[i], 1e-12);
  check("break/continue forward", __enzyme_fwddiff((void *)skip_negative, enzyme_dup, x, xd, enzyme_const, N), dot(exp_sn, xd, N), 1e-12);
  for (double lim = 1.5; lim <= 10; lim += 8.5) {  /* away from the threshold, so the branch is stable under FD */
    double d2[N] = {0};
    __enzyme_autodiff((void *)two_exits, enzyme_dup, x, d2, enzyme_const, N, enzyme_const, lim);
    for (int i = 0; i < N; i++) check("two exits central", d2[i], CENTRAL(two_exits(x, N, lim), x[i], x[i]), 1e-6);
    check("two exits forward", __enzyme_fwddiff((void *)two_exits, enzyme_dup, x, xd, enzyme_const, N, enzyme_const, lim), dot(d2, xd, N), 1e-12);
  }
  double d3[N] = {0};
  __enzyme_autodiff((void *)nested_break, enzyme_dup, x, d3, enzyme_const, N);
  for (int i = 0; i < N; i++) check("nested break central", d3[i], CENTRAL(nested_break(x, N), x[i], x[i]), 1e-6);
  check("nested break forward", __enzyme_fwddiff((void *)nested_break, enzyme_dup, x, xd, enzyme_const, N), dot(d3, xd, N), 1e-12);
  return finish();
}

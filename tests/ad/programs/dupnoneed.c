#include "check.h"
/* enzyme_dupnoneed: the primal output buffer need not be computed, only its shadow; plus const pointers. */
void model(const double *p, const double *xs, double *ys, int n) { for (int i = 0; i < n; i++) ys[i] = p[0] * exp(p[1] * xs[i]) + p[2]; }

int main(void) {
  enum { N = 4 };
  double p[3] = {1.5, -0.7, 0.2}, xs[N] = {0.0, 0.5, 1.0, 1.5}, ys[N] = {0}, ybar[N] = {1, 1, 1, 1}, dp[3] = {0};
  __enzyme_autodiff((void *)model, enzyme_dup, p, dp, enzyme_const, xs, enzyme_dupnoneed, ys, ybar, enzyme_const, N);
  double g0 = 0, g1 = 0;
  for (int i = 0; i < N; i++) { g0 += exp(p[1] * xs[i]); g1 += p[0] * xs[i] * exp(p[1] * xs[i]); }
  check("dupnoneed reverse dp0", dp[0], g0, 1e-12);
  check("dupnoneed reverse dp1", dp[1], g1, 1e-12);
  check("dupnoneed reverse dp2", dp[2], (double)N, 1e-12);
  double pd[3] = {0, 1, 0}, yd[N] = {0}, yy[N] = {0};
  __enzyme_fwddiff((void *)model, enzyme_dup, p, pd, enzyme_const, xs, enzyme_dupnoneed, yy, yd, enzyme_const, N);
  for (int i = 0; i < N; i++) check("dupnoneed forward tangent", yd[i], p[0] * xs[i] * exp(p[1] * xs[i]), 1e-12);
  double v;
  double ysum_p1 = CENTRAL(({ model(p, xs, yy, N); yy[0] + yy[1] + yy[2] + yy[3]; }), p[1], p[1]);
  check("dupnoneed central", dp[1], ysum_p1, 1e-6);
  (void)v;
  return finish();
}

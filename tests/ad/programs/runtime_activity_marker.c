#include "check.h"
/* enzyme_runtime_activity, placed last as mfem-style codes do: the derivatives are those without it
   (pyenzyme decides activity at build time), in both modes. */
extern int enzyme_runtime_activity;

void damped(const double *k, double *u, const double *c, int n) {
  for (int i = 0; i < n; i++) u[i] = k[i] * sin(u[i]) * exp(-c[0] * i);
}

int main(void) {
  enum { N = 3 };
  double k[N] = {1.0, 2.0, 3.0}, c[1] = {0.25}, u[N] = {0.1, 0.2, 0.3}, du[N] = {1, 1, 1}, dk[N] = {0};
  double u0[N] = {0.1, 0.2, 0.3};
  __enzyme_autodiff((void *)damped, enzyme_dup, k, dk, enzyme_dup, u, du, enzyme_const, c, enzyme_const, N,
                    enzyme_runtime_activity);
  for (int i = 0; i < N; i++) {
    check("reverse du", du[i], k[i] * cos(u0[i]) * exp(-c[0] * i), 1e-12);
    check("reverse dk", dk[i], sin(u0[i]) * exp(-c[0] * i), 1e-12);
  }
  double v[N] = {0.1, 0.2, 0.3}, dv[N] = {1, 0, 0}, zk[N] = {0, 0, 1};
  __enzyme_fwddiff((void *)damped, enzyme_dup, k, zk, enzyme_dup, v, dv, enzyme_const, c, enzyme_const, N,
                   enzyme_runtime_activity);
  check("forward dv0", dv[0], k[0] * cos(0.1), 1e-12);
  check("forward dv2", dv[2], sin(0.3) * exp(-c[0] * 2), 1e-12);
  double w[N] = {0.1, 0.2, 0.3};
  double fd = CENTRAL(({ double t[N] = {0.1, 0.2, 0.3}; damped(k, t, c, N); t[2]; }), k[2], k[2]);
  check("central dk2", dk[2], fd, 1e-6);
  (void)w;
  return finish();
}

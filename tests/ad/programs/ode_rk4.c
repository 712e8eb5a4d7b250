#include "check.h"
/* Classic RK4 for a damped pendulum with a parameter array; the sensitivity of the final state to the
   parameters and the initial state, checked against central differences and forward mode. */
static void rhs(const double *y, const double *p, double *dy) { dy[0] = y[1]; dy[1] = -p[0] * sin(y[0]) - p[1] * y[1]; }
double simulate(double *y, const double *p, int steps, double dt) {
  double k1[2], k2[2], k3[2], k4[2], t[2];
  for (int s = 0; s < steps; s++) {
    rhs(y, p, k1);
    for (int i = 0; i < 2; i++) t[i] = y[i] + 0.5 * dt * k1[i];
    rhs(t, p, k2);
    for (int i = 0; i < 2; i++) t[i] = y[i] + 0.5 * dt * k2[i];
    rhs(t, p, k3);
    for (int i = 0; i < 2; i++) t[i] = y[i] + dt * k3[i];
    rhs(t, p, k4);
    for (int i = 0; i < 2; i++) y[i] += dt / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  }
  return y[0] * y[0] + 0.5 * y[1];
}

int main(void) {
  double y0[2] = {1.0, 0.0}, p[2] = {9.81, 0.3}, y[2] = {1.0, 0.0}, dy[2] = {0}, dp[2] = {0}, w[2];
  __enzyme_autodiff((void *)simulate, enzyme_dup, y, dy, enzyme_dup, p, dp, enzyme_const, 40, enzyme_const, 0.025);
  #define SIM() ({ w[0] = y0[0]; w[1] = y0[1]; simulate(w, p, 40, 0.025); })
  double v;
  check("d/dy0 central", dy[0], CENTRAL(({ w[0] = v; w[1] = y0[1]; simulate(w, p, 40, 0.025); }), v, y0[0]), 1e-6);
  check("d/dv0 central", dy[1], CENTRAL(({ w[0] = y0[0]; w[1] = v; simulate(w, p, 40, 0.025); }), v, y0[1]), 1e-6);
  check("d/dp0 central", dp[0], CENTRAL(SIM(), p[0], p[0]), 1e-6);
  check("d/dp1 central", dp[1], CENTRAL(SIM(), p[1], p[1]), 1e-6);
  double yd[2] = {0.5, -1.0}, pd[2] = {0.1, 2.0}, ydc[2] = {0.5, -1.0};
  w[0] = y0[0]; w[1] = y0[1];
  double fw = __enzyme_fwddiff((void *)simulate, enzyme_dup, w, yd, enzyme_dup, p, pd, enzyme_const, 40, enzyme_const, 0.025);
  check("forward", fw, dot(dy, ydc, 2) + dot(dp, pd, 2), 1e-10);
  return finish();
}

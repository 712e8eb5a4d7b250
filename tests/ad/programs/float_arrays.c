#include "check.h"
/* Float arrays through pointers: gradients written into float shadows; accumulation in double. */
float energy(const float *x, int n) {
  float e = 0.0f;
  for (int i = 0; i + 1 < n; i++) { float d = x[i + 1] - x[i]; e += d * d * 0.5f; }
  return e + x[0] * x[0];
}
double mixed_acc(const float *x, int n) { double s = 0; for (int i = 0; i < n; i++) s += (double)x[i] * x[i] * (i + 1); return s; }
void scale_out(const float *x, float *y, int n) { for (int i = 0; i < n; i++) y[i] = x[i] * x[i] * 3.0f; }
float __enzyme_autodiff_f(void *, ...);

int main(void) {
  float x[5] = {0.5f, -0.25f, 1.0f, 2.0f, 0.75f}, dx[5] = {0};
  __enzyme_autodiff_f((void *)energy, enzyme_dup, x, dx, enzyme_const, 5);
  for (int i = 0; i < 5; i++) {
    double g = (i == 0 ? 2 * x[0] : 0) + (i > 0 ? (double)x[i] - x[i - 1] : 0) - (i < 4 ? (double)x[i + 1] - x[i] : 0);
    check("energy gradient", dx[i], g, 1e-6);
    check("energy central", CENTRAL_H(energy(x, 5), x[i], x[i], 1e-3), g, 2e-3);
  }
  float ddx[5] = {0};
  __enzyme_autodiff((void *)mixed_acc, enzyme_dup, x, ddx, enzyme_const, 5);
  for (int i = 0; i < 5; i++) check("double accumulation of floats", ddx[i], 2.0 * x[i] * (i + 1), 1e-6);
  float y[5], ybar[5] = {1, 2, 3, 4, 5}, xbar[5] = {0}, xdot[5] = {1, 0.5f, -1, 2, 0}, ydot[5] = {0};
  __enzyme_fwddiff((void *)scale_out, enzyme_dup, x, xdot, enzyme_dup, y, ydot, enzyme_const, 5);
  double lhs = 0;
  for (int i = 0; i < 5; i++) { check("float forward", ydot[i], 6.0 * x[i] * xdot[i], 1e-6); lhs += ybar[i] * ydot[i]; }
  __enzyme_autodiff((void *)scale_out, enzyme_dup, x, xbar, enzyme_dup, y, ybar, enzyme_const, 5);
  double rhs = 0;
  for (int i = 0; i < 5; i++) rhs += xbar[i] * xdot[i];
  check("float <ybar, J xdot> = <J^T ybar, xdot>", lhs, rhs, 1e-6);
  return finish();
}

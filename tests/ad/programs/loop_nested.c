#include "check.h"
/* Doubly nested loops: quadratic form, triangular loop with inner bound from the outer index. */
double quad(const double *A, const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) s += x[i] * A[i * n + j] * x[j];
  return s;
}
double triangular(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) { double t = 0; for (int j = 0; j <= i; j++) t += x[j] * x[i - j]; s += t * t; }
  return s;
}

int main(void) {
  enum { N = 4 };
  double A[N * N], x[N] = {0.5, -1.0, 0.25, 1.5}, dA[N * N] = {0}, dx[N] = {0};
  for (int k = 0; k < N * N; k++) A[k] = 0.1 * (k % 5) - 0.3 * (k % 3);
  __enzyme_autodiff((void *)quad, enzyme_dup, A, dA, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    double g = 0;
    for (int j = 0; j < N; j++) g += (A[i * N + j] + A[j * N + i]) * x[j];
    check("quad dx analytic", dx[i], g, 1e-12);
    for (int j = 0; j < N; j++) check("quad dA analytic", dA[i * N + j], x[i] * x[j], 1e-12);
  }
  double dt[N] = {0};
  __enzyme_autodiff((void *)triangular, enzyme_dup, x, dt, enzyme_const, N);
  double xd[N] = {0.3, 1.0, -2.0, 0.5};
  for (int i = 0; i < N; i++) check("triangular central", dt[i], CENTRAL(triangular(x, N), x[i], x[i]), 1e-6);
  check("triangular forward", __enzyme_fwddiff((void *)triangular, enzyme_dup, x, xd, enzyme_const, N), dot(dt, xd, N), 1e-12);
  return finish();
}

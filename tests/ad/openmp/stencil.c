/* Explicit heat-equation steps with a nonlinear source, as a solver's inner loop is parallelized:
   `parallel for` per step (static schedule), buffers swapped between steps, then an energy. A second
   variant does both sweeps of a step in one parallel region: two `omp for` loops with the implicit
   barrier between them, then a `single` block. */
#include "omp_check.h"
enum { N = 40, STEPS = 3 };

double heat(double *u, double *v, int n, double k) {
  for (int s = 0; s < STEPS; s++) {
#pragma omp parallel for
    for (int i = 1; i < n - 1; i++) v[i] = u[i] + k * (u[i - 1] - 2 * u[i] + u[i + 1]) - 0.1 * u[i] * u[i];
    v[0] = u[0];
    v[n - 1] = u[n - 1];
    double *t = u; u = v; v = t;
  }
  double e = 0;
  for (int i = 0; i < n; i++) e += u[i] * u[i] * (1 + 0.01 * i);
  return e;
}

void two_sweeps(const double *x, double *flux, double *y, int n) {
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n - 1; i++) flux[i] = (x[i + 1] - x[i]) * (x[i + 1] + x[i]);
#pragma omp for
    for (int i = 1; i < n - 1; i++) y[i] = flux[i] - flux[i - 1] + x[i] * flux[i];
#pragma omp single
    y[n - 1] = flux[n - 2] * x[0];
  }
}

static double work_u[N], work_v[N], work_f[N], work_y[N];

static double heat_of(double *x) {
  memcpy(work_u, x, sizeof work_u);
  return heat(work_u, work_v, N, 0.2);
}

static double sweeps_of(double *x) {
  memset(work_y, 0, sizeof work_y);
  two_sweeps(x, work_f, work_y, N);
  double s = 0;
  for (int i = 0; i < N; i++) s += work_y[i] * work_y[i];
  return s;
}

int main(void) {
  double x[N], fd[N], dx[N], du[N], dv[N], df[N], dy[N], u[N], v[N], f[N], y[N];
  for (int i = 0; i < N; i++) x[i] = sin(0.3 * i) + 0.5;
  /* heat: reverse over all inputs, forward one input at a time */
  central_gradient(heat_of, x, N, fd);
  memcpy(u, x, sizeof u);
  memset(du, 0, sizeof du);
  memset(dv, 0, sizeof dv);
  __enzyme_autodiff((void *)heat, enzyme_dup, u, du, enzyme_dup, v, dv, enzyme_const, N, enzyme_const, 0.2);
  for (int i = 0; i < N; i++) check("heat reverse", i, du[i], fd[i], 1e-6);
  for (int i = 0; i < N; i++) {
    memcpy(u, x, sizeof u);
    memset(du, 0, sizeof du);
    memset(dv, 0, sizeof dv);
    du[i] = 1;
    double d = __enzyme_fwddiff((void *)heat, enzyme_dup, u, du, enzyme_dup, v, dv, enzyme_const, N, enzyme_const, 0.2);
    check("heat forward", i, d, fd[i], 1e-6);
  }
  /* two sweeps in one region: reverse with y's adjoint 2y, forward along each input */
  central_gradient(sweeps_of, x, N, fd);
  memset(y, 0, sizeof y);
  two_sweeps(x, f, y, N);
  for (int i = 0; i < N; i++) dy[i] = 2 * y[i];
  memset(dx, 0, sizeof dx);
  memset(df, 0, sizeof df);
  __enzyme_autodiff((void *)two_sweeps, enzyme_dup, x, dx, enzyme_dup, f, df, enzyme_dup, y, dy, enzyme_const, N);
  for (int i = 0; i < N; i++) check("two sweeps reverse", i, dx[i], fd[i], 1e-6);
  for (int i = 0; i < N; i++) {
    memset(dx, 0, sizeof dx);
    memset(df, 0, sizeof df);
    memset(dy, 0, sizeof dy);
    memset(y, 0, sizeof y);
    dx[i] = 1;
    __enzyme_fwddiff((void *)two_sweeps, enzyme_dup, x, dx, enzyme_dup, f, df, enzyme_dup, y, dy, enzyme_const, N);
    double d = 0;
    for (int j = 0; j < N; j++) d += 2 * y[j] * dy[j];
    check("two sweeps forward", i, d, fd[i], 1e-6);
  }
  return finish();
}

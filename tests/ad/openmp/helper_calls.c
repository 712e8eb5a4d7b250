/* A finite-volume residual whose parallel loop calls a flux helper, which calls an equation of state:
   calls from the parallel body, nested two deep. */
#include "omp_check.h"
enum { N = 31 };

__attribute__((noinline)) static double pressure(double rho) { return pow(rho, 1.4) + 0.5 * rho; }

__attribute__((noinline)) static double flux(const double *u, int i) {
  double left = pressure(u[i - 1]), right = pressure(u[i + 1]);
  return 0.5 * (right - left) + u[i] * u[i] * 0.1;
}

double residual(const double *u, double *r, int n) {
#pragma omp parallel for
  for (int i = 1; i < n - 1; i++) r[i] = flux(u, i) - u[i];
  double s = 0;
  for (int i = 1; i < n - 1; i++) s += r[i] * r[i];
  return s;
}

static double rbuf[N];
static double residual_of(double *u) { return residual(u, rbuf, N); }

int main(void) {
  double u[N], fd[N], du[N], dr[N];
  for (int i = 0; i < N; i++) u[i] = 1.0 + 0.3 * sin(0.4 * i);
  central_gradient(residual_of, u, N, fd);
  memset(du, 0, sizeof du);
  memset(dr, 0, sizeof dr);
  __enzyme_autodiff((void *)residual, enzyme_dup, u, du, enzyme_dup, rbuf, dr, enzyme_const, N);
  for (int i = 0; i < N; i++) check("residual reverse", i, du[i], fd[i], 1e-6);
  for (int i = 0; i < N; i++) {
    memset(du, 0, sizeof du);
    memset(dr, 0, sizeof dr);
    du[i] = 1;
    double d = __enzyme_fwddiff((void *)residual, enzyme_dup, u, du, enzyme_dup, rbuf, dr, enzyme_const, N);
    check("residual forward", i, d, fd[i], 1e-6);
  }
  return finish();
}

/* A parallel loop over libm calls (a damped wave and a log-barrier), then a serial loss. */
#include "omp_check.h"
enum { N = 29 };

double wave_loss(const double *x, double *y, int n, double omega) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++) y[i] = exp(-x[i] * x[i]) * sin(omega * x[i]) + log1p(x[i] * x[i]) + tanh(x[i]);
  double loss = 0;
  for (int i = 0; i < n; i++) loss += y[i] * y[i];
  return loss;
}

static double ybuf[N];
static double loss_of(double *x) { return wave_loss(x, ybuf, N, 2.5); }

int main(void) {
  double x[N], fd[N], dx[N], dy[N];
  for (int i = 0; i < N; i++) x[i] = -1.5 + 0.1 * i;
  central_gradient(loss_of, x, N, fd);
  memset(dx, 0, sizeof dx);
  memset(dy, 0, sizeof dy);
  __enzyme_autodiff((void *)wave_loss, enzyme_dup, x, dx, enzyme_dup, ybuf, dy, enzyme_const, N, enzyme_const, 2.5);
  for (int i = 0; i < N; i++) check("wave reverse", i, dx[i], fd[i], 1e-6);
  for (int i = 0; i < N; i++) {
    memset(dx, 0, sizeof dx);
    memset(dy, 0, sizeof dy);
    dx[i] = 1;
    double d = __enzyme_fwddiff((void *)wave_loss, enzyme_dup, x, dx, enzyme_dup, ybuf, dy, enzyme_const, N,
                                enzyme_const, 2.5);
    check("wave forward", i, d, fd[i], 1e-6);
  }
  return finish();
}

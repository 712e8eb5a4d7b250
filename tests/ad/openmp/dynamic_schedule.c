/* Load-balanced loops (schedule(dynamic) and schedule(guided)): forward mode only; reverse mode refuses
   them (tests/ad/test_openmp.py). */
#include "omp_check.h"
enum { N = 37 };

double balanced(const double *x, double *y, int n) {
#pragma omp parallel for schedule(dynamic, 3)
  for (int i = 0; i < n; i++) {
    double v = x[i];
    for (int k = 0; k < i % 5; k++) v = sin(v) + 0.5 * v;  /* uneven work per iteration */
    y[i] = v * x[i];
  }
  double s = 0;
#pragma omp parallel for schedule(guided) reduction(+ : s)
  for (int i = 0; i < n; i++) s += y[i] * y[i] + exp(0.1 * x[i]);
  return s;
}

static double ybuf[N];
static double balanced_of(double *x) { return balanced(x, ybuf, N); }

int main(void) {
  double x[N], fd[N], dx[N], dy[N];
  for (int i = 0; i < N; i++) x[i] = 0.2 + 0.05 * i;
  central_gradient(balanced_of, x, N, fd);
  for (int i = 0; i < N; i++) {
    memset(dx, 0, sizeof dx);
    memset(dy, 0, sizeof dy);
    dx[i] = 1;
    double d = __enzyme_fwddiff((void *)balanced, enzyme_dup, x, dx, enzyme_dup, ybuf, dy, enzyme_const, N);
    check("balanced forward", i, d, fd[i], 1e-6);
  }
  return finish();
}

/* Clauses around parallel loops: per-thread partial sums indexed by omp_get_thread_num() with a chunked
   static schedule and a `single` block; `if`, `num_threads` and `firstprivate`; `collapse(2)`; max and
   product reductions (forward mode only: reverse mode refuses them, tests/ad/test_openmp.py). */
#include "omp_check.h"
enum { N = 23 };

double partials(const double *x, int n) {
  double part[64] = {0};
  int nt = 1;
#pragma omp parallel
  {
    int t = omp_get_thread_num();
#pragma omp single
    nt = omp_get_num_threads();
#pragma omp for schedule(static, 2)
    for (int i = 0; i < n; i++) part[t] += x[i] * x[i] * x[i];
  }
  double s = 0;
  for (int t = 0; t < nt; t++) s += part[t];
  return s;
}

double scaled(const double *x, double *y, int n, double k) {
#pragma omp parallel for firstprivate(k) num_threads(2) if (n > 3)
  for (int i = 0; i < n; i++) y[i] = k * x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += y[i];
  return s;
}

double collapsed(const double *x, int n) {
  double s = 0;
#pragma omp parallel for collapse(2) reduction(+ : s)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 3; j++) s += x[i] * x[(i + j) % n];
  return s;
}

double peak_and_growth(const double *x, int n) {
  double m = -1e300, p = 1;
#pragma omp parallel for reduction(max : m) reduction(* : p)
  for (int i = 0; i < n; i++) {
    m = fmax(m, sin(x[i]));
    p *= 1 + 0.1 * x[i];
  }
  return m + p;
}

static double ybuf[N];
static double partials_of(double *x) { return partials(x, N); }
static double scaled_of(double *x) { return scaled(x, ybuf, N, 1.7); }
static double collapsed_of(double *x) { return collapsed(x, N); }
static double peak_of(double *x) { return peak_and_growth(x, N); }

int main(void) {
  double x[N], fd[N], dx[N], dy[N];
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.07 * i;

  central_gradient(partials_of, x, N, fd);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)partials, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) check("partials reverse", i, dx[i], fd[i], 1e-6);
  for (int i = 0; i < N; i++) {
    memset(dx, 0, sizeof dx);
    dx[i] = 1;
    check("partials forward", i, __enzyme_fwddiff((void *)partials, enzyme_dup, x, dx, enzyme_const, N), fd[i], 1e-6);
  }

  central_gradient(scaled_of, x, N, fd);
  memset(dx, 0, sizeof dx);
  memset(dy, 0, sizeof dy);
  __enzyme_autodiff((void *)scaled, enzyme_dup, x, dx, enzyme_dup, ybuf, dy, enzyme_const, N, enzyme_const, 1.7);
  for (int i = 0; i < N; i++) check("scaled reverse", i, dx[i], fd[i], 1e-6);
  double sum_sq = 0;
  for (int i = 0; i < N; i++) sum_sq += x[i] * x[i];
  memset(dy, 0, sizeof dy);  /* d/dk through the firstprivate copy, forward mode */
  double dk = __enzyme_fwddiff((void *)scaled, enzyme_const, x, enzyme_dup, ybuf, dy, enzyme_const, N, 1.7, 1.0);
  check("scaled forward dk", 0, dk, sum_sq, 1e-9);

  central_gradient(collapsed_of, x, N, fd);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)collapsed, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) check("collapsed reverse", i, dx[i], fd[i], 1e-6);
  for (int i = 0; i < N; i++) {
    memset(dx, 0, sizeof dx);
    dx[i] = 1;
    check("collapsed forward", i, __enzyme_fwddiff((void *)collapsed, enzyme_dup, x, dx, enzyme_const, N), fd[i],
          1e-6);
  }

  central_gradient(peak_of, x, N, fd);
  for (int i = 0; i < N; i++) {
    memset(dx, 0, sizeof dx);
    dx[i] = 1;
    check("max/product forward", i, __enzyme_fwddiff((void *)peak_and_growth, enzyme_dup, x, dx, enzyme_const, N),
          fd[i], 1e-6);
  }
  return finish();
}

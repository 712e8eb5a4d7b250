#include "check.h"
/* malloc/free inside loops (fresh buffer per iteration), a buffer reused across iterations, nested allocations. */
double per_iteration(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    int m = i + 2;
    double *t = malloc(m * sizeof(double));
    for (int j = 0; j < m; j++) t[j] = x[i] * (j + 1);
    for (int j = 0; j < m; j++) s += sin(t[j]);
    free(t);
  }
  return s;
}
double nested(const double *x, int n) {
  double **rows = malloc(n * sizeof(double *));
  for (int i = 0; i < n; i++) { rows[i] = malloc(2 * sizeof(double)); rows[i][0] = x[i] * x[i]; rows[i][1] = exp(x[i]); }
  double s = 0;
  for (int i = 0; i < n; i++) s += rows[i][0] * rows[(i + 1) % n][1];
  for (int i = 0; i < n; i++) free(rows[i]);
  free(rows);
  return s;
}

int main(void) {
  enum { N = 4 };
  double x[N] = {0.2, -0.5, 0.9, 0.35}, d[N] = {0}, xd[N] = {1, -1, 0.5, 2};
  __enzyme_autodiff((void *)per_iteration, enzyme_dup, x, d, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    double g = 0;
    for (int j = 0; j < i + 2; j++) g += (j + 1) * cos(x[i] * (j + 1));
    check("malloc per iteration", d[i], g, 1e-12);
  }
  check("malloc per iteration forward", __enzyme_fwddiff((void *)per_iteration, enzyme_dup, x, xd, enzyme_const, N), dot(d, xd, N), 1e-12);
  double dn[N] = {0};
  __enzyme_autodiff((void *)nested, enzyme_dup, x, dn, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    double g = 2 * x[i] * exp(x[(i + 1) % N]) + x[(i + N - 1) % N] * x[(i + N - 1) % N] * exp(x[i]);
    check("nested allocations", dn[i], g, 1e-12);
  }
  check("nested allocations forward", __enzyme_fwddiff((void *)nested, enzyme_dup, x, xd, enzyme_const, N), dot(dn, xd, N), 1e-12);
  return finish();
}

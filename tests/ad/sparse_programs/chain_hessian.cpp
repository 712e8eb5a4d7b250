/* A 1-D chain (discrete Laplacian-like) energy: the Hessian of
   E(x) = sum_i (x[i+1]-x[i])^4 + sum_i cos(x[i]) assembled column by column into triplets through
   __enzyme_todense, checked against the analytic Hessian and central differences of the gradient. */
#include "sparse.h"

static double energy(size_t n, const double *x) {
  double e = 0;
  for (size_t i = 0; i + 1 < n; i++) { double d = x[i + 1] - x[i]; e += d * d * d * d; }
  for (size_t i = 0; i < n; i++) e += cos(x[i]);
  return e;
}

static void gradient(size_t n, const double *x, double *g) {
  __enzyme_autodiff((void *)energy, enzyme_const, n, enzyme_dup, x, g);
}

__attribute__((noinline)) static std::vector<Entry> hessian(size_t n, const double *x) {
  std::vector<Entry> t;
  for (size_t c = 0; c < n; c++) {
    double *seed = __enzyme_todense((void *)unit_load, (void *)unit_store, c);
    double *column = __enzyme_todense((void *)column_load, (void *)column_store, c, &t);
    __enzyme_fwddiff((void *)gradient, enzyme_const, n, enzyme_dup, x, seed, enzyme_dupnoneed, (double *)0, column);
  }
  return t;
}

int main() {
  enum { N = 7 };
  double x[N];
  for (int i = 0; i < N; i++) x[i] = 0.3 * i + 0.1 * (i % 3) * (i % 2 ? -1 : 1);
  std::vector<Entry> t = hessian(N, x);
  std::vector<double> h = densify(t, N);
  /* sparsity: a tridiagonal matrix reports no entry outside the band */
  for (const Entry &e : t)
    if (e.row + 1 < e.col || e.col + 1 < e.row) { printf("FAIL entry (%zu, %zu) off the band\n", e.row, e.col); failures++; }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double want = 0;
      if (i == j) {
        want = -cos(x[i]);
        if (i + 1 < N) want += 12 * (x[i + 1] - x[i]) * (x[i + 1] - x[i]);
        if (i > 0) want += 12 * (x[i] - x[i - 1]) * (x[i] - x[i - 1]);
      } else if (j == i + 1 || i == j + 1) {
        double d = x[i > j ? i : j] - x[i > j ? j : i];
        want = -12 * d * d;
      }
      char what[64];
      snprintf(what, sizeof what, "H[%d][%d] analytic", i, j);
      check(what, h[i * N + j], want, 1e-10);
    }
  /* central differences of the (reverse-mode) gradient, column by column */
  const double eps = 1e-6;
  for (int j = 0; j < N; j++) {
    double xp[N], xm[N], gp[N] = {0}, gm[N] = {0};
    for (int k = 0; k < N; k++) xp[k] = xm[k] = x[k];
    xp[j] += eps; xm[j] -= eps;
    gradient(N, xp, gp);
    gradient(N, xm, gm);
    for (int i = 0; i < N; i++) {
      char what[64];
      snprintf(what, sizeof what, "H[%d][%d] central", i, j);
      check(what, h[i * N + j], (gp[i] - gm[i]) / (2 * eps), 1e-6);
    }
  }
  return finish();
}

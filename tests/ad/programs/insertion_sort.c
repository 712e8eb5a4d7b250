#include "check.h"
/* Insertion sort of a copy, then a weighted sum: the gradient follows the sorting permutation. */
double sorted_weighted(const double *x, int n) {
  double a[16];
  for (int i = 0; i < n; i++) a[i] = x[i] * x[i] * 0.5 + x[i];
  for (int i = 1; i < n; i++) {
    double key = a[i];
    int j = i - 1;
    while (j >= 0 && a[j] > key) { a[j + 1] = a[j]; j--; }
    a[j + 1] = key;
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] * (i + 1);
  return s;
}

int main(void) {
  enum { N = 6 };
  double x[N] = {0.9, -0.3, 2.1, 0.4, 1.5, -0.8}, d[N] = {0}, xd[N] = {1, 2, -1, 0.5, 0.25, 3};
  __enzyme_autodiff((void *)sorted_weighted, enzyme_dup, x, d, enzyme_const, N);
  /* rank of each transformed value (all distinct) */
  for (int i = 0; i < N; i++) {
    double ai = x[i] * x[i] * 0.5 + x[i];
    int rank = 0;
    for (int j = 0; j < N; j++) if (x[j] * x[j] * 0.5 + x[j] < ai) rank++;
    check("sort permutation analytic", d[i], (rank + 1) * (x[i] + 1), 1e-12);
    check("sort central", d[i], CENTRAL(sorted_weighted(x, N), x[i], x[i]), 1e-6);
  }
  check("sort forward", __enzyme_fwddiff((void *)sorted_weighted, enzyme_dup, x, xd, enzyme_const, N), dot(d, xd, N), 1e-12);
  return finish();
}

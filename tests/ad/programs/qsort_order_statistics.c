#include "check.h"
/* Order statistics with the C library's qsort: a rank-weighted trimmed mean of samples (an array of doubles
   sorted with a comparator).  The sort permutes the data, so the derivative must follow each element to its
   place (pyenzyme differentiates qsort through enzyme/runtime_bodies/libc.c); the test points have no ties.
   Records sorted by a key: qsort_records.c. */
static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double trimmed_mean(const double *x, int n, int trim) {
  double *s = malloc(n * sizeof *s);
  for (int i = 0; i < n; i++) s[i] = x[i] * x[i] - x[i];
  qsort(s, n, sizeof *s, by_value);
  double sum = 0;
  for (int i = trim; i < n - trim; i++) sum += s[i] * (1.0 + 0.1 * i);  /* rank-weighted */
  free(s);
  return sum / (n - 2 * trim);
}

int main(void) {
  enum { N = 9 };
  double x[N] = {0.3, 2.1, -1.2, 1.7, 0.9, -0.4, 2.8, 1.1, -2.0}, dx[N] = {0};
  __enzyme_autodiff((void *)trimmed_mean, enzyme_dup, x, dx, enzyme_const, N, enzyme_const, 2);
  for (int i = 0; i < N; i++) {
    double t[N] = {0};
    t[i] = 1;
    check("trimmed forward", __enzyme_fwddiff((void *)trimmed_mean, enzyme_dup, x, t, enzyme_const, N,
                                              enzyme_const, 2), dx[i], 1e-12);
    double q[N];
    for (int j = 0; j < N; j++) q[j] = x[j];
    check("trimmed central", CENTRAL(trimmed_mean(q, N, 2), q[i], x[i]), dx[i], 1e-6);
  }
  return finish();
}

#include "check.h"
/* BLAS-style overflow-safe 2-norm (running scale and sum of squares, comparisons on |x_i|) and the
   Euclidean distance matrix sum; d||x|| = x / ||x||. */
double nrm2(const double *x, int n, int incx) {
  double scale = 0, ssq = 1;
  for (int i = 0; i < n; i++) {
    double a = fabs(x[i * incx]);
    if (a != 0) {
      if (scale < a) { ssq = 1 + ssq * (scale / a) * (scale / a); scale = a; }
      else ssq += (a / scale) * (a / scale);
    }
  }
  return scale * sqrt(ssq);
}

int main(void) {
  enum { N = 4 };
  double x[2 * N] = {3.0, 99, -4.0, 99, 0.0, 99, 12.0, 99}, d[2 * N] = {0}, xd[2 * N] = {1, 5, 2, 5, 3, 5, -1, 5};
  __enzyme_autodiff((void *)nrm2, enzyme_dup, x, d, enzyme_const, N, enzyme_const, 2);
  double n = 13.0;
  for (int i = 0; i < 2 * N; i++) check("nrm2 strided", d[i], i % 2 ? 0.0 : x[i] / n, 1e-12);
  check("nrm2 forward", __enzyme_fwddiff((void *)nrm2, enzyme_dup, x, xd, enzyme_const, N, enzyme_const, 2), (3 - 8 - 12) / n, 1e-12);
  double big[3] = {1e200, -2e200, 2e200}, dbig[3] = {0};
  __enzyme_autodiff((void *)nrm2, enzyme_dup, big, dbig, enzyme_const, 3, enzyme_const, 1);
  check("nrm2 without overflow", dbig[1], -2.0 / 3.0, 1e-12);
  return finish();
}

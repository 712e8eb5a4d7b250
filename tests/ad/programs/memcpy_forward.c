#include "check.h"
#include <string.h>
/* memcpy and memmove of active memory in forward mode (tangents are copied too), and a memcpy of integer
   indices before the active part. (Reverse mode refuses memcpy of active memory, and today also an int-only
   memcpy like the one in indexed(): that is why indexed is checked in forward mode.) */
double shift_and_sum(double *x, int n) {
  double tmp[8];
  memcpy(tmp, x, n * sizeof(double));
  memmove(x + 1, x, (n - 1) * sizeof(double));   /* overlapping move */
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * tmp[i];
  return s;
}
double indexed(const double *x, const int *idx, int n) {
  int local[8];
  memcpy(local, idx, n * sizeof(int));
  double s = 0;
  for (int i = 0; i < n; i++) s += x[local[i]] * x[i];
  return s;
}

int main(void) {
  enum { N = 5 };
  double x0[N] = {0.5, -1.0, 2.0, 0.25, 1.5};
  /* after the move x = (x0, x0, x1, x2, x3): s = x0^2 + sum_{i>=1} x_{i-1} x_i */
  for (int k = 0; k < N; k++) {
    double x[N], e[N] = {0};
    for (int i = 0; i < N; i++) x[i] = x0[i];
    e[k] = 1.0;
    double fw = __enzyme_fwddiff((void *)shift_and_sum, enzyme_dup, x, e, enzyme_const, N);
    double g = (k == 0 ? 2 * x0[0] : 0) + (k >= 1 ? x0[k - 1] : 0) + (k + 1 < N ? x0[k + 1] : 0);
    check("memcpy/memmove forward", fw, g, 1e-12);
  }
  int idx[N] = {4, 3, 2, 1, 0};
  double x[N];
  for (int i = 0; i < N; i++) x[i] = x0[i];
  for (int k = 0; k < N; k++) {
    double e[N] = {0};
    e[k] = 1.0;
    check("memcpy of int indices, forward", __enzyme_fwddiff((void *)indexed, enzyme_dup, x, e, enzyme_const, idx, enzyme_const, N),
          2 * x0[N - 1 - k], 1e-12);
  }
  return finish();
}

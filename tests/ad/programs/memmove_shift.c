#include "check.h"
#include <string.h>
/* memcpy and memmove (overlapping) of active memory in reverse mode. */
double shift(double *x, int n) {
  memmove(x + 1, x, (n - 1) * sizeof(double));   /* x = [x0, x0, x1, ..., x_{n-2}] */
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i] * (i + 1);
  return s;
}
double copy_then(const double *x, double *y, int n) {
  memcpy(y, x, n * sizeof(double));
  double s = 0;
  for (int i = 0; i < n; i++) s += y[i] * y[i] * y[i];
  return s;
}

int main(void) {
  enum { N = 5 };
  double x0[N] = {0.5, -1.0, 2.0, 0.25, 3.0}, x[N], dx[N] = {0};
  memcpy(x, x0, sizeof x);
  __enzyme_autodiff((void *)shift, enzyme_dup, x, dx, enzyme_const, N);
  /* s = 1*x0^2 + sum_{i>=1} (i+1) x_{i-1}^2 */
  check("memmove d0", dx[0], 2 * x0[0] * (1 + 2), 1e-12);
  for (int k = 1; k < N - 1; k++) check("memmove dk", dx[k], 2 * x0[k] * (k + 2), 1e-12);
  check("memmove d(last, shifted out)", dx[N - 1], 0.0, 1e-12);
  double y[N], dy[N] = {0}, dx2[N] = {0};
  __enzyme_autodiff((void *)copy_then, enzyme_dup, x0, dx2, enzyme_dup, y, dy, enzyme_const, N);
  for (int k = 0; k < N; k++) check("memcpy into output", dx2[k], 3 * x0[k] * x0[k], 1e-12);
  for (int k = 0; k < N; k++) check("memcpy destination adjoint consumed", dy[k], 0.0, 0.0);
  double w, xs[N];
  for (int k = 0; k < N; k++) {
    memcpy(xs, x0, sizeof xs);
    #define SHIFT_AT(val) ({ double _t[N]; memcpy(_t, x0, sizeof _t); _t[k] = (val); shift(_t, N); })
    check("memmove fd", (k < N - 1 ? 2 * x0[k] * (k == 0 ? 3 : k + 2) : 0.0), CENTRAL(SHIFT_AT(w), w, x0[k]), 1e-6);
  }
  return finish();
}

#include "check.h"
/* realloc growing a buffer inside a loop, in forward mode (reverse mode: realloc_reverse.c). The tangent
   buffer is reallocated alongside the primal one. */
double grow(const double *x, int n) {
  int cap = 1, len = 0;
  double *buf = malloc(cap * sizeof(double));
  for (int i = 0; i < n; i++) {
    if (len == cap) { cap *= 2; buf = realloc(buf, cap * sizeof(double)); }
    buf[len] = x[i] * x[i] + (len > 0 ? buf[len - 1] : 0.0);
    len++;
  }
  double s = 0;
  for (int i = 0; i < len; i++) s += sin(buf[i]);
  free(buf);
  return s;
}

int main(void) {
  enum { N = 7 };
  double x[N] = {0.1, 0.3, -0.2, 0.5, 0.05, -0.4, 0.25};
  /* buf[k] = sum_{i<=k} x_i^2 ; ds/dx_i = 2 x_i sum_{k>=i} cos(buf[k]) */
  double buf[N], acc = 0;
  for (int k = 0; k < N; k++) { acc += x[k] * x[k]; buf[k] = acc; }
  double grad[N];
  for (int i = 0; i < N; i++) { double c = 0; for (int k = i; k < N; k++) c += cos(buf[k]); grad[i] = 2 * x[i] * c; }
  for (int i = 0; i < N; i++) {
    double e[N] = {0};
    e[i] = 1.0;
    double fw = __enzyme_fwddiff((void *)grow, enzyme_dup, x, e, enzyme_const, N);
    check("realloc forward analytic", fw, grad[i], 1e-12);
    check("realloc forward central", fw, CENTRAL(grow(x, N), x[i], x[i]), 1e-6);
  }
  return finish();
}

/* Functions for the batch reverse-mode tests of the Python API (tests/api/test_batch_reverse.py). */
#include <math.h>
#include <stdlib.h>

/* R^n -> R^m: y[k] = sum_i sin((k + 1) x_i) x_{(i + k) % n} + exp(-x_k % n) through heap scratch memory. */
void spread(const double *x, double *y, int n, int m) {
  double *t = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) t[i] = x[i] * x[i];
  for (int k = 0; k < m; k++) {
    double s = 0;
    for (int i = 0; i < n; i++) s += sin((k + 1) * x[i]) * x[(i + k) % n];
    y[k] = s + exp(-t[k % n]);
  }
  free(t);
}

/* A scalar Active argument next to a batched array: a * sum(x^2) + sin(a). */
double scaled(double a, const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return a * s + sin(a);
}

float fspread(const float *x, float *y, int n) {
  float s = 0;
  for (int i = 0; i < n; i++) { y[i] = x[i] * x[(i + 1) % n] + sinf(x[i]); s += y[i]; }
  return s;
}

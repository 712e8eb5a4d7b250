#include "check.h"
/* Scratch buffers one loop fills and later loops read (the reverse sweep rebuilds what a load reads from
   its only store, enzyme/ad/scratch_stores.py), and buffers where it must not: a second store, a read
   range the fill does not cover, a buffer a call sees. */
double centered(const double *x, const double *mu, int n, int d) {
  double *c = malloc(d * sizeof(double)), s = 0;
  for (int p = 0; p < n; p++) {
    for (int j = 0; j < d; j++) c[j] = x[p * d + j] - mu[j] * (1 + 0.1 * p);
    for (int j = 0; j < d; j++) s += c[j] * c[j] * x[j];
    for (int i = 0; i < d; i++)
      for (int j = i + 1; j < d; j++) s += sin(c[i]) * c[j];
  }
  free(c);
  return s;
}
/* Two stores into the buffer: the second overwrites part of what the loop filled. */
double overwritten(const double *x, int d) {
  double *c = malloc(d * sizeof(double)), s = 0;
  for (int j = 0; j < d; j++) c[j] = x[j] * x[j];
  c[d / 2] = cos(x[0]);
  for (int j = 0; j < d; j++) s += c[j] * x[j];
  free(c);
  return s;
}
/* The fill covers [0, m), the reads [0, d): the elements past m hold what an earlier call of the fill put
   there (calloc: zeros here), not this call's stored value. */
double partial(const double *x, int d, int m) {
  double *c = calloc(d, sizeof(double)), s = 0;
  for (int r = 0; r < 2; r++) {
    for (int j = 0; j < m + r; j++) c[j] = x[j] * (2 + r);
    for (int j = 0; j < d; j++) s += c[j] * c[j] * x[j];
  }
  free(c);
  return s;
}
__attribute__((noinline)) void scale_in_place(double *c, int d) { for (int j = 0; j < d; j++) c[j] *= 1.5; }
/* A call sees the buffer (and writes it). */
double called(const double *x, int d) {
  double *c = malloc(d * sizeof(double)), s = 0;
  for (int j = 0; j < d; j++) c[j] = x[j] * x[j];
  scale_in_place(c, d);
  for (int j = 0; j < d; j++) s += c[j] * x[j];
  free(c);
  return s;
}

enum { N = 3, D = 5 };
int main(void) {
  double x[N * D], mu[D], dx[N * D], dmu[D];
  for (int k = 0; k < N * D; k++) x[k] = 0.3 + 0.17 * k - 0.02 * k * k;
  for (int k = 0; k < D; k++) mu[k] = 0.1 * k - 0.2;
  for (int k = 0; k < N * D; k++) dx[k] = 0;
  for (int k = 0; k < D; k++) dmu[k] = 0;
  __enzyme_autodiff((void *)centered, enzyme_dup, x, dx, enzyme_dup, mu, dmu, enzyme_const, N, enzyme_const, D);
  for (int k = 0; k < N * D; k++) check("centered d/dx", dx[k], CENTRAL(centered(x, mu, N, D), x[k], x[k]), 1e-6);
  for (int k = 0; k < D; k++) check("centered d/dmu", dmu[k], CENTRAL(centered(x, mu, N, D), mu[k], mu[k]), 1e-6);
  for (int k = 0; k < D; k++) dx[k] = 0;
  __enzyme_autodiff((void *)overwritten, enzyme_dup, x, dx, enzyme_const, D);
  for (int k = 0; k < D; k++) check("overwritten", dx[k], CENTRAL(overwritten(x, D), x[k], x[k]), 1e-6);
  for (int k = 0; k < D; k++) dx[k] = 0;
  __enzyme_autodiff((void *)partial, enzyme_dup, x, dx, enzyme_const, D, enzyme_const, 2);
  for (int k = 0; k < D; k++) check("partial", dx[k], CENTRAL(partial(x, D, 2), x[k], x[k]), 1e-6);
  for (int k = 0; k < D; k++) dx[k] = 0;
  __enzyme_autodiff((void *)called, enzyme_dup, x, dx, enzyme_const, D);
  for (int k = 0; k < D; k++) check("called", dx[k], CENTRAL(called(x, D), x[k], x[k]), 1e-6);
  return finish();
}

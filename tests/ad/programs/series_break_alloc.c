#include "check.h"
/* A truncated power series of a matrix (as an expm without scaling): each term is a fresh heap
   product, the series stops early once the term is negligible (a loop with two ways out), and the
   matrix size n*n is computed once before the loop.  Values the loop's reverse needs that were
   computed before it are taped once at the loop's exit; that exit block holds only phis and a branch,
   so the taping must keep its order with the block's own pushes. */
enum { N = 3 };

static double *matmul(const double *a, const double *b, int n) {
  double *c = calloc((size_t)(n * n), sizeof(double));
  for (int i = 0; i < n; i++)
    for (int k = 0; k < n; k++)
      for (int j = 0; j < n; j++) c[i * n + j] += a[i * n + k] * b[k * n + j];
  return c;
}

static double norm1(const double *a, int n) {
  double s = 0;
  for (int i = 0; i < n * n; i++) s += fabs(a[i]);
  return s;
}

double series_trace(const double *a, int n) {
  size_t bytes = (size_t)(n * n) * sizeof(double);
  double *term = malloc(bytes), *sum = malloc(bytes);
  for (int i = 0; i < n * n; i++) term[i] = sum[i] = (i % (n + 1) == 0) ? 1.0 : 0.0;
  for (int k = 1; k < 40; k++) {
    double *next = matmul(term, a, n);
    free(term);
    term = next;
    for (int i = 0; i < n * n; i++) term[i] /= k;
    if (norm1(term, n) < 1e-15) break; /* negligible: leave it out */
    for (int i = 0; i < n * n; i++) sum[i] += term[i];
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) s += (1.0 + 0.1 * i - 0.05 * j) * sum[i * n + j];
  free(term);
  free(sum);
  return s;
}

int main(void) {
  double a[N * N] = {0.2, -0.1, 0.05, 0.3, 0.1, -0.2, 0.0, 0.15, -0.05}, da[N * N] = {0};
  __enzyme_autodiff((void *)series_trace, enzyme_dup, a, da, enzyme_const, N);
  for (int q = 0; q < N * N; q++) {
    double t[N * N] = {0};
    t[q] = 1;
    check("forward", __enzyme_fwddiff((void *)series_trace, enzyme_dup, a, t, enzyme_const, N), da[q], 1e-10);
    check("central", da[q], CENTRAL(series_trace(a, N), a[q], a[q]), 1e-6);
  }
  return finish();
}

#include "check.h"
/* Recursive merge sort with a malloc'd scratch buffer per call (recursion + heap + data-dependent merges),
   then a rank-weighted sum; the gradient follows the permutation. A nested while loop with an unknown trip
   count inside a counted loop exercises a growing tape. */
static void merge_sort(double *a, int n) {
  if (n < 2) return;
  int h = n / 2;
  merge_sort(a, h);
  merge_sort(a + h, n - h);
  double *t = malloc(n * sizeof(double));
  int i = 0, j = h, k = 0;
  /* one merge loop (separate tail-copy loops would become memcpy, refused in reverse mode today) */
  for (k = 0; k < n; k++) t[k] = (j >= n || (i < h && a[i] <= a[j])) ? a[i++] : a[j++];
  for (k = 0; k < n; k++) a[k] = t[k] * 1.5;   /* scaled write-back (a plain copy would become memcpy) */
  free(t);
}
double sorted_score(double *a, int n) { merge_sort(a, n); double s = 0; for (int i = 0; i < n; i++) s += a[i] * (i + 1); return s; }
double inner_while(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) { double y = x[i]; while (y < 50.0) { y = y * 1.7 + 0.3; s += sin(y) * 0.01; } s += y; }
  return s;
}

int main(void) {
  enum { N = 7 };
  double a0[N] = {0.9, -0.3, 2.1, 0.4, 1.5, -0.8, 0.05}, a[N], d[N] = {0}, w[N];
  for (int i = 0; i < N; i++) a[i] = a0[i];
  __enzyme_autodiff((void *)sorted_score, enzyme_dup, a, d, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    /* element 0 passes through 2 merges (sizes 3, 7), the others through 3; each merge scales by 1.5 and the
       result is sorted by the final values b */
    double b[N];
    for (int j = 0; j < N; j++) b[j] = a0[j] * pow(1.5, j == 0 ? 2 : 3);
    int rank = 0;
    for (int j = 0; j < N; j++) rank += b[j] < b[i];
    check("merge sort analytic", d[i], pow(1.5, i == 0 ? 2 : 3) * (rank + 1), 1e-12);
    double v;
    double fd = CENTRAL(({ for (int _i = 0; _i < N; _i++) w[_i] = a0[_i]; w[i] = v; sorted_score(w, N); }), v, a0[i]);
    check("merge sort central", d[i], fd, 1e-6);
  }
  double ad[N] = {1, -1, 0.5, 2, 0, 1, 3}, adc[N] = {1, -1, 0.5, 2, 0, 1, 3};
  for (int i = 0; i < N; i++) w[i] = a0[i];
  check("merge sort forward", __enzyme_fwddiff((void *)sorted_score, enzyme_dup, w, ad, enzyme_const, N), dot(d, adc, N), 1e-12);
  double x[4] = {0.5, 3.0, 0.01, 20.0}, dx[4] = {0}, xd[4] = {1, 2, 3, 4};
  __enzyme_autodiff((void *)inner_while, enzyme_dup, x, dx, enzyme_const, 4);
  for (int i = 0; i < 4; i++) check("inner while central", dx[i], CENTRAL(inner_while(x, 4), x[i], x[i]), 1e-6);
  check("inner while forward", __enzyme_fwddiff((void *)inner_while, enzyme_dup, x, xd, enzyme_const, 4), dot(dx, xd, 4), 1e-12);
  return finish();
}

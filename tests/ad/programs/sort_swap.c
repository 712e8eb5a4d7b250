#include "check.h"
/* Bubble sort in place through a noinline swap(double*, double*), then the median and a max/argmax. */
__attribute__((noinline)) static void swap(double *a, double *b) { double t = *a; *a = *b; *b = t; }
double median_inplace(double *v, int n) {
  for (int i = 0; i < n; i++) for (int j = 0; j + 1 < n - i; j++) if (v[j] > v[j + 1]) swap(&v[j], &v[j + 1]);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
double softish_max(const double *v, int n) {
  int best = 0;
  for (int i = 1; i < n; i++) if (v[i] > v[best]) best = i;
  return v[best] * v[best] + v[(best + 1) % n];
}

int main(void) {
  enum { N = 5 };
  double v0[N] = {3.0, -1.0, 2.5, 0.5, 4.0}, v[N], d[N] = {0};
  for (int i = 0; i < N; i++) v[i] = v0[i];
  __enzyme_autodiff((void *)median_inplace, enzyme_dup, v, d, enzyme_const, N);
  for (int i = 0; i < N; i++) check("median picks one input", d[i], i == 2 ? 1.0 : 0.0, 1e-12);
  double w[N] = {3.0, -1.0, 2.5, 0.5}, dw[N] = {0};
  __enzyme_autodiff((void *)median_inplace, enzyme_dup, w, dw, enzyme_const, 4);
  /* sorted -1, .5, 2.5, 3 -> median = (0.5 + 2.5)/2 : inputs 3 and 2 */
  check("even median d[2]", dw[2], 0.5, 1e-12);
  check("even median d[3]", dw[3], 0.5, 1e-12);
  check("even median d[0]", dw[0], 0.0, 1e-12);
  double dm[N] = {0}, xd[N] = {1, 2, 3, 4, 5};
  __enzyme_autodiff((void *)softish_max, enzyme_dup, v0, dm, enzyme_const, N);
  check("argmax", dm[4], 8.0, 1e-12);
  check("argmax neighbour", dm[0], 1.0, 1e-12);
  check("argmax forward", __enzyme_fwddiff((void *)softish_max, enzyme_dup, v0, xd, enzyme_const, N), dot(dm, xd, N), 1e-12);
  return finish();
}

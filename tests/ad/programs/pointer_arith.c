#include "check.h"
/* Pointer arithmetic: walking pointers, *p++, pointer differences as loop bounds, negative offsets, end pointers. */
double walk(const double *x, const double *end) { double s = 0; while (x != end) { s += *x * *x; x++; } return s; }
double postinc(const double *p, int n) { double s = 0; for (int i = 0; i < n; i++) { double a = *p++; s += a * *p; } return s; }
double backwards(const double *last, int n) { double s = 0; for (int i = 0; i < n; i++) s = s * 0.5 + last[-i]; return s * s; }
double interior(double *x, int n) { double *mid = x + n / 2; return mid[-1] * mid[0] * mid[1]; }

int main(void) {
  enum { N = 5 };
  double x[N + 1] = {0.5, 1.5, -0.5, 2.0, 1.0, 0.25}, d[N + 1] = {0}, xd[N + 1] = {1, 2, 3, -1, 0.5, 4};
  __enzyme_autodiff((void *)walk, enzyme_dup, x, d, enzyme_dup, x + N, d + N);
  for (int i = 0; i < N + 1; i++) check("walk", d[i], i < N ? 2 * x[i] : 0.0, 1e-12);
  double dp[N + 1] = {0};
  __enzyme_autodiff((void *)postinc, enzyme_dup, x, dp, enzyme_const, N);
  for (int i = 0; i < N + 1; i++) check("*p++", dp[i], (i > 0 ? x[i - 1] : 0) + (i < N ? x[i + 1] : 0), 1e-12);
  check("*p++ forward", __enzyme_fwddiff((void *)postinc, enzyme_dup, x, xd, enzyme_const, N), dot(dp, xd, N + 1), 1e-12);
  double db[N + 1] = {0};
  __enzyme_autodiff((void *)backwards, enzyme_dup, x + N - 1, db + N - 1, enzyme_const, N);
  for (int i = 0; i < N + 1; i++) check("negative offsets central", db[i], CENTRAL(backwards(x + N - 1, N), x[i], x[i]), 1e-6);
  double di[N + 1] = {0};
  __enzyme_autodiff((void *)interior, enzyme_dup, x, di, enzyme_const, N);
  check("interior d1", di[1], x[2] * x[3], 1e-12);
  check("interior d2", di[2], x[1] * x[3], 1e-12);
  check("interior d3", di[3], x[1] * x[2], 1e-12);
  check("interior d0 untouched", di[0], 0.0, 0.0);
  return finish();
}

#include "check.h"
/* In-place prefix sums and recurrences: each element is overwritten using the previous, already-overwritten one. */
void cumsum(double *x, int n) { for (int i = 1; i < n; i++) x[i] += x[i - 1]; }
void recurrence(double *x, int n) { for (int i = 1; i < n; i++) x[i] = x[i] * x[i - 1] + sin(x[i - 1]); }
double cum_then_sq(double *x, int n) { cumsum(x, n); double s = 0; for (int i = 0; i < n; i++) s += x[i] * x[i]; return s; }

int main(void) {
  enum { N = 5 };
  double x[N] = {0.3, -0.2, 0.7, 1.1, -0.4}, x0[N], d[N] = {1, 1, 1, 1, 1};
  for (int i = 0; i < N; i++) x0[i] = x[i];
  __enzyme_autodiff((void *)cumsum, enzyme_dup, x, d, enzyme_const, N);
  for (int i = 0; i < N; i++) check("cumsum adjoint = suffix count", d[i], (double)(N - i), 1e-12);
  double y[N], ybar[N] = {0.5, -1, 2, 0.25, 1}, ybar0[N], xbar[N] = {0}, xdot[N] = {1, -2, 0.5, 0.3, 1}, ydot[N];
  for (int i = 0; i < N; i++) { y[i] = x0[i]; ybar0[i] = ybar[i]; ydot[i] = xdot[i]; }
  /* Same array is input and output: seed ybar, get xbar in the same shadow. */
  __enzyme_autodiff((void *)recurrence, enzyme_dup, y, ybar, enzyme_const, N);
  for (int i = 0; i < N; i++) y[i] = x0[i];
  __enzyme_fwddiff((void *)recurrence, enzyme_dup, y, ydot, enzyme_const, N);
  check("in-place recurrence <ybar, J xdot> = <J^T ybar, xdot>", dot(ybar0, ydot, N), dot(ybar, xdot, N), 1e-12);
  double g[N] = {0}, w[N];
  for (int i = 0; i < N; i++) w[i] = x0[i];
  __enzyme_autodiff((void *)cum_then_sq, enzyme_dup, w, g, enzyme_const, N);
  for (int k = 0; k < N; k++) {
    double c[N], an = 0;
    for (int i = 0; i < N; i++) c[i] = (i ? c[i - 1] : 0) + x0[i];
    for (int i = k; i < N; i++) an += 2 * c[i];
    check("cumsum then squares", g[k], an, 1e-12);
  }
  return finish();
}

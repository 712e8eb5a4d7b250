#include "check.h"
#include <string.h>
/* Heap memory, in-place updates, read-write-read, output arrays; forward vs reverse inner product. */
double heap(const double *x, int n) {
  double *t = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) t[i] = exp(x[i]);
  double s = 0;
  for (int i = 0; i < n; i++) s += t[i] * x[i];
  free(t);
  return s;
}
double heap_in_loop(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) { double *t = malloc(2 * sizeof(double)); t[0] = x[i]; t[1] = t[0] * t[0]; s += t[1] * x[i]; free(t); }
  return s;
}
void inplace(double *x, int n) { for (int i = 0; i < n; i++) x[i] = x[i] * x[i] + sin(x[i]); }
double rwr(double *x, int n) { double a = x[0]; x[0] = a * 3.0; double b = x[0] * x[1]; x[1] = b; return x[0] + x[1] * a; }
void vecfun(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++) y[i] = x[i] * x[(i + 1) % n] + cos(x[i]);
}

int main(void) {
  double x[3] = {0.1, 0.5, 0.9}, dx[3] = {0};
  __enzyme_autodiff((void *)heap, enzyme_dup, x, dx, enzyme_const, 3);
  for (int i = 0; i < 3; i++) check("heap", dx[i], exp(x[i]) * (x[i] + 1), 1e-12);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)heap_in_loop, enzyme_dup, x, dx, enzyme_const, 3);
  for (int i = 0; i < 3; i++) check("heap in loop", dx[i], 3 * x[i] * x[i], 1e-12);
  double y[3] = {0.3, 0.6, 1.2}, dy[3] = {1, 1, 1};
  __enzyme_autodiff((void *)inplace, enzyme_dup, y, dy, enzyme_const, 3);
  double y0[3] = {0.3, 0.6, 1.2};
  for (int i = 0; i < 3; i++) check("in-place", dy[i], 2 * y0[i] + cos(y0[i]), 1e-12);
  double r[2] = {0.4, 0.7}, dr[2] = {0};
  __enzyme_autodiff((void *)rwr, enzyme_dup, r, dr, enzyme_const, 2);
  /* f = 3a + 3a*x1*a = 3a + 3 a^2 x1 */
  check("read-write-read d0", dr[0], 3 + 6 * 0.4 * 0.7, 1e-12);
  check("read-write-read d1", dr[1], 3 * 0.4 * 0.4, 1e-12);
  /* <ybar, J xdot> == <J^T ybar, xdot> */
  double xs[4] = {0.2, -0.4, 0.9, 1.3}, xdot[4] = {0.5, -1.0, 0.25, 2.0}, ys[4], ydot[4] = {0};
  double ybar[4] = {1.0, -2.0, 0.5, 3.0}, xbar[4] = {0};
  __enzyme_fwddiff((void *)vecfun, enzyme_dup, xs, xdot, enzyme_dup, ys, ydot, enzyme_const, 4);
  double ybar_copy[4]; memcpy(ybar_copy, ybar, sizeof ybar);
  __enzyme_autodiff((void *)vecfun, enzyme_dup, xs, xbar, enzyme_dup, ys, ybar, enzyme_const, 4);
  double lhs = 0, rhs = 0;
  for (int i = 0; i < 4; i++) { lhs += ybar_copy[i] * ydot[i]; rhs += xbar[i] * xdot[i]; }
  check("forward/reverse inner product", lhs, rhs, 1e-12);
  for (int i = 0; i < 4; i++) check("reverse consumed the output seed", ybar[i], 0.0, 0.0);
  return finish();
}

#include "check.h"
/* Numerically stable log-sum-exp (max subtraction), softmax cross-entropy with an int label, and the
   softmax Jacobian applied forward vs reverse (<ybar, J xdot> = <J^T ybar, xdot>). */
double lse(const double *x, int n) {
  double m = x[0];
  for (int i = 1; i < n; i++) m = fmax(m, x[i]);
  double s = 0;
  for (int i = 0; i < n; i++) s += exp(x[i] - m);
  return m + log(s);
}
double xent(const double *x, int n, int label) { return lse(x, n) - x[label]; }
void softmax(const double *x, double *y, int n) { double l = lse(x, n); for (int i = 0; i < n; i++) y[i] = exp(x[i] - l); }

int main(void) {
  enum { N = 5 };
  double x[N] = {0.3, 2.1, -1.0, 0.7, 1.9}, d[N] = {0}, y[N];
  softmax(x, y, N);
  __enzyme_autodiff((void *)xent, enzyme_dup, x, d, enzyme_const, N, enzyme_const, 3);
  for (int i = 0; i < N; i++) {
    check("cross-entropy = softmax - onehot", d[i], y[i] - (i == 3), 1e-12);
    check("cross-entropy central", d[i], CENTRAL(xent(x, N, 3), x[i], x[i]), 1e-6);
  }
  double xd[N] = {1, -1, 0.5, 2, 0}, yd[N] = {0}, ys[N], ybar[N] = {0.2, -1, 3, 0.5, 1}, ybar0[N], xbar[N] = {0};
  for (int i = 0; i < N; i++) ybar0[i] = ybar[i];
  __enzyme_fwddiff((void *)softmax, enzyme_dup, x, xd, enzyme_dup, ys, yd, enzyme_const, N);
  __enzyme_autodiff((void *)softmax, enzyme_dup, x, xbar, enzyme_dup, ys, ybar, enzyme_const, N);
  check("softmax <ybar, J xdot> = <J^T ybar, xdot>", dot(ybar0, yd, N), dot(xbar, xd, N), 1e-12);
  for (int i = 0; i < N; i++) check("softmax forward analytic", yd[i], y[i] * (xd[i] - dot(y, xd, N)), 1e-12);
  return finish();
}

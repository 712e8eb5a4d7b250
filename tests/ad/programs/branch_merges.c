#include "check.h"
/* Merge blocks whose reverse learns where the trace came from by recomputing the branch that decided it
   (no tape): an if without else, an if/else diamond, a guard skipping an inner loop (a packed lower
   triangle, as in ADBench's GMM), a condition on scratch memory the next iteration overwrites, and one
   on a loaded value that a later store changes. */
double piecewise(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double v = x[i];
    if (v > 1.0) v = 1.0 + log(v);
    if (v < -0.5) s += v * v; else s += sin(v);
  }
  return s;
}

/* out = L x with L strictly lower triangular, packed by columns; rows below the last skip the inner loop. */
double lower_times(const double *l, const double *x, int d) {
  double out[8] = {0};
  int k = 0;
  for (int i = 0; i < d; i++)
    for (int j = i + 1; j < d; j++) { out[j] += l[k] * x[i]; k++; }
  double s = 0;
  for (int j = 0; j < d; j++) s += out[j] * out[j] * (j + 1);
  return s;
}

double scratch(double *x, int n) {
  double *t = malloc(sizeof(double)), s = 0;
  for (int i = 0; i < n; i++) {
    t[0] = x[i] * x[i] - 0.5;
    double u = t[0];
    if (u > 0) s += u * x[i]; else s -= u * u;
  }
  free(t);
  return s;
}

/* Clamps x in place after deciding on the old values: the reverse must not re-read the new ones. */
double clamp_after(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    if (x[i] > 0.8) s += x[i] * x[i]; else s += 3 * x[i];
    x[i] = x[i] > 0.8 ? 0.8 : x[i];
  }
  for (int i = 0; i < n; i++) s += x[i] * x[i] * x[i];
  return s;
}

/* f at x with x[k] replaced by xk, on a copy (clamp_after writes its argument). */
static double at(double (*f)(double *, int), const double *x, int n, int k, double xk) {
  double y[16];
  for (int j = 0; j < n; j++) y[j] = x[j];
  y[k] = xk;
  return f(y, n);
}

/* Reverse mode against central differences, forward mode against the gradient's directional derivative
   (a macro: the entry points need the function at compile time). */
#define GRAD_CHECKS(name, f, x, n) do { \
  double _y[16], _d[16] = {0}, _v[16]; \
  for (int _k = 0; _k < (n); _k++) _y[_k] = (x)[_k]; \
  __enzyme_autodiff((void *)f, enzyme_dup, _y, _d, enzyme_const, (n)); \
  for (int _k = 0; _k < (n); _k++) { \
    double _h = 1e-6 * (fabs((x)[_k]) > 1 ? fabs((x)[_k]) : 1.0); \
    check(name " reverse", _d[_k], (at(f, x, n, _k, (x)[_k] + _h) - at(f, x, n, _k, (x)[_k] - _h)) / (2 * _h), 1e-6); \
  } \
  for (int _k = 0; _k < (n); _k++) { _y[_k] = (x)[_k]; _v[_k] = 0.3 * _k - 1.0; } \
  double _expected = dot(_d, _v, (n)); \
  check(name " forward", __enzyme_fwddiff((void *)f, enzyme_dup, _y, _v, enzyme_const, (n)), _expected, 1e-9); \
} while (0)

int main(void) {
  double x[9] = {0.3, -0.9, 1.7, 2.5, -0.2, 0.95, -1.4, 0.6, 1.1};
  GRAD_CHECKS("piecewise", piecewise, x, 9);
  GRAD_CHECKS("scratch", scratch, x, 9);
  GRAD_CHECKS("clamp after", clamp_after, x, 9);
  enum { D = 6, L = D * (D - 1) / 2 };
  double l[L], xs[D], dl[L] = {0}, dx[D] = {0};
  for (int k = 0; k < L; k++) l[k] = 0.1 * k - 0.6;
  for (int k = 0; k < D; k++) xs[k] = 0.4 * k - 0.9;
  __enzyme_autodiff((void *)lower_times, enzyme_dup, l, dl, enzyme_dup, xs, dx, enzyme_const, D);
  for (int k = 0; k < L; k++) check("lower times d/dl", dl[k], CENTRAL(lower_times(l, xs, D), l[k], l[k]), 1e-6);
  for (int k = 0; k < D; k++) check("lower times d/dx", dx[k], CENTRAL(lower_times(l, xs, D), xs[k], xs[k]), 1e-6);
  return finish();
}

/* The demo's differentiated program: a C energy function and its derivatives through Enzyme's C ABI. */
#include <math.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

/* A chain of springs with a nonlinear on-site potential. */
double energy(const double *x, int n) {
  double e = 0.0;
  for (int i = 0; i < n; i++) {
    double stretch = i + 1 < n ? x[i + 1] - x[i] - 1.0 : 0.0;
    e += 0.5 * stretch * stretch + 0.1 * sin(x[i]) * exp(-0.1 * x[i] * x[i]);
  }
  return e;
}

/* Reverse mode: dx += d energy / dx. */
void gradient(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)energy, enzyme_dup, x, dx, enzyme_const, n);
}

/* Forward mode: the directional derivative of energy at x along v. */
double directional(const double *x, const double *v, int n) {
  return __enzyme_fwddiff((void *)energy, enzyme_dup, x, v, enzyme_const, n);
}

#include "check.h"
/* libm functions that also store a result through a pointer, into one variable the loop overwrites
   every iteration: frexp's exponent, modf's integral part, lgamma_r's sign.  The reverse sweep must
   see each iteration's value, not the last one left in memory (re-reading memory a function "never
   writes" is only right when no call writes it either). */

/* Energy of a list of values split into mantissa and binary exponent, the exponent weighting the
   mantissa's square; `scratch` receives each exponent in turn. */
__attribute__((noinline)) double mantissa_energy(const double *x, int n, int *scratch) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double m = frexp(x[i], scratch);
    s += m * m * *scratch;
  }
  return s;
}

/* Fractional parts weighted by the integral part, through one `whole` variable (modf's integral part has
   derivative zero, so storing it where no shadow is stays right). */
__attribute__((noinline)) double fractional_moment(const double *x, int n, double *whole) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double frac = modf(2.5 * x[i], whole);
    s += frac * frac * (1.0 + *whole);
  }
  return s;
}

/* Signed log-gamma sum: lgamma_r's sign output flips the contribution of negative gammas. */
__attribute__((noinline)) double signed_lgamma(const double *x, int n, int *sign) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double lg = lgamma_r(x[i], sign);
    s += *sign * lg;
  }
  return s;
}

/* The reverse-mode gradient of f(x, n, scratch) against central differences and forward mode, input by input. */
#define CHECK_KERNEL(name, f, x, n, scratch) do { double _dx[4] = {0}; \
  __enzyme_autodiff((void *)f, enzyme_dup, x, _dx, enzyme_const, n, enzyme_const, scratch); \
  for (int _i = 0; _i < (n); _i++) { char _what[64]; snprintf(_what, sizeof _what, "%s d/dx%d", name, _i); \
    check(_what, _dx[_i], CENTRAL(f(x, n, scratch), x[_i], x[_i]), 1e-6); \
    double _t[4] = {0}; _t[_i] = 1; \
    check(_what, __enzyme_fwddiff((void *)f, enzyme_dup, x, _t, enzyme_const, n, enzyme_const, scratch), _dx[_i], \
          1e-10); } } while (0)

int main(void) {
  int e;
  double a[4] = {3.0, 10.0, 0.7, 5.5};
  double b[4] = {1.3, 2.9, 0.45, 3.7}, whole;
  double c[4] = {2.5, 0.3, -0.5, 4.2};
  CHECK_KERNEL("frexp", mantissa_energy, a, 4, &e);
  CHECK_KERNEL("modf", fractional_moment, b, 4, &whole);
  CHECK_KERNEL("lgamma_r", signed_lgamma, c, 4, &e);
  return finish();
}

#include "check.h"
/* Math functions whose results come back in two parts: modf (clang emits llvm.modf -> {frac, int}) and
   frexp (the mantissa's derivative is 2^-e). */
double h(double x) {
  double ip;
  double fr = modf(3.0 * x, &ip);
  int e;
  double m = frexp(x * x, &e);
  return fr * fr + m * ldexp(1.0, e) * 0.5 + sin(x) * cos(x) + ip;
}

int main(void) {
  double x = 0.8, v;
  double expected = 2 * (3 * x - 2) * 3 + x + cos(2 * x);  /* frac(2.4) = 3x - 2 near x = 0.8 */
  check("reverse", __enzyme_autodiff((void *)h, x), expected, 1e-12);
  check("forward", __enzyme_fwddiff((void *)h, x, 1.0), expected, 1e-12);
  check("central", CENTRAL(h(v), v, x), expected, 1e-6);
  return finish();
}

#include "check.h"
/* Arithmetic instructions: fadd, fsub, fmul, fdiv, fneg, frem (fmod), with constants on either side. */
double add_sub(double x) { return (x + 3.0) - (2.5 - x) + x; }
double mul_div(double x) { return x * x * 0.5 / (x + 2.0) - 3.0 / x; }
double neg(double x) { return -x * -(x * x) + (-x); }
double rem(double x) { return fmod(x * x, 1.5) + fmod(7.0, x); }       /* d/dy fmod(a,y) = -trunc(a/y) */
double rem_builtin(double x) { return __builtin_fmod(3.0 * x, 0.7); }
double recip(double x) { return 1.0 / (1.0 + x * x); }
double two(double x, double y) { return x / y - y * x + (x - y) * (x + y); }

int main(void) {
  double x = 1.3;
  CHECK_SCALAR("add_sub", add_sub, x, 3.0);
  CHECK_SCALAR("mul_div", mul_div, x, (x * (x + 2.0) - 0.5 * x * x) / ((x + 2.0) * (x + 2.0)) + 3.0 / (x * x));
  CHECK_SCALAR("neg", neg, x, 3 * x * x - 1);
  CHECK_SCALAR("fmod", rem, x, 2 * x - trunc(7.0 / x));
  CHECK_SCALAR("fmod builtin", rem_builtin, x, 3.0);
  CHECK_SCALAR("reciprocal", recip, x, -2 * x / ((1 + x * x) * (1 + x * x)));
  double y = -0.6, v;
  double gx = 1 / y - y + 2 * x, gy = -x / (y * y) - x - 2 * y;
  check("two-arg reverse x", __enzyme_autodiff((void *)two, x, enzyme_const, y), gx, 1e-12);
  check("two-arg reverse y", __enzyme_autodiff((void *)two, enzyme_const, x, y), gy, 1e-12);
  check("two-arg forward both", __enzyme_fwddiff((void *)two, x, 0.5, y, -2.0), 0.5 * gx - 2.0 * gy, 1e-12);
  check("two-arg central x", CENTRAL(two(v, y), v, x), gx, 1e-6);
  check("two-arg central y", CENTRAL(two(x, v), v, y), gy, 1e-6);
  return finish();
}

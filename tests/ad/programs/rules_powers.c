#include "check.h"
/* sqrt, cbrt, pow with constant and variable exponents, integer powers (llvm.powi at -O1+), x^n by loop. */
double f_sqrt(double x) { return sqrt(x * x + 1.0); }
double f_cbrt(double x) { return cbrt(x) * x; }
double f_pow_const(double x) { return pow(x, 3.5); }
double f_pow_base(double x) { return pow(2.7, x); }
double f_pow_both(double x) { return pow(x, x); }
double f_powi(double x) { return __builtin_powi(x, 5) + __builtin_powi(x, -2); }
double f_pow_int_exp(double x) { return pow(x, 4.0); }
double f_loop_pow(double x) { double r = 1; for (int i = 0; i < 7; i++) r *= x; return r; }
double f_pow2(double x, double y) { return pow(x, y); }

int main(void) {
  double x = 1.7, v;
  CHECK_SCALAR("sqrt", f_sqrt, x, x / sqrt(x * x + 1));
  CHECK_SCALAR("cbrt", f_cbrt, x, cbrt(x) * 4.0 / 3.0);
  CHECK_SCALAR("pow const exp", f_pow_const, x, 3.5 * pow(x, 2.5));
  CHECK_SCALAR("pow const base", f_pow_base, x, log(2.7) * pow(2.7, x));
  CHECK_SCALAR("pow x^x", f_pow_both, x, pow(x, x) * (log(x) + 1));
  CHECK_SCALAR("powi", f_powi, x, 5 * pow(x, 4) - 2 * pow(x, -3));
  CHECK_SCALAR("pow int-valued exp", f_pow_int_exp, x, 4 * x * x * x);
  CHECK_SCALAR("loop power", f_loop_pow, x, 7 * pow(x, 6));
  double y = 0.8;
  check("pow dy reverse", __enzyme_autodiff((void *)f_pow2, enzyme_const, x, y), pow(x, y) * log(x), 1e-12);
  check("pow dy forward", __enzyme_fwddiff((void *)f_pow2, enzyme_const, x, y, 1.0), pow(x, y) * log(x), 1e-12);
  check("pow dy central", CENTRAL(f_pow2(x, v), v, y), pow(x, y) * log(x), 1e-6);
  /* pow at a negative base with an integer exponent stays differentiable in x. */
  CHECK_SCALAR("pow negative base", f_pow_int_exp, -1.3, 4 * pow(-1.3, 3));
  return finish();
}

#include "check.h"
/* ldexp (scale by 2^k), fma (and its builtin), fmuladd contraction, scalbn. */
double f_ldexp(double x) { return ldexp(x * x, 3); }
double f_ldexp_neg(double x) { return ldexp(x, -2) + scalbn(x, 1); }
double f_fma(double x) { return fma(x, x, 3.0 * x); }
double f_fma_builtin(double x, double y) { return __builtin_fma(x, y, x * y); }
double f_contract(double x) { double a = 1.5; for (int i = 0; i < 3; i++) a = a * x + 0.25; return a; }

int main(void) {
  double x = 1.1, y = -0.7, v;
  CHECK_SCALAR("ldexp", f_ldexp, x, 16 * x);
  CHECK_SCALAR("ldexp negative exp", f_ldexp_neg, x, 0.25 + 2.0);
  CHECK_SCALAR("fma", f_fma, x, 2 * x + 3);
  /* a = ((1.5x + .25)x + .25)x + .25 = 1.5x^3 + .25x^2 + .25x + .25 */
  CHECK_SCALAR("mul-add chain", f_contract, x, 4.5 * x * x + 0.5 * x + 0.25);
  check("fma dx", __enzyme_autodiff((void *)f_fma_builtin, x, enzyme_const, y), 2 * y, 1e-12);
  check("fma dy", __enzyme_fwddiff((void *)f_fma_builtin, enzyme_const, x, y, 1.0), 2 * x, 1e-12);
  check("fma central", CENTRAL(f_fma_builtin(v, y), v, x), 2 * y, 1e-6);
  return finish();
}

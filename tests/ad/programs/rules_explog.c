#include "check.h"
/* exp, expm1, exp2, log, log1p, log2, log10. */
double f_exp(double x) { return exp(-x * x); }
double f_expm1(double x) { return expm1(x * 0.5); }
double f_exp2(double x) { return exp2(x * 1.5); }
double f_log(double x) { return log(x * x + 1.0); }
double f_log1p(double x) { return log1p(x * 3.0); }
double f_log2(double x) { return log2(x) * x; }
double f_log10(double x) { return log10(x + 4.0); }

int main(void) {
  double x = 0.9;
  CHECK_SCALAR("exp", f_exp, x, -2 * x * exp(-x * x));
  CHECK_SCALAR("expm1", f_expm1, x, 0.5 * exp(x * 0.5));
  CHECK_SCALAR("exp2", f_exp2, x, 1.5 * log(2.0) * exp2(1.5 * x));
  CHECK_SCALAR("log", f_log, x, 2 * x / (x * x + 1));
  CHECK_SCALAR("log1p", f_log1p, x, 3.0 / (1 + 3 * x));
  CHECK_SCALAR("log2", f_log2, x, log2(x) + 1 / log(2.0));
  CHECK_SCALAR("log10", f_log10, x, 1 / ((x + 4) * log(10.0)));
  return finish();
}

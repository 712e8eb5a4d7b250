#include "check.h"
/* asin, acos, atan, asinh, acosh, atanh. */
double f_asin(double x) { return asin(x); }
double f_acos(double x) { return acos(x * 0.5); }
double f_atan(double x) { return atan(x * x); }
double f_asinh(double x) { return asinh(2 * x); }
double f_acosh(double x) { return acosh(x + 1.5); }
double f_atanh(double x) { return atanh(x); }

int main(void) {
  double x = 0.35;
  CHECK_SCALAR("asin", f_asin, x, 1 / sqrt(1 - x * x));
  CHECK_SCALAR("acos", f_acos, x, -0.5 / sqrt(1 - 0.25 * x * x));
  CHECK_SCALAR("atan", f_atan, x, 2 * x / (1 + x * x * x * x));
  CHECK_SCALAR("asinh", f_asinh, x, 2 / sqrt(4 * x * x + 1));
  CHECK_SCALAR("acosh", f_acosh, x, 1 / sqrt((x + 1.5) * (x + 1.5) - 1));
  CHECK_SCALAR("atanh", f_atanh, x, 1 / (1 - x * x));
  return finish();
}

#include "check.h"
/* sin, cos, tan, sinh, cosh, tanh. */
double f_sin(double x) { return sin(2 * x); }
double f_cos(double x) { return cos(x) * x; }
double f_tan(double x) { return tan(x); }
double f_sinh(double x) { return sinh(x); }
double f_cosh(double x) { return cosh(x * x); }
double f_tanh(double x) { return tanh(3 * x); }
double f_sincos(double x) { return sin(x) * cos(x); }   /* may become sincos at -O2 */

int main(void) {
  double x = 0.4;
  double c = cos(x);
  CHECK_SCALAR("sin", f_sin, x, 2 * cos(2 * x));
  CHECK_SCALAR("cos", f_cos, x, cos(x) - x * sin(x));
  CHECK_SCALAR("tan", f_tan, x, 1 / (c * c));
  CHECK_SCALAR("sinh", f_sinh, x, cosh(x));
  CHECK_SCALAR("cosh", f_cosh, x, 2 * x * sinh(x * x));
  CHECK_SCALAR("tanh", f_tanh, x, 3 * (1 - tanh(3 * x) * tanh(3 * x)));
  CHECK_SCALAR("sin*cos", f_sincos, x, cos(2 * x));
  return finish();
}

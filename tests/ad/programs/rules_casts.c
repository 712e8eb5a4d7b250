#include "check.h"
/* fptrunc/fpext between float and double, int<->float conversions (integers carry no derivative). */
double through_float(double x) { float f = (float)x; f = f * f; return (double)f * 2.0; }
double mixed(double x) { float a = (float)(x * 0.5); double b = a + x; return b * (double)a; }
double int_part(double x) { int k = (int)x; return x * k + (double)(k * k); }   /* k is piecewise constant */
double unsigned_scale(double x) { unsigned u = 3u; long l = -2; return x * u + x * x * l; }

int main(void) {
  double x = 2.25;   /* exactly representable in float, so the float round trip is exact here */
  double v;
  /* Single-precision intermediates: exact AD values, but central differences need a step far above float's eps. */
  check("float round trip reverse", __enzyme_autodiff((void *)through_float, x), 4 * x, 1e-6);
  check("float round trip forward", __enzyme_fwddiff((void *)through_float, x, 1.0), 4 * x, 1e-6);
  check("float round trip central", CENTRAL_H(through_float(v), v, x, 1e-2), 4 * x, 1e-3);
  /* mixed = (x/2 + x) * x/2 = 3x^2/4 */
  check("float intermediate reverse", __enzyme_autodiff((void *)mixed, x), 1.5 * x, 1e-6);
  check("float intermediate forward", __enzyme_fwddiff((void *)mixed, x, 1.0), 1.5 * x, 1e-6);
  check("float intermediate central", CENTRAL_H(mixed(v), v, x, 1e-2), 1.5 * x, 1e-3);
  CHECK_SCALAR("int part", int_part, x, 2.0);
  CHECK_SCALAR("unsigned/long", unsigned_scale, x, 3 - 4 * x);
  return finish();
}

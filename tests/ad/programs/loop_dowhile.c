#include "check.h"
/* do-while loops: at least one iteration, data-dependent count, and a Newton iteration for sqrt. */
double halving(double x) { double s = 0; int k = 0; do { s += x / (1 << k); k++; } while (k < 4); return s * s; }
double newton_sqrt(double a) { double y = a; do { y = 0.5 * (y + a / y); } while (fabs(y * y - a) > 1e-14 * a); return y; }
double grow_until(double x) { double y = x; int steps = 0; do { y = y * 1.5 + 0.1; steps++; } while (y < 10.0); return y * steps; }

int main(void) {
  double x = 1.2;
  CHECK_SCALAR("do-while counted", halving, x, 2 * x * 1.875 * 1.875);
  double a = 2.7;
  CHECK_SCALAR("newton sqrt", newton_sqrt, a, 0.5 / sqrt(a));
  /* x = 1.2: 1.9, 2.95, 4.525, 6.8875, 10.43125 -> 5 steps; y = 1.5^5 x + c */
  CHECK_SCALAR("grow until", grow_until, x, pow(1.5, 5) * 5);
  return finish();
}

#include "check.h"
/* Constant global tables (coefficients, knots), a global int counter, and table lookup by computed index. */
static const double COEFF[6] = {1.0, -0.5, 0.25, 0.125, -0.0625, 0.03125};
const double KNOTS[5] = {0.0, 0.5, 1.0, 2.0, 4.0};
const double VALUES[5] = {1.0, 1.5, 0.5, 2.0, 3.0};
static const struct { double scale; int order; } CONFIG = {2.0, 6};
int evaluations = 0;

double series(double x) {
  evaluations++;
  double s = 0, p = 1;
  for (int i = 0; i < CONFIG.order; i++) { s += COEFF[i] * p; p *= x; }
  return s * CONFIG.scale;
}
/* piecewise-linear interpolation in the tables; the segment index is integer, the weights are active */
double interp(double x) {
  int k = 0;
  while (k < 3 && x > KNOTS[k + 1]) k++;
  double t = (x - KNOTS[k]) / (KNOTS[k + 1] - KNOTS[k]);
  return VALUES[k] * (1 - t) + VALUES[k + 1] * t;
}
double interp_sq(double x) { double y = interp(x); return y * y; }

int main(void) {
  double x = 0.6;
  double g = 0;
  for (int i = 1; i < 6; i++) g += i * COEFF[i] * pow(x, i - 1);
  CHECK_SCALAR("series with const tables", series, x, 2.0 * g);
  double pts[4] = {0.25, 0.75, 1.5, 3.0};
  for (int k = 0; k < 4; k++) {
    int s = 0;
    while (s < 3 && pts[k] > KNOTS[s + 1]) s++;
    double slope = (VALUES[s + 1] - VALUES[s]) / (KNOTS[s + 1] - KNOTS[s]);
    CHECK_SCALAR("table interpolation", interp, pts[k], slope);
    CHECK_SCALAR("table interpolation squared", interp_sq, pts[k], 2 * interp(pts[k]) * slope);
  }
  check("global counter counted every call", evaluations > 0 ? 1.0 : 0.0, 1.0, 0.0);
  return finish();
}

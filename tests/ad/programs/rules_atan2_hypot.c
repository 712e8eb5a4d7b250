#include "check.h"
/* atan2 and hypot: partials in both arguments, all four quadrants for atan2. */
typedef struct { double dx, dy; } G2;
G2 __enzyme_autodiff_g2(void *, ...);
double f_atan2(double y, double x) { return atan2(y, x); }
double f_hypot(double x, double y) { return hypot(x, y); }

int main(void) {
  double pts[4][2] = {{0.7, 1.2}, {0.7, -1.2}, {-0.7, -1.2}, {-0.7, 1.2}};
  for (int k = 0; k < 4; k++) {
    double y = pts[k][0], x = pts[k][1], r2 = x * x + y * y, v;
    G2 g = __enzyme_autodiff_g2((void *)f_atan2, enzyme_out, y, enzyme_out, x);
    check("atan2 dy", g.dx, x / r2, 1e-12);
    check("atan2 dx", g.dy, -y / r2, 1e-12);
    check("atan2 dy central", CENTRAL(f_atan2(v, x), v, y), x / r2, 1e-6);
    check("atan2 dx central", CENTRAL(f_atan2(y, v), v, x), -y / r2, 1e-6);
    check("atan2 forward", __enzyme_fwddiff((void *)f_atan2, y, 1.0, x, 2.0), x / r2 - 2 * y / r2, 1e-12);
    G2 h = __enzyme_autodiff_g2((void *)f_hypot, enzyme_out, x, enzyme_out, y);
    check("hypot dx", h.dx, x / sqrt(r2), 1e-12);
    check("hypot dy", h.dy, y / sqrt(r2), 1e-12);
    check("hypot dx central", CENTRAL(f_hypot(v, y), v, x), x / sqrt(r2), 1e-6);
    check("hypot forward", __enzyme_fwddiff((void *)f_hypot, enzyme_const, x, y, 1.0), y / sqrt(r2), 1e-12);
  }
  return finish();
}

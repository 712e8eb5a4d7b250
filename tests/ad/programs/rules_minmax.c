#include "check.h"
/* fmin, fmax, fabs, copysign, fdim: the derivative follows the selected branch. */
double f_fmin(double x) { return fmin(x * x, 2.0 * x); }
double f_fmax(double x) { return fmax(x * x, 2.0 * x); }
double f_fabs(double x) { return fabs(x * x - 1.0) * 3.0; }
double f_copysign(double x) { return copysign(x * x, -1.0) + copysign(2.0, x) * x; }
double f_copysign_mag(double x) { return copysign(3.0 * x, 0.5); }
double f_fdim(double x) { return fdim(x * 3.0, 1.0); }
double f_fdim2(double x) { return fdim(1.0, x); }
double both_min(double x, double y) { return fmin(x, y) * fmax(x, y); }

int main(void) {
  double lo = 0.5, hi = 3.0, v;
  CHECK_SCALAR("fmin lo", f_fmin, lo, 2 * lo);
  CHECK_SCALAR("fmin hi", f_fmin, hi, 2.0);
  CHECK_SCALAR("fmax lo", f_fmax, lo, 2.0);
  CHECK_SCALAR("fmax hi", f_fmax, hi, 2 * hi);
  CHECK_SCALAR("fabs inside", f_fabs, lo, -6 * lo);
  CHECK_SCALAR("fabs outside", f_fabs, hi, 6 * hi);
  CHECK_SCALAR("fabs negative x", f_fabs, -hi, -6 * hi);
  CHECK_SCALAR("copysign", f_copysign, lo, -2 * lo + 2.0);
  CHECK_SCALAR("copysign negative", f_copysign, -lo, 2 * lo - 2.0);
  CHECK_SCALAR("copysign magnitude", f_copysign_mag, -lo, -3.0);
  CHECK_SCALAR("fdim active", f_fdim, lo, 3.0);
  CHECK_SCALAR("fdim clipped", f_fdim, 0.2, 0.0);
  CHECK_SCALAR("fdim second arg", f_fdim2, 0.2, -1.0);
  double x = 0.4, y = 1.1;
  check("min*max dx", __enzyme_autodiff((void *)both_min, x, enzyme_const, y), y, 1e-12);
  check("min*max dy forward", __enzyme_fwddiff((void *)both_min, enzyme_const, x, y, 1.0), x, 1e-12);
  check("min*max central", CENTRAL(both_min(v, y), v, x), y, 1e-6);
  return finish();
}

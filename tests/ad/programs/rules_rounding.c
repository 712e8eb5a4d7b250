#include "check.h"
/* floor, ceil, round, trunc, rint, nearbyint have zero derivative; fmod's remainder keeps slope 1 in x. */
double f_round(double x) { return floor(x) * x + ceil(x) + round(x * 3) + trunc(x) + rint(x) + nearbyint(x); }
double f_only_round(double x) { return floor(x * 2.0) + ceil(x); }
double f_frac(double x) { return x - floor(x); }
double f_fmod(double x) { return fmod(x, 0.75) * fmod(x, 0.75); }
double f_lround(double x) { long k = lround(x); return x * (double)k; }

int main(void) {
  double x = 2.3;
  CHECK_SCALAR("floor*x + ...", f_round, x, floor(x));
  CHECK_SCALAR("pure rounding", f_only_round, x, 0.0);
  CHECK_SCALAR("fractional part", f_frac, x, 1.0);
  CHECK_SCALAR("fmod squared", f_fmod, x, 2 * fmod(x, 0.75));
  CHECK_SCALAR("lround", f_lround, x, 2.0);
  CHECK_SCALAR("fractional part negative", f_frac, -1.6, 1.0);
  return finish();
}

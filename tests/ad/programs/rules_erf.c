#include "check.h"
/* erf, erfc, and the Gaussian CDF built from them. */
double f_erf(double x) { return erf(x); }
double f_erfc(double x) { return erfc(2 * x); }
double normal_cdf(double x) { return 0.5 * erfc(-x / sqrt(2.0)); }

int main(void) {
  const double pi = 3.14159265358979323846;
  double pts[3] = {-0.8, 0.1, 1.4};
  for (int k = 0; k < 3; k++) {
    double x = pts[k];
    CHECK_SCALAR("erf", f_erf, x, 2 / sqrt(pi) * exp(-x * x));
    CHECK_SCALAR("erfc", f_erfc, x, -4 / sqrt(pi) * exp(-4 * x * x));
    CHECK_SCALAR("normal cdf", normal_cdf, x, exp(-x * x / 2) / sqrt(2 * pi));
  }
  return finish();
}

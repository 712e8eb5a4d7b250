// A C-variadic function called with active doubles inside try (an invoke at -O0) and able to throw (issue 11);
// checked against central differences, reverse and forward.
#include "check.h"
#include <cstdarg>
#include <stdexcept>
static double vmax(int n, ...) {
  va_list ap; va_start(ap, n);
  double m = va_arg(ap, double);
  for (int i = 1; i < n; i++) { double v = va_arg(ap, double); if (v > m) m = v; }
  va_end(ap);
  if (m > 1e9) throw std::runtime_error("too big");
  return m;
}
extern "C" double f(const double *p) {
  double s = 0;
  for (int k = 0; k < 3; k++) {
    try { s += vmax(3, p[0] * k, p[1], 2.0 * p[0] - p[1]) * p[k]; }
    catch (const std::exception &) { s += 1; }
  }
  return s;
}
int main() {
  double p[3] = {0.9, 1.1, 0.3}, dp[3] = {0, 0, 0};
  __enzyme_autodiff((void *)f, enzyme_dup, p, dp);
  for (int q = 0; q < 3; q++) {
    double t[3] = {0, 0, 0}; t[q] = 1;
    double fd = CENTRAL(f(p), p[q], p[q]);
    check("rev", dp[q], fd, 1e-6);
    check("fwd", __enzyme_fwddiff((void *)f, enzyme_dup, p, t), fd, 1e-6);
  }
  return finish();
}

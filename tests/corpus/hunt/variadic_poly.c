#include "hunt.h"
#include <stdarg.h>
/* Thermodynamic property fits in the NASA-polynomial style, evaluated through variadic helpers: a Horner
   evaluation taking its coefficients as `...` (some of them the fitted parameters), a variadic mixture
   average over (fraction, value) pairs read with va_arg, and a va_copy to take two passes over the same
   list.  Objective: the mixture's enthalpy-like integral over a temperature range.
   Inputs: two fitted coefficients and a mole fraction. */
static double horner(double x, int n, ...) {
  va_list ap;
  va_start(ap, n);
  double c[8];
  for (int i = 0; i < n && i < 8; i++) c[i] = va_arg(ap, double);
  va_end(ap);
  double v = 0.0;
  for (int i = n - 1; i >= 0; i--) v = v * x + c[i];
  return v;
}

/* sum of fraction * value over npairs (fraction, value) pairs, normalised by the sum of fractions */
static double mixture(int npairs, ...) {
  va_list ap, again;
  va_start(ap, npairs);
  va_copy(again, ap);
  double total = 0.0;
  for (int i = 0; i < npairs; i++) {
    total += va_arg(ap, double);
    (void)va_arg(ap, double);
  }
  double s = 0.0;
  for (int i = 0; i < npairs; i++) {
    double f = va_arg(again, double);
    double v = va_arg(again, double);
    s += f * v;
  }
  va_end(again);
  va_end(ap);
  return s / total;
}

double enthalpy_integral(const double *p, int n) {
  double a1 = p[0], a2 = p[1], y = p[2];
  double sum = 0.0;
  for (int i = 0; i <= n; i++) {
    double T = 300.0 + 1200.0 * i / n, t = T / 1000.0;
    double cp_a = horner(t, 4, 3.5, a1, -0.8 * a2, 0.1);
    double cp_b = horner(t, 5, 2.9, 1.2, a2, -0.3, 0.02 * a1);
    double cp_c = horner(t, 3, 4.1, 0.5, -0.05);
    double cp = mixture(3, y, cp_a, 1.0 - y, cp_b, 0.3, cp_c);
    double w = (i == 0 || i == n) ? 0.5 : 1.0;
    sum += w * cp * 1200.0 / n;
  }
  return sum / 1000.0;
}

static double p[3] = {1.4, 0.7, 0.35};

int main(void) {
  const int n = 30;
  double fd[3], ad[3], dp[3] = {0};
  for (int q = 0; q < 3; q++) fd[q] = HUNT_FD(enthalpy_integral(p, n), p[q]);
#ifdef MODE_REV
  __enzyme_autodiff((void *)enthalpy_integral, enzyme_dup, p, dp, enzyme_const, n);
  hunt_check_vec("grad", dp, fd, 3);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < 3; q++) {
    dp[q] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)enthalpy_integral, enzyme_dup, p, dp, enzyme_const, n);
    dp[q] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, 3);
#endif
  (void)ad;
  return hunt_finish();
}

/* Solvers warm-started from the previous call's answer kept in a static variable.  A derivative call made
   right after a primal call at the same point would start converged: no iteration runs and the result is a
   value set before the call, with no derivative.  Derivative calls must start cold (from the variable's
   initial value); primal calls keep their warm start. */
#include "check.h"

static int newton_iterations = 0;

/* temperature from enthalpy, h(T) = T + 1e-3 T^2 */
static double temperature(double h) {
  static double T_guess = 300.0;
  double T = T_guess;
  while (fabs(T + 1e-3 * T * T - h) > 1e-13 * fabs(h)) {
    T -= (T + 1e-3 * T * T - h) / (1.0 + 2e-3 * T);
    newton_iterations++;
  }
  T_guess = T;
  return T;
}

/* root of x^3 + a x - 1 by Newton from a zero-initialised static guess, loop with a break */
static double last_root;
static double cubic_root(double a) {
  double x = last_root;
  for (int it = 0; it < 100; it++) {
    double f = x * x * x + a * x - 1.0;
    if (fabs(f) < 1e-14) break;
    x -= f / (3 * x * x + a);
  }
  last_root = x;
  return x;
}

double objective(double h, double a) { return 2.0 * temperature(h) + cubic_root(a) * cubic_root(a); }

int main(void) {
  double h = 400.0, a = 2.0;
  objective(h, a);
  int before = newton_iterations;
  objective(h, a); /* warm: no Newton step */
  if (newton_iterations != before) { printf("MISMATCH the primal did not warm-start\n"); failures++; }
  double T = temperature(h), x = cubic_root(a);
  double dT = 1.0 / (1.0 + 2e-3 * T), dx = -x / (3 * x * x + a);
  check("reverse d/dh (warm start)", __enzyme_autodiff((void *)objective, h, enzyme_const, a), 2 * dT, 1e-9);
  objective(h, a);
  check("reverse d/da (warm start)", __enzyme_autodiff((void *)objective, enzyme_const, h, a), 2 * x * dx, 1e-9);
  objective(h, a);
  check("forward d/dh (warm start)", __enzyme_fwddiff((void *)objective, h, 1.0, enzyme_const, a), 2 * dT, 1e-9);
  objective(h, a);
  check("forward d/da (warm start)", __enzyme_fwddiff((void *)objective, enzyme_const, h, a, 1.0), 2 * x * dx, 1e-9);
  objective(h, a);
  before = newton_iterations;
  objective(h, a);
  if (newton_iterations != before) { printf("MISMATCH the primal no longer warm-starts after derivatives\n"); failures++; }
  check("central d/dh", CENTRAL(objective(h, a), h, h), 2 * dT, 1e-6);
  return finish();
}

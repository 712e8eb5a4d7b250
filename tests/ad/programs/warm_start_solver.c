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

/* not a warm start: a simulation clock each call advances, the result depends on where it starts */
static double clock_now = 0.0;
static double decay_to(double t_end, double k) {
  double y = 1.0, t = clock_now;
  while (t < t_end - 1e-9) {
    y *= exp(-0.1 * k);
    t += 0.1;
  }
  clock_now = t;
  return y * t;
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
  double k = 0.3;
  clock_now = 5.0;
  double dk = __enzyme_autodiff((void *)decay_to, enzyme_const, 6.0, k);
  check("reverse clock from 5 to 6", dk, -6.0 * exp(-k), 1e-9);
  clock_now = 5.0;
  check("forward clock from 5 to 6", __enzyme_fwddiff((void *)decay_to, enzyme_const, 6.0, k, 1.0), -6.0 * exp(-k), 1e-9);
  return finish();
}

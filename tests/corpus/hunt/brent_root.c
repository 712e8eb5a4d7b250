#include "hunt.h"
/* Numerical-recipes style root finding inside a model: the equilibrium temperature of a radiating plate
   (sigma eps T^4 + h (T - T_air) = q_abs) is bracketed by expanding an interval in a `while` loop,
   narrowed by bisection to a loose tolerance, then solved by Brent's method (inverse quadratic
   interpolation / secant / bisection with early `return` on convergence), and finally polished by one
   Newton step, which is what carries the implicit derivative.  A second root (Colebrook friction factor,
   fixed point in 1/sqrt(f)) uses a `for` loop with `break`.  Objective: a heat-loss balance using both. */
typedef double (*scalar_fn)(double x, const double *p);

static double plate_residual(double T, const double *p) {
  return 5.670e-8 * p[0] * T * T * T * T + p[1] * (T - p[2]) - p[3];
}
static double plate_slope(double T, const double *p) { return 4 * 5.670e-8 * p[0] * T * T * T + p[1]; }

static double brent(scalar_fn f, const double *p, double a, double b, double tol) {
  double fa = f(a, p), fb = f(b, p), c = a, fc = fa, d = b - a, e = d;
  for (int iter = 0; iter < 100; iter++) {
    if ((fb > 0 && fc > 0) || (fb < 0 && fc < 0)) { c = a; fc = fa; d = b - a; e = d; }
    if (fabs(fc) < fabs(fb)) { a = b; b = c; c = a; fa = fb; fb = fc; fc = fa; }
    double tol1 = 2 * 2.2e-16 * fabs(b) + 0.5 * tol, xm = 0.5 * (c - b);
    if (fabs(xm) <= tol1 || fb == 0.0) return b;
    if (fabs(e) >= tol1 && fabs(fa) > fabs(fb)) {
      double s = fb / fa, pp, q;
      if (a == c) { pp = 2 * xm * s; q = 1 - s; }
      else {
        double qq = fa / fc, r = fb / fc;
        pp = s * (2 * xm * qq * (qq - r) - (b - a) * (r - 1));
        q = (qq - 1) * (r - 1) * (s - 1);
      }
      if (pp > 0) q = -q;
      pp = fabs(pp);
      if (2 * pp < fmin(3 * xm * q - fabs(tol1 * q), fabs(e * q))) { e = d; d = pp / q; }
      else { d = xm; e = d; }
    } else { d = xm; e = d; }
    a = b; fa = fb;
    b += fabs(d) > tol1 ? d : copysign(tol1, xm);
    fb = f(b, p);
  }
  return b;
}

static double plate_temperature(const double *p) {
  double lo = p[2], hi = p[2] + 10;
  while (plate_residual(hi, p) < 0) { lo = hi; hi *= 1.5; }     /* expand the bracket */
  while (hi - lo > 5.0) {                                       /* coarse bisection */
    double mid = 0.5 * (lo + hi);
    if (plate_residual(mid, p) > 0) hi = mid; else lo = mid;
  }
  double T = brent(plate_residual, p, lo, hi, 1e-10);
  return T - plate_residual(T, p) / plate_slope(T, p);          /* Newton polish */
}

static double colebrook(double re, double rough) {
  double x = 8.0; /* x = 1/sqrt(f) */
  for (int k = 0; k < 60; k++) {
    double g = -2 * log10(rough / 3.7 + 2.51 * x / re);
    if (fabs(g - x) < 1e-14 * x) { x = g; break; }
    x = g;
  }
  /* Newton polish on F(x) = x + 2 log10(rough/3.7 + 2.51 x / re) */
  double arg = rough / 3.7 + 2.51 * x / re;
  double F = x + 2 * log10(arg), dF = 1 + 2 * 2.51 / (re * arg * log(10.0));
  x -= F / dF;
  return 1 / (x * x);
}

double heat_balance(const double *p, double velocity) {
  double T = plate_temperature(p);
  double re = 4.0e4 * velocity, f = colebrook(re, p[4]);
  return (T - p[2]) * p[1] + 120 * f * velocity * velocity + 1e-3 * T * T;
}

enum { NPAR = 5 };
static double p[NPAR] = {0.85, 12.0, 293.0, 900.0, 1e-3};

int main(void) {
  double v = 2.5, fd[NPAR + 1], ad[NPAR + 1];
  for (int k = 0; k < NPAR; k++) {
    hunt_fd_step = fabs(p[k]) < 1 ? 1e-4 * fabs(p[k]) : 1e-5;
    fd[k] = HUNT_FD(heat_balance(p, v), p[k]);
  }
  hunt_fd_step = 1e-5;
  fd[NPAR] = HUNT_FD(heat_balance(p, v), v);
#ifdef MODE_REV
  double dp[NPAR] = {0};
  ad[NPAR] = __enzyme_autodiff((void *)heat_balance, enzyme_dup, p, dp, v);
  for (int k = 0; k < NPAR; k++) ad[k] = dp[k];
#endif
#ifdef MODE_FWD
  for (int k = 0; k <= NPAR; k++) {
    double dp[NPAR] = {0};
    if (k < NPAR) dp[k] = 1;
    ad[k] = __enzyme_fwddiff((void *)heat_balance, enzyme_dup, p, dp, v, k == NPAR ? 1.0 : 0.0);
  }
#endif
  for (int k = 0; k < NPAR; k++) { ad[k] *= p[k]; fd[k] *= p[k]; } /* relative sensitivities */
  hunt_check_vec("grad", ad, fd, NPAR + 1);
  return hunt_finish();
}

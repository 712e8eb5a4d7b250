#include "check.h"
/* Computations on active inputs that never reach the result: a norm only tested against a threshold,
   counted, converted to an integer bin, printed, and logged into a local diagnostics array that nothing
   reads back into the result.  Activity analysis proves them constant, so the derivative has no code for
   them (tests/ad/test_activity_pruning.py looks at the IR); the numbers must stay right. */

#define NLOG 8

double energy(const double *x, int n, int verbose) {
  double e = 0.0, log_r[NLOG];
  int far = 0, hist[4] = {0};
  for (int i = 0; i < n; i++) {
    double r = sqrt(x[i] * x[i] + 1.0);            /* a distance, used only for diagnostics */
    if (r > 2.0) far++;
    hist[(int)r & 3]++;
    log_r[i % NLOG] = log(r);
    e += 0.5 * x[i] * x[i] * (i + 1) + sin(x[i]);
  }
  if (verbose) printf("far %d, hist %d %d %d %d, log r0 %g\n", far, hist[0], hist[1], hist[2], hist[3], log_r[0]);
  return e;
}

/* The same diagnostics, with results written through a pointer: y[i] = x[i]^2 + cos(x[i]). */
void square_all(const double *x, double *y, int n) {
  double worst = 0.0;
  for (int i = 0; i < n; i++) {
    double scaled = exp(x[i]) / (1.0 + x[i] * x[i]);
    if (scaled > worst) worst = scaled;
    y[i] = x[i] * x[i] + cos(x[i]);
  }
  if (worst > 1e300) printf("overflow risk %g\n", worst);
}

int main(void) {
  enum { N = 5 };
  double x[N] = {0.5, -1.5, 2.25, 3.0, -0.75}, dx[N] = {0};
  __enzyme_autodiff((void *)energy, enzyme_dup, x, dx, enzyme_const, N, enzyme_const, 0);
  for (int i = 0; i < N; i++) {
    double g = x[i] * (i + 1) + cos(x[i]);
    check("energy reverse", dx[i], g, 1e-12);
    check("energy central", CENTRAL(energy(x, N, 0), x[i], x[i]), g, 1e-6);
    double t[N] = {0};
    t[i] = 1.0;
    check("energy forward", __enzyme_fwddiff((void *)energy, enzyme_dup, x, t, enzyme_const, N, enzyme_const, 0),
          g, 1e-12);
  }
  double y[N], ybar[N] = {1, -2, 0.5, 3, 1}, xbar[N] = {0}, xdot[N] = {1, 0.5, -1, 2, 0.25}, ydot[N] = {0};
  __enzyme_fwddiff((void *)square_all, enzyme_dup, x, xdot, enzyme_dup, y, ydot, enzyme_const, N);
  __enzyme_autodiff((void *)square_all, enzyme_dup, x, xbar, enzyme_dup, y, ybar, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    double d = 2 * x[i] - sin(x[i]);
    check("square_all forward", ydot[i], d * xdot[i], 1e-12);
    check("square_all reverse", xbar[i], d * (i == 0 ? 1 : i == 1 ? -2 : i == 2 ? 0.5 : i == 3 ? 3 : 1), 1e-12);
  }
  return finish();
}

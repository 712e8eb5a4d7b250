/* Gradient/primal time ratios: sum of squares and extended Rosenbrock over 1e6 doubles,
   RK4 integration of a 2-variable ODE over 1e4 steps.  Primal and gradient run side by side. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);

double sumsq(const double *x, long n) { double s = 0; for (long i = 0; i < n; i++) s += x[i] * x[i]; return s; }
double rosen(const double *x, long n) {
  double s = 0;
  for (long i = 0; i + 1 < n; i++) { double a = x[i + 1] - x[i] * x[i], b = 1.0 - x[i]; s += 100.0 * a * a + b * b; }
  return s;
}
static void rhs(double t, const double *y, double *dy, const double *p) { dy[0] = p[0] * y[0] - p[1] * y[0] * y[1]; dy[1] = p[2] * y[0] * y[1] - p[3] * y[1]; (void)t; }
double rk4(const double *p, long steps) {
  double y[2] = {1.0, 0.5}, k1[2], k2[2], k3[2], k4[2], t[2], h = 1e-3;
  for (long s = 0; s < steps; s++) {
    rhs(0, y, k1, p);
    for (int i = 0; i < 2; i++) t[i] = y[i] + 0.5 * h * k1[i];
    rhs(0, t, k2, p);
    for (int i = 0; i < 2; i++) t[i] = y[i] + 0.5 * h * k2[i];
    rhs(0, t, k3, p);
    for (int i = 0; i < 2; i++) t[i] = y[i] + h * k3[i];
    rhs(0, t, k4, p);
    for (int i = 0; i < 2; i++) y[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  }
  return y[0] + y[1];
}

static double now(void) { struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts); return ts.tv_sec + 1e-9 * ts.tv_nsec; }

#define BEST(expr, reps) ({ double _best = 1e30; for (int _r = 0; _r < (reps); _r++) { double _t = now(); expr; double _d = now() - _t; if (_d < _best) _best = _d; } _best; })

volatile double sink;

int main(void) {
  long n = 1000000;
  double *x = malloc(n * sizeof(double)), *dx = malloc(n * sizeof(double));
  for (long i = 0; i < n; i++) x[i] = 0.5 + 1e-6 * (double)i;
  double tp = BEST(sink = sumsq(x, n), 20);
  double tg = BEST((memset(dx, 0, n * sizeof(double)), __enzyme_autodiff((void *)sumsq, enzyme_dup, x, dx, enzyme_const, n)), 20);
  printf("sum of squares   n=%ld  primal %.3f ms  gradient %.3f ms  ratio %.2f  (check dx[7]=%g vs %g)\n", n, tp * 1e3, tg * 1e3, tg / tp, dx[7], 2 * x[7]);
  tp = BEST(sink = rosen(x, n), 20);
  tg = BEST((memset(dx, 0, n * sizeof(double)), __enzyme_autodiff((void *)rosen, enzyme_dup, x, dx, enzyme_const, n)), 20);
  { long i = 5; double ex = -400 * x[i] * (x[i + 1] - x[i] * x[i]) - 2 * (1 - x[i]) + 200 * (x[i] - x[i - 1] * x[i - 1]);
    printf("rosenbrock       n=%ld  primal %.3f ms  gradient %.3f ms  ratio %.2f  (check dx[5]=%.12g vs %.12g)\n",
           n, tp * 1e3, tg * 1e3, tg / tp, dx[i], ex); }
  double p[4] = {1.1, 0.4, 0.1, 0.4}, dp[4];
  long steps = 10000;
  tp = BEST(sink = rk4(p, steps), 50);
  tg = BEST((memset(dp, 0, sizeof dp), __enzyme_autodiff((void *)rk4, enzyme_dup, p, dp, enzyme_const, steps)), 50);
  double q[4] = {1.1, 0.4, 0.1, 0.4}, hh = 1e-6; q[1] += hh; double fp = rk4(q, steps); q[1] -= 2 * hh; double fm = rk4(q, steps);
  printf("rk4 ODE          steps=%ld  primal %.3f ms  gradient %.3f ms  ratio %.2f  (check dp[1]=%.9g vs fd %.9g)\n",
         steps, tp * 1e3, tg * 1e3, tg / tp, dp[1], (fp - fm) / (2 * hh));
  return 0;
}

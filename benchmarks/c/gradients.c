/* Gradient time against clang -O3's primal time for each kernel (kernels.c, gmm.c), in one run.
   clang_<name> is the kernel built by plain clang -O3; <name> the same source through the pyenzyme
   pipeline (its primal and its gradient).  Each gradient is checked once against central differences. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gmm.h"

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);

double sumsq(const double *x, long n), clang_sumsq(const double *x, long n);
double rosen(const double *x, long n), clang_rosen(const double *x, long n);
double rk4(const double *p, long steps), clang_rk4(const double *p, long steps);
void clang_gmm_objective(int d, int k, int n, const double *alphas, const double *means, const double *icf,
                         const double *x, Wishart wishart, double *err);

/* Bytes the gradient pushed on its tape: counted by the tape runtime when the module was built with
   PYENZYME_TAPE_STATS=1, else left at 0. */
long __pyenzyme_tape_bytes;

static double now(void) { struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts); return ts.tv_sec + 1e-9 * ts.tv_nsec; }

#define BEST(expr, reps) ({ double _best = 1e30; for (int _r = 0; _r < (reps); _r++) { double _t = now(); expr; double _d = now() - _t; if (_d < _best) _best = _d; } _best; })

static long tape_bytes(void) { return *(volatile long *)&__pyenzyme_tape_bytes; }

static void report(const char *name, double t_clang, double t_own, double t_grad, long tape, double got, double fd) {
  printf("%-16s clang -O3 primal %9.3f us  own primal %9.3f us  gradient %9.3f us  ratio %6.2f  tape %9ld B  "
         "check %.10g vs fd %.10g\n", name, t_clang * 1e6, t_own * 1e6, t_grad * 1e6, t_grad / t_clang, tape, got, fd);
  if (!(fabs(got - fd) <= 1e-4 * (1 + fabs(fd)))) { printf("%s: gradient disagrees with finite differences\n", name); exit(1); }
}

volatile double sink;

static void bench_simple(void) {
  long n = 1000000;
  double *x = malloc(n * sizeof(double)), *dx = malloc(n * sizeof(double));
  for (long i = 0; i < n; i++) x[i] = 0.5 + 1e-6 * (double)i;
  double tc = BEST(sink = clang_sumsq(x, n), 20), tp = BEST(sink = sumsq(x, n), 20), tg, h = 1e-4;
  long t0 = tape_bytes();
  __enzyme_autodiff((void *)sumsq, enzyme_dup, x, dx, enzyme_const, n);
  long tape = tape_bytes() - t0;
  tg = BEST((memset(dx, 0, n * sizeof(double)), __enzyme_autodiff((void *)sumsq, enzyme_dup, x, dx, enzyme_const, n)), 20);
  double x7 = x[7]; x[7] = x7 + h; double fp = sumsq(x, n); x[7] = x7 - h; double fm = sumsq(x, n); x[7] = x7;
  report("sum of squares", tc, tp, tg, tape, dx[7], (fp - fm) / (2 * h));

  tc = BEST(sink = clang_rosen(x, n), 20); tp = BEST(sink = rosen(x, n), 20);
  t0 = tape_bytes();
  __enzyme_autodiff((void *)rosen, enzyme_dup, x, dx, enzyme_const, n);
  tape = tape_bytes() - t0;
  tg = BEST((memset(dx, 0, n * sizeof(double)), __enzyme_autodiff((void *)rosen, enzyme_dup, x, dx, enzyme_const, n)), 20);
  double x5 = x[5]; x[5] = x5 + h; fp = rosen(x, n); x[5] = x5 - h; fm = rosen(x, n); x[5] = x5;
  report("rosenbrock", tc, tp, tg, tape, dx[5], (fp - fm) / (2 * h));
  free(x); free(dx);

  double p[4] = {1.1, 0.4, 0.1, 0.4}, dp[4];
  long steps = 10000;
  tc = BEST(sink = clang_rk4(p, steps), 50); tp = BEST(sink = rk4(p, steps), 50);
  t0 = tape_bytes();
  __enzyme_autodiff((void *)rk4, enzyme_dup, p, dp, enzyme_const, steps);
  tape = tape_bytes() - t0;
  tg = BEST((memset(dp, 0, sizeof dp), __enzyme_autodiff((void *)rk4, enzyme_dup, p, dp, enzyme_const, steps)), 50);
  double p1 = p[1]; p[1] = p1 + h; fp = rk4(p, steps); p[1] = p1 - h; fm = rk4(p, steps); p[1] = p1;
  report("rk4 ODE", tc, tp, tg, tape, dp[1], (fp - fm) / (2 * h));
}

/* ADBench's d=10, k=25, n=1000 problem with deterministic pseudo-random data. */
static void bench_gmm(void) {
  enum { D = 10, K = 25, N = 1000, ICF = D * (D + 1) / 2 };
  static double alphas[K], means[K * D], icf[K * ICF], x[N * D];
  static double dalphas[K], dmeans[K * D], dicf[K * ICF];
  unsigned s = 12345;
#define RAND() ((s = s * 1103515245u + 12345u) / 4294967296.0)
  for (int i = 0; i < K; i++) alphas[i] = RAND() - 0.5;
  for (int i = 0; i < K * D; i++) means[i] = RAND();
  for (int i = 0; i < K * ICF; i++) icf[i] = 0.5 * (RAND() - 0.5);
  for (int i = 0; i < N * D; i++) x[i] = RAND();
  Wishart w = {1.0, 0};
  double err, derr;
  double tc = BEST(clang_gmm_objective(D, K, N, alphas, means, icf, x, w, &err), 50);
  double tp = BEST(gmm_objective(D, K, N, alphas, means, icf, x, w, &err), 50);
#define GRAD() (memset(dalphas, 0, sizeof dalphas), memset(dmeans, 0, sizeof dmeans), memset(dicf, 0, sizeof dicf), \
                derr = 1.0, __enzyme_autodiff((void *)gmm_objective, enzyme_const, D, enzyme_const, K, enzyme_const, N, \
                enzyme_dup, alphas, dalphas, enzyme_dup, means, dmeans, enzyme_dup, icf, dicf, enzyme_const, x, \
                enzyme_const, w, enzyme_dupnoneed, &err, &derr))
  long t0 = tape_bytes();
  GRAD();
  long tape = tape_bytes() - t0;
  double tg = BEST(GRAD(), 50);
  /* One component of each input array against central differences. */
  double *args[3] = {alphas, means, icf}, *grads[3] = {dalphas, dmeans, dicf};
  int idx[3] = {3, 17, 2 * ICF + 12};
  const char *names[3] = {"gmm d/dalphas", "gmm d/dmeans", "gmm d/dicf"};
  for (int a = 0; a < 3; a++) {
    double h = 1e-4, v = args[a][idx[a]], fp, fm;
    args[a][idx[a]] = v + h; gmm_objective(D, K, N, alphas, means, icf, x, w, &fp);
    args[a][idx[a]] = v - h; gmm_objective(D, K, N, alphas, means, icf, x, w, &fm);
    args[a][idx[a]] = v;
    report(a == 0 ? "GMM d10 k25 n1k" : names[a], tc, tp, tg, tape, grads[a][idx[a]], (fp - fm) / (2 * h));
  }
}

int main(void) {
  bench_simple();
  bench_gmm();
  return 0;
}

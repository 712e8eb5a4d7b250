#include "hunt.h"
#include <assert.h>
/* Everyday C idioms inside a differentiated solver: assert() on the inputs, a static call counter,
   fprintf progress logging to stderr, variable-length arrays for scratch, goto-based cleanup, an
   early return on a failed check, and a const lookup table.  The model: Jacobi iterations for a
   1-D nonlinear boundary value problem -u'' + c u^3 = f.  Inputs: c and f. */
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);

static const double QUAD_WEIGHTS[3] = {1.0 / 6, 4.0 / 6, 1.0 / 6};
static int solve_calls = 0;

double bvp_functional(const double *f, double c, int n, int iters, int verbose) {
  assert(n >= 3 && iters > 0);
  solve_calls++;
  double result = NAN;
  double h = 1.0 / (n + 1);
  double *u = calloc(n + 2, sizeof(double));
  if (!u) goto out;
  {
    double unew[n + 2]; /* VLA */
    unew[0] = unew[n + 1] = 0.0;
    for (int it = 0; it < iters; it++) {
      double change = 0.0;
      for (int i = 1; i <= n; i++) {
        /* Newton-Jacobi on (2u - u_l - u_r)/h^2 + c u^3 = f */
        double g = (2 * u[i] - u[i - 1] - u[i + 1]) / (h * h) + c * u[i] * u[i] * u[i] - f[i - 1];
        double dg = 2 / (h * h) + 3 * c * u[i] * u[i];
        unew[i] = u[i] - 0.8 * g / dg;
        change = fmax(change, fabs(unew[i] - u[i]));
      }
      memcpy(u + 1, unew + 1, n * sizeof(double));
      if (verbose && it % 50 == 0) fprintf(stderr, "call %d iter %d change %.3e\n", solve_calls, it, change);
    }
    if (!isfinite(u[n / 2])) goto out_free;
    result = 0.0;
    for (int i = 0; i + 2 <= n + 1; i += 2) /* Simpson on pairs of cells */
      result += 2 * h * (QUAD_WEIGHTS[0] * u[i] * u[i] + QUAD_WEIGHTS[1] * u[i + 1] * u[i + 1] +
                         QUAD_WEIGHTS[2] * u[i + 2] * u[i + 2]);
  }
out_free:
  free(u);
out:
  return result;
}

enum { N = 15, ITERS = 200, NP = 5 };
static double f[N], c = 2.0;

int main(void) {
  for (int i = 0; i < N; i++) f[i] = 10.0 * sin(M_PI * (i + 1) / (N + 1)) + 2.0;
  const int idx[NP - 1] = {0, 5, 7, 14};
  double fd[NP], ad[NP];
  for (int q = 0; q < NP - 1; q++) fd[q] = HUNT_FD(bvp_functional(f, c, N, ITERS, 0), f[idx[q]]);
  fd[NP - 1] = HUNT_FD(bvp_functional(f, c, N, ITERS, 0), c);
  double df[N] = {0};
#ifdef MODE_REV
  ad[NP - 1] = __enzyme_autodiff((void *)bvp_functional, enzyme_dup, f, df, c, enzyme_const, N, enzyme_const, ITERS,
                                 enzyme_const, 1);
  for (int q = 0; q < NP - 1; q++) ad[q] = df[idx[q]];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < NP; q++) {
    if (q < NP - 1) df[idx[q]] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)bvp_functional, enzyme_dup, f, df, c, q == NP - 1 ? 1.0 : 0.0, enzyme_const, N,
                             enzyme_const, ITERS, enzyme_const, 1);
    if (q < NP - 1) df[idx[q]] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_BATCH
  double df2[N] = {0};
  df[idx[0]] = 1.0; df2[idx[1]] = 1.0;
  v2 t = __enzyme_fwddiff_v2((void *)bvp_functional, enzyme_width, 2, enzyme_dup, f, df, df2, c, 0.0, 0.0,
                             enzyme_const, N, enzyme_const, ITERS, enzyme_const, 1);
  ad[0] = t.d[0]; ad[1] = t.d[1];
  hunt_check_vec("grad", ad, fd, 2);
#endif
#ifdef MODE_SPLIT
  aug_t r = __enzyme_augmentfwd((void *)bvp_functional, enzyme_dup, f, df, c, enzyme_const, N, enzyme_const, ITERS,
                                enzyme_const, 1);
  hunt_check("primal", r.primal, bvp_functional(f, c, N, ITERS, 0));
  ad[NP - 1] = __enzyme_reverse((void *)bvp_functional, enzyme_dup, f, df, c, enzyme_const, N, enzyme_const, ITERS,
                                enzyme_const, 1, 1.0, r.tape);
  for (int q = 0; q < NP - 1; q++) ad[q] = df[idx[q]];
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

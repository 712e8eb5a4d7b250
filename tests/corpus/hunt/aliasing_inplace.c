#include "hunt.h"
/* BLAS-style helpers called with aliased arguments, as in-place code does: axpy(n, a, x, y) with y == x,
   a three-point smoother smooth(in, out) called with in == out (Gauss-Seidel-like order dependence), a
   scale(x, x), and a cast-to-int bin index (x / h truncated) picking a weight.  Objective: a weighted
   sum after several passes.  Inputs: the array and the coefficient a. */
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);

__attribute__((noinline)) static void axpy(int n, double a, const double *x, double *y) {
  for (int i = 0; i < n; i++) y[i] += a * x[i];
}

__attribute__((noinline)) static void smooth(const double *in, double *out, int n) {
  for (int i = 1; i < n - 1; i++) out[i] = 0.25 * in[i - 1] + 0.5 * in[i] + 0.25 * in[i + 1];
}

__attribute__((noinline)) static void scale(const double *x, double *y, int n, double s) {
  for (int i = 0; i < n; i++) y[i] = s * x[i] * (1.0 + 0.1 * x[i]);
}

static const double BIN_WEIGHT[8] = {1.0, 0.9, 1.2, 0.7, 1.5, 0.4, 1.1, 0.8};

double passes(double *u, double a, int n, int npass) {
  for (int p = 0; p < npass; p++) {
    axpy(n, a, u, u);            /* u += a u */
    smooth(u, u, n);             /* in place: reads already-smoothed left neighbours */
    scale(u, u, n, 0.9);
  }
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    int bin = (int)(fabs(u[i]) / 0.5);
    s += BIN_WEIGHT[bin & 7] * u[i] * u[i];
  }
  return s;
}

enum { N = 12, NPASS = 3, NP = 5 };
static double u0[N], u[N], a = 0.15;
static double run(void) { memcpy(u, u0, sizeof u); return passes(u, a, N, NPASS); }

int main(void) {
  for (int i = 0; i < N; i++) u0[i] = 0.8 * sin(0.9 * i) + 0.3;
  const int idx[NP - 1] = {0, 3, 6, 11};
  double fd[NP], ad[NP];
  hunt_fd_step = 1e-7; /* the bin index */
  for (int q = 0; q < NP - 1; q++) fd[q] = HUNT_FD(run(), u0[idx[q]]);
  fd[NP - 1] = HUNT_FD(run(), a);
  double du[N];
#ifdef MODE_REV
  memset(du, 0, sizeof du); memcpy(u, u0, sizeof u);
  ad[NP - 1] = __enzyme_autodiff((void *)passes, enzyme_dup, u, du, a, enzyme_const, N, enzyme_const, NPASS);
  for (int q = 0; q < NP - 1; q++) ad[q] = du[idx[q]];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < NP; q++) {
    memset(du, 0, sizeof du); memcpy(u, u0, sizeof u);
    if (q < NP - 1) du[idx[q]] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)passes, enzyme_dup, u, du, a, q == NP - 1 ? 1.0 : 0.0, enzyme_const, N,
                             enzyme_const, NPASS);
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_BATCH
  double du2[N] = {0};
  memset(du, 0, sizeof du); memcpy(u, u0, sizeof u);
  du[idx[1]] = 1.0;
  v2 t = __enzyme_fwddiff_v2((void *)passes, enzyme_width, 2, enzyme_dup, u, du, du2, a, 0.0, 1.0, enzyme_const, N,
                             enzyme_const, NPASS);
  ad[0] = t.d[0]; ad[1] = t.d[1];
  double fd2[2] = {fd[1], fd[NP - 1]};
  hunt_check_vec("batch", ad, fd2, 2);
#endif
#ifdef MODE_SPLIT
  memset(du, 0, sizeof du); memcpy(u, u0, sizeof u);
  aug_t r = __enzyme_augmentfwd((void *)passes, enzyme_dup, u, du, a, enzyme_const, N, enzyme_const, NPASS);
  hunt_check("primal", r.primal, run());
  ad[NP - 1] = __enzyme_reverse((void *)passes, enzyme_dup, u, du, a, enzyme_const, N, enzyme_const, NPASS, 1.0,
                                r.tape);
  for (int q = 0; q < NP - 1; q++) ad[q] = du[idx[q]];
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

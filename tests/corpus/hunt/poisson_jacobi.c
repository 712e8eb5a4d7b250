#include "hunt.h"
/* Nonlinear Poisson problem -lap(u) + kappa u^3 = f on the unit square, solved by damped Jacobi sweeps
   until the max-norm update falls below a tolerance (data-dependent iteration count), with the grid held
   as pointer-to-array `double (*u)[N]` from malloc(sizeof(double[N][N])) and two buffers swapped by
   pointer.  Objective: the mean of u over a subregion plus an L2 mismatch with a target. */
#define N 14

static double update_norm(double (*a)[N], double (*b)[N]) {
  double m = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) m = fmax(m, fabs(a[i][j] - b[i][j]));
  return m;
}

double poisson_objective(const double *src, double kappa, double amplitude, double tol) {
  double (*u)[N] = malloc(sizeof(double[N][N]));
  double (*v)[N] = malloc(sizeof(double[N][N]));
  double h = 1.0 / (N + 1), omega = 0.8;
  memset(u, 0, sizeof(double[N][N]));
  memset(v, 0, sizeof(double[N][N]));
  int iter = 0;
  double change = 1;
  while (change > tol && iter < 4000) {
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) {
        double nb = (i > 0 ? u[i - 1][j] : 0) + (i < N - 1 ? u[i + 1][j] : 0) + (j > 0 ? u[i][j - 1] : 0) +
                    (j < N - 1 ? u[i][j + 1] : 0);
        double f = amplitude * src[i * N + j];
        /* Newton-Jacobi: diagonal of the linearised operator */
        double res = (4 * u[i][j] - nb) / (h * h) + kappa * u[i][j] * u[i][j] * u[i][j] - f;
        double diag = 4 / (h * h) + 3 * kappa * u[i][j] * u[i][j];
        v[i][j] = u[i][j] - omega * res / diag;
      }
    change = update_norm(u, v);
    double (*t)[N] = u; u = v; v = t;
    iter++;
  }
  double mean = 0, mis = 0;
  for (int i = 2; i < 7; i++)
    for (int j = 3; j < 9; j++) mean += u[i][j];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) mis += (u[i][j] - 0.05) * (u[i][j] - 0.05);
  free(u);
  free(v);
  return mean / 30 + mis * h * h;
}

static double src[N * N];

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) src[i * N + j] = 1 + sin(0.5 * i) * cos(0.3 * j);
  double kappa = 30.0, amp = 2.0, tol = 1e-13;
  enum { NP = 4 };
  const int probes[NP] = {0, 37, 99, N * N - 1};
  double fd[NP + 2], ad[NP + 2];
  for (int k = 0; k < NP; k++) fd[k] = HUNT_FD(poisson_objective(src, kappa, amp, tol), src[probes[k]]);
  fd[NP] = HUNT_FD(poisson_objective(src, kappa, amp, tol), kappa);
  fd[NP + 1] = HUNT_FD(poisson_objective(src, kappa, amp, tol), amp);
#ifdef MODE_REV
  typedef struct { double k, a; } two;
  extern two __enzyme_autodiff_two(void *, ...);
  double dsrc[N * N] = {0};
  two g = __enzyme_autodiff_two((void *)poisson_objective, enzyme_dup, src, dsrc, kappa, amp, enzyme_const, tol);
  for (int k = 0; k < NP; k++) ad[k] = dsrc[probes[k]];
  ad[NP] = g.k; ad[NP + 1] = g.a;
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP + 2; k++) {
    double dsrc[N * N] = {0};
    if (k < NP) dsrc[probes[k]] = 1;
    ad[k] = __enzyme_fwddiff((void *)poisson_objective, enzyme_dup, src, dsrc, kappa, k == NP ? 1.0 : 0.0, amp,
                             k == NP + 1 ? 1.0 : 0.0, enzyme_const, tol);
  }
#endif
  hunt_check_vec("grad", ad, fd, NP + 2);
  return hunt_finish();
}

#include "hunt.h"
/* Successive over-relaxation for a 2-D Poisson problem with a variable source, updated in place
   (Gauss-Seidel order: each update reads neighbours already overwritten this sweep), red-black
   variant and lexicographic variant selected by a flag, a fixed number of sweeps.  Objective:
   weighted L2 norm of the solution.  Inputs: omega and the source. */
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);

static void sor_sweep(double *u, const double *f, int n, double h2, double omega, int color) {
  for (int j = 1; j < n - 1; j++)
    for (int i = 1; i < n - 1; i++) {
      if (color >= 0 && ((i + j) & 1) != color) continue;
      double gs = 0.25 * (u[j * n + i - 1] + u[j * n + i + 1] + u[(j - 1) * n + i] + u[(j + 1) * n + i] + h2 * f[j * n + i]);
      u[j * n + i] += omega * (gs - u[j * n + i]);
    }
}

double sor_solve(const double *f, double omega, int n, int sweeps, int red_black) {
  double *u = calloc(n * n, sizeof(double));
  double h = 1.0 / (n - 1), h2 = h * h;
  for (int s = 0; s < sweeps; s++) {
    if (red_black) { sor_sweep(u, f, n, h2, omega, 0); sor_sweep(u, f, n, h2, omega, 1); }
    else sor_sweep(u, f, n, h2, omega, -1);
  }
  double r = 0.0;
  for (int k = 0; k < n * n; k++) r += (1.0 + 0.01 * k) * u[k] * u[k];
  free(u);
  return r * 1e3;
}

enum { N = 10, SWEEPS = 15, NP = 5 };
static double f[N * N], omega = 1.5;

int main(void) {
  for (int k = 0; k < N * N; k++) f[k] = 1.0 + sin(0.37 * k);
  const int idx[NP - 1] = {11, 34, 55, 88};
  for (int rb = 0; rb < 2; rb++) {
    const char *name = rb ? "grad_redblack" : "grad_lex";
    double fd[NP], ad[NP];
    for (int q = 0; q < NP - 1; q++) fd[q] = HUNT_FD(sor_solve(f, omega, N, SWEEPS, rb), f[idx[q]]);
    fd[NP - 1] = HUNT_FD(sor_solve(f, omega, N, SWEEPS, rb), omega);
    double df[N * N] = {0};
#ifdef MODE_REV
    ad[NP - 1] = __enzyme_autodiff((void *)sor_solve, enzyme_dup, f, df, omega, enzyme_const, N, enzyme_const, SWEEPS,
                                   enzyme_const, rb);
    for (int q = 0; q < NP - 1; q++) ad[q] = df[idx[q]];
    hunt_check_vec(name, ad, fd, NP);
#endif
#ifdef MODE_FWD
    for (int q = 0; q < NP; q++) {
      if (q < NP - 1) df[idx[q]] = 1.0;
      ad[q] = __enzyme_fwddiff((void *)sor_solve, enzyme_dup, f, df, omega, q == NP - 1 ? 1.0 : 0.0, enzyme_const, N,
                               enzyme_const, SWEEPS, enzyme_const, rb);
      if (q < NP - 1) df[idx[q]] = 0.0;
    }
    hunt_check_vec(name, ad, fd, NP);
#endif
#ifdef MODE_BATCH
    double df2[N * N] = {0};
    df[idx[0]] = 1.0;
    v2 t = __enzyme_fwddiff_v2((void *)sor_solve, enzyme_width, 2, enzyme_dup, f, df, df2, omega, 0.0, 1.0,
                               enzyme_const, N, enzyme_const, SWEEPS, enzyme_const, rb);
    ad[0] = t.d[0]; ad[1] = t.d[1];
    double fd2[2] = {fd[0], fd[NP - 1]};
    hunt_check_vec(rb ? "batch_redblack" : "batch_lex", ad, fd2, 2);
#endif
#ifdef MODE_SPLIT
    aug_t r = __enzyme_augmentfwd((void *)sor_solve, enzyme_dup, f, df, omega, enzyme_const, N, enzyme_const, SWEEPS,
                                  enzyme_const, rb);
    hunt_check("primal", r.primal, sor_solve(f, omega, N, SWEEPS, rb));
    ad[NP - 1] = __enzyme_reverse((void *)sor_solve, enzyme_dup, f, df, omega, enzyme_const, N, enzyme_const, SWEEPS,
                                  enzyme_const, rb, 1.0, r.tape);
    for (int q = 0; q < NP - 1; q++) ad[q] = df[idx[q]];
    hunt_check_vec(name, ad, fd, NP);
#endif
  }
  return hunt_finish();
}

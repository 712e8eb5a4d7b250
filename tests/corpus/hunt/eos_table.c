#include "hunt.h"
/* A 1-D compressible-flow-like update with a tabulated equation of state: pressure from a static
   const table p(rho) by binary search and linear interpolation (the table is data, inactive), the
   simulation state in a struct that owns two buffers swapped each step, and ghost cells filled by
   memcpy (periodic).  Objective: total "pressure work".  Inputs: the initial density field. */
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);

#define NTAB 9
static const double RHO_TAB[NTAB] = {0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0};
static const double P_TAB[NTAB] = {0.0, 0.12, 0.3, 0.55, 0.9, 1.7, 2.8, 5.5, 9.0};

static double eos_pressure(double rho) {
  int lo = 0, hi = NTAB - 1;
  if (rho <= RHO_TAB[0]) return P_TAB[0];
  if (rho >= RHO_TAB[hi]) return P_TAB[hi] + (rho - RHO_TAB[hi]) * (P_TAB[hi] - P_TAB[hi - 1]) / (RHO_TAB[hi] - RHO_TAB[hi - 1]);
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (RHO_TAB[mid] <= rho) lo = mid; else hi = mid;
  }
  double w = (rho - RHO_TAB[lo]) / (RHO_TAB[hi] - RHO_TAB[lo]);
  return (1 - w) * P_TAB[lo] + w * P_TAB[hi];
}

typedef struct {
  int n, ghost;
  double *cur, *next; /* n + 2*ghost cells each */
} Field;

static void fill_ghosts(Field *f) {
  int n = f->n, g = f->ghost;
  memcpy(f->cur, f->cur + n, g * sizeof(double));            /* left ghosts = rightmost interior */
  memcpy(f->cur + n + g, f->cur + g, g * sizeof(double));    /* right ghosts = leftmost interior */
}

double eos_run(const double *rho0, int n, double dt, int nsteps) {
  Field f = {n, 1, malloc((n + 2) * sizeof(double)), malloc((n + 2) * sizeof(double))};
  memcpy(f.cur + 1, rho0, n * sizeof(double));
  double work = 0.0;
  for (int s = 0; s < nsteps; s++) {
    fill_ghosts(&f);
    for (int i = 1; i <= n; i++) {
      double pl = eos_pressure(f.cur[i - 1]), pr = eos_pressure(f.cur[i + 1]), pc = eos_pressure(f.cur[i]);
      f.next[i] = f.cur[i] + dt * (pl - 2 * pc + pr);
      work += dt * pc * f.cur[i];
    }
    double *t = f.cur; f.cur = f.next; f.next = t;
  }
  free(f.cur);
  free(f.next);
  return work;
}

enum { N = 20, NSTEPS = 12, NP = 5 };
static double rho0[N];

int main(void) {
  for (int i = 0; i < N; i++) rho0[i] = 1.2 + 0.9 * sin(0.5 * i) + 0.01 * i;
  const int idx[NP] = {0, 4, 9, 13, 19};
  double fd[NP], ad[NP], dt = 0.05;
  hunt_fd_step = 1e-7; /* table breakpoints */
  for (int q = 0; q < NP; q++) fd[q] = HUNT_FD(eos_run(rho0, N, dt, NSTEPS), rho0[idx[q]]);
  double drho[N] = {0};
#ifdef MODE_REV
  __enzyme_autodiff((void *)eos_run, enzyme_dup, rho0, drho, enzyme_const, N, enzyme_const, dt, enzyme_const, NSTEPS);
  for (int q = 0; q < NP; q++) ad[q] = drho[idx[q]];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < NP; q++) {
    drho[idx[q]] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)eos_run, enzyme_dup, rho0, drho, enzyme_const, N, enzyme_const, dt, enzyme_const,
                             NSTEPS);
    drho[idx[q]] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_BATCH
  double drho2[N] = {0};
  drho[idx[1]] = 1.0; drho2[idx[3]] = 1.0;
  v2 t = __enzyme_fwddiff_v2((void *)eos_run, enzyme_width, 2, enzyme_dup, rho0, drho, drho2, enzyme_const, N,
                             enzyme_const, dt, enzyme_const, NSTEPS);
  ad[0] = t.d[0]; ad[1] = t.d[1];
  double fd2[2] = {fd[1], fd[3]};
  hunt_check_vec("batch", ad, fd2, 2);
#endif
#ifdef MODE_SPLIT
  aug_t r = __enzyme_augmentfwd((void *)eos_run, enzyme_dup, rho0, drho, enzyme_const, N, enzyme_const, dt,
                                enzyme_const, NSTEPS);
  hunt_check("primal", r.primal, eos_run(rho0, N, dt, NSTEPS));
  __enzyme_reverse((void *)eos_run, enzyme_dup, rho0, drho, enzyme_const, N, enzyme_const, dt, enzyme_const, NSTEPS,
                   1.0, r.tape);
  for (int q = 0; q < NP; q++) ad[q] = drho[idx[q]];
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

#include "hunt.h"
/* C driver for kinetics.f90: sensitivity of the final yield to the temperature, the initial
   concentrations and the activation energies. */
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);

double final_yield(double *c, const double *pre, const double *ea, int n, double temp, double dt, int nsteps);

enum { N = 4, NSTEPS = 100, NP = 5 };
static double c0[N] = {1.0, 0.0, 0.0, 0.0}, c[N], pre[N] = {2e3, 5e3, 1e3, 3e3}, ea[N] = {2e4, 2.5e4, 1.8e4, 3e4};
static double temp = 600.0, dt = 0.02;
static double run(void) { memcpy(c, c0, sizeof c); return final_yield(c, pre, ea, N, temp, dt, NSTEPS); }

int main(void) {
  double *prim[NP] = {&c0[0], &c0[1], &ea[0], &ea[2], &temp};
  double fd[NP], ad[NP];
  for (int q = 0; q < NP; q++) fd[q] = HUNT_FD(run(), *prim[q]);
  double dc[N] = {0}, dea[N] = {0};
#ifdef MODE_REV
  memcpy(c, c0, sizeof c);
  ad[4] = __enzyme_autodiff((void *)final_yield, enzyme_dup, c, dc, enzyme_const, pre, enzyme_dup, ea, dea,
                            enzyme_const, N, temp, enzyme_const, dt, enzyme_const, NSTEPS);
  ad[0] = dc[0]; ad[1] = dc[1]; ad[2] = dea[0]; ad[3] = dea[2];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  double *shad[NP - 1] = {&dc[0], &dc[1], &dea[0], &dea[2]};
  for (int q = 0; q < NP; q++) {
    memset(dc, 0, sizeof dc); memset(dea, 0, sizeof dea);
    if (q < NP - 1) *shad[q] = 1.0;
    memcpy(c, c0, sizeof c);
    ad[q] = __enzyme_fwddiff((void *)final_yield, enzyme_dup, c, dc, enzyme_const, pre, enzyme_dup, ea, dea,
                             enzyme_const, N, temp, q == NP - 1 ? 1.0 : 0.0, enzyme_const, dt, enzyme_const, NSTEPS);
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_BATCH
  double dc2[N] = {0}, dea2[N] = {0};
  dc[0] = 1.0;
  memcpy(c, c0, sizeof c);
  v2 t = __enzyme_fwddiff_v2((void *)final_yield, enzyme_width, 2, enzyme_dup, c, dc, dc2, enzyme_const, pre,
                             enzyme_dup, ea, dea, dea2, enzyme_const, N, temp, 0.0, 1.0, enzyme_const, dt,
                             enzyme_const, NSTEPS);
  ad[0] = t.d[0]; ad[1] = t.d[1];
  double fd2[2] = {fd[0], fd[4]};
  hunt_check_vec("batch", ad, fd2, 2);
#endif
#ifdef MODE_SPLIT
  memcpy(c, c0, sizeof c);
  aug_t r = __enzyme_augmentfwd((void *)final_yield, enzyme_dup, c, dc, enzyme_const, pre, enzyme_dup, ea, dea,
                                enzyme_const, N, temp, enzyme_const, dt, enzyme_const, NSTEPS);
  hunt_check("primal", r.primal, run());
  ad[4] = __enzyme_reverse((void *)final_yield, enzyme_dup, c, dc, enzyme_const, pre, enzyme_dup, ea, dea,
                           enzyme_const, N, temp, enzyme_const, dt, enzyme_const, NSTEPS, 1.0, r.tape);
  ad[0] = dc[0]; ad[1] = dc[1]; ad[2] = dea[0]; ad[3] = dea[2];
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

#include "hunt.h"
/* C driver for the mixed C/Rust/Fortran soil column: the C objective owns a Rust column through an opaque
   handle whose hydraulics are Fortran; sensitivities of the storage and drainage misfit to the van
   Genuchten parameters and the rain rate. */
#include <stddef.h>
typedef struct Column Column;
Column *column_new(size_t n, const double *h0, const double *soil, double dz);
double column_step(Column *c, double rain, double dt);
double column_free(Column *c);

enum { NZ = 12, NSTEPS = 150 };

double soil_objective(const double *soil, double rain, const double *storage_obs, int nobs) {
  double h0[NZ];
  for (int i = 0; i < NZ; i++) h0[i] = -1.0 - 0.15 * i;
  Column *col = column_new(NZ, h0, soil, 0.05);
  double misfit = 0;
  int every = NSTEPS / nobs;
  for (int s = 1; s <= NSTEPS; s++) {
    double storage = column_step(col, s < NSTEPS / 2 ? rain : 0.0, 0.01);
    if (s % every == 0) {
      double r = storage - storage_obs[s / every - 1];
      misfit += r * r;
    }
  }
  double drained = column_free(col);
  return misfit + 0.5 * drained * drained;
}

enum { NP = 6, NOBS = 5 };
static double pr[NP] = {1.8, 1.6, 0.4, 0.05, 0.42, 0.3}, obs[NOBS] = {0.2, 0.21, 0.22, 0.21, 0.2};

static double objective_of(double *q) { return soil_objective(q, q[5], obs, NOBS); }

int main(void) {
  double fd[NP], ad[NP];
  for (int k = 0; k < NP; k++) fd[k] = HUNT_FD(objective_of(pr), pr[k]);
#ifdef MODE_REV
  double dsoil[NP] = {0};
  double drain = __enzyme_autodiff((void *)soil_objective, enzyme_dup, pr, dsoil, enzyme_out, pr[5], enzyme_const,
                                   obs, enzyme_const, NOBS);
  for (int k = 0; k < 5; k++) ad[k] = dsoil[k];
  ad[5] = drain;
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; k++) {
    double dsoil[NP] = {0};
    if (k < 5) dsoil[k] = 1;
    ad[k] = __enzyme_fwddiff((void *)soil_objective, enzyme_dup, pr, dsoil, enzyme_dup, pr[5], k == 5 ? 1.0 : 0.0,
                             enzyme_const, obs, enzyme_const, NOBS);
  }
#endif
  hunt_check_vec("grad", ad, fd, NP);
  return hunt_finish();
}

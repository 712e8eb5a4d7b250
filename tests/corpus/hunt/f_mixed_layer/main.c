#include "hunt.h"
/* C driver for mixed_layer.f90: sensitivities of the end-of-run SST, heat content and surface current of
   a 1-D mixed-layer model to the heat-flux amplitude, wind stress, background diffusivity, thermal
   expansion coefficient and shortwave attenuation length. */
double mld_objective(const double *params, int nz, int nsteps);

enum { NP = 5, NZ = 40, NSTEPS = 144 };
static double params[NP] = {600.0, 0.12, 1.0e-5, 2.0e-4, 18.0};

int main(void) {
  double fd[NP], ad[NP];
  printf("objective %.12g\n", mld_objective(params, NZ, NSTEPS));
  for (int k = 0; k < NP; k++) {
    hunt_fd_step = 1e-5 * (fabs(params[k]) < 1 ? fabs(params[k]) : 1.0);
    fd[k] = HUNT_FD(mld_objective(params, NZ, NSTEPS), params[k]);
  }
#ifdef MODE_REV
  double dp[NP] = {0};
  __enzyme_autodiff((void *)mld_objective, enzyme_dup, params, dp, enzyme_const, NZ, enzyme_const, NSTEPS);
  for (int k = 0; k < NP; k++) ad[k] = dp[k];
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; k++) {
    double dp[NP] = {0};
    dp[k] = 1;
    ad[k] = __enzyme_fwddiff((void *)mld_objective, enzyme_dup, params, dp, enzyme_const, NZ, enzyme_const, NSTEPS);
  }
#endif
  hunt_check_vec("grad", ad, fd, NP);
  return hunt_finish();
}

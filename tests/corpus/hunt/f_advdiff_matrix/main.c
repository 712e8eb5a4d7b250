#include "hunt.h"
/* C driver for advdiff.f90: sensitivities of the station misfit of a 2-D advection-diffusion-decay
   plume to wind speed and shear, diffusivity, decay rate, source position and width. */
double plume_objective(const double *p, const double *stations, int nx, int ny, int nsteps);

enum { NX = 14, NY = 10, NSTEPS = 12, NP = 6 };
static double p[NP] = {0.8, 0.5, 0.05, 0.7, 0.35, 0.15}, stations[NX * NY];

int main(void) {
  for (int j = 0; j < NY; j++)
    for (int i = 0; i < NX; i++)
      stations[i + NX * j] = (i % 3 == 1 && j % 2 == 0) ? 0.3 + 0.2 * sin(0.4 * i + 0.3 * j) : 0.0;
  /* the decay rate has a kink at c = 0.1 (MERGE): a wider difference stencil straddles it somewhere in the grid */
  hunt_fd_step = 1e-6;
  double fd[NP], ad[NP];
  for (int k = 0; k < NP; k++) fd[k] = HUNT_FD(plume_objective(p, stations, NX, NY, NSTEPS), p[k]);
#ifdef MODE_REV
  double dp[NP] = {0};
  __enzyme_autodiff((void *)plume_objective, enzyme_dup, p, dp, enzyme_const, stations, enzyme_const, NX,
                    enzyme_const, NY, enzyme_const, NSTEPS);
  for (int k = 0; k < NP; k++) ad[k] = dp[k];
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; k++) {
    double dp[NP] = {0};
    dp[k] = 1;
    ad[k] = __enzyme_fwddiff((void *)plume_objective, enzyme_dup, p, dp, enzyme_const, stations, enzyme_const, NX,
                             enzyme_const, NY, enzyme_const, NSTEPS);
  }
#endif
  hunt_check_vec("grad", ad, fd, NP);
  return hunt_finish();
}

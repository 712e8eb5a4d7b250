#include "hunt.h"
/* C driver for hydro.f90: sensitivities of a Lagrangian gas-dynamics run to the initial pulse, the
   equation of state, the artificial-viscosity coefficients and the time step. */
double hydro_objective(const double *params, int nz, int nsteps);

enum { NP = 7, NZ = 30, NSTEPS = 60 };
static double params[NP] = {1.5, 0.12, 1.0, 1.4, 1.2, 0.3, 0.004};

int main(void) {
  double fd[NP], ad[NP];
  hunt_fd_step = 1e-7; /* the artificial viscosity switches on where du < 0: kinks a wider stencil straddles */
  for (int k = 0; k < NP; k++) fd[k] = HUNT_FD(hydro_objective(params, NZ, NSTEPS), params[k]);
#ifdef MODE_REV
  double dp[NP] = {0};
  __enzyme_autodiff((void *)hydro_objective, enzyme_dup, params, dp, enzyme_const, NZ, enzyme_const, NSTEPS);
  for (int k = 0; k < NP; k++) ad[k] = dp[k];
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; k++) {
    double dp[NP] = {0};
    dp[k] = 1;
    ad[k] = __enzyme_fwddiff((void *)hydro_objective, enzyme_dup, params, dp, enzyme_const, NZ, enzyme_const, NSTEPS);
  }
#endif
  hunt_check_vec("grad", ad, fd, NP);
  return hunt_finish();
}

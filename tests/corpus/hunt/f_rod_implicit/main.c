#include "hunt.h"
/* C driver for rod.f90: sensitivities of the sensor misfit of an implicit nonlinear heat-conduction solve
   to both conductivities, their temperature coefficient, the convection coefficient, the source strength
   and the ambient temperature. */
double rod_objective(const double *params, const double *sensors, int nsens, int n, int nsteps);

enum { NP = 6, NSENS = 5, N = 24, NSTEPS = 12 };
static double params[NP] = {1.2, 0.4, 0.08, 2.5, 3.0, 0.3}, sensors[NSENS] = {0.4, 0.5, 0.3, 0.2, 0.1};

int main(void) {
  double fd[NP], ad[NP];
  for (int k = 0; k < NP; k++) fd[k] = HUNT_FD(rod_objective(params, sensors, NSENS, N, NSTEPS), params[k]);
#ifdef MODE_REV
  double dp[NP] = {0};
  __enzyme_autodiff((void *)rod_objective, enzyme_dup, params, dp, enzyme_const, sensors, enzyme_const, NSENS,
                    enzyme_const, N, enzyme_const, NSTEPS);
  for (int k = 0; k < NP; k++) ad[k] = dp[k];
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; k++) {
    double dp[NP] = {0};
    dp[k] = 1;
    ad[k] = __enzyme_fwddiff((void *)rod_objective, enzyme_dup, params, dp, enzyme_const, sensors, enzyme_const,
                             NSENS, enzyme_const, N, enzyme_const, NSTEPS);
  }
#endif
  hunt_check_vec("grad", ad, fd, NP);
  return hunt_finish();
}

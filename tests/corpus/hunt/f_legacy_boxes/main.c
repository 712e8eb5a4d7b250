#include "hunt.h"
/* C driver for boxes.f90: sensitivities of a three-box ocean model's misfit to its forcing, mixing
   and carbon-uptake parameters (the legacy code keeps its state in COMMON blocks). */
double boxes_objective(const double *p, const double *obs, int nsteps);

enum { NP = 6, NSTEPS = 120 };
static double p[NP] = {26.0, 2.0, 0.4, 2.0, 15.0, 0.5}, obs[7] = {22.0, 4.0, 4.5, 35.9, 34.6, 2.4, 0.0};

int main(void) {
  double fd[NP], ad[NP];
  for (int k = 0; k < NP; k++) fd[k] = HUNT_FD(boxes_objective(p, obs, NSTEPS), p[k]);
#ifdef MODE_REV
  double dp[NP] = {0};
  __enzyme_autodiff((void *)boxes_objective, enzyme_dup, p, dp, enzyme_const, obs, enzyme_const, NSTEPS);
  for (int k = 0; k < NP; k++) ad[k] = dp[k];
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; k++) {
    double dp[NP] = {0};
    dp[k] = 1;
    ad[k] = __enzyme_fwddiff((void *)boxes_objective, enzyme_dup, p, dp, enzyme_const, obs, enzyme_const, NSTEPS);
  }
#endif
  hunt_check_vec("grad", ad, fd, NP);
  return hunt_finish();
}

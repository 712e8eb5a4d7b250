#include "hunt.h"
/* C driver for column.f90: sensitivities of an equilibrium radiative-convective column (surface temperature,
   profile misfit, cold-point and tropospheric mean temperatures) to the longwave and shortwave optical depths,
   the solar constant, the albedo and the convective and sensible exchange coefficients. */
double rc_objective(const double *params, const double *t_obs, int n, int max_steps);

enum { NP = 6, N = 12, MAXSTEPS = 40000 };
static double params[NP] = {2.2, 0.25, 1361.0, 0.3, 8.0, 6.0}, t_obs[N];

int main(void) {
  for (int i = 0; i < N; i++) t_obs[i] = 285.0 - 7.0 * i;
  double fd[NP], ad[NP];
  printf("objective %.12g\n", rc_objective(params, t_obs, N, MAXSTEPS));
  for (int k = 0; k < NP; k++) fd[k] = HUNT_FD(rc_objective(params, t_obs, N, MAXSTEPS), params[k]);
#ifdef MODE_REV
  double dp[NP] = {0};
  __enzyme_autodiff((void *)rc_objective, enzyme_dup, params, dp, enzyme_const, t_obs, enzyme_const, N,
                    enzyme_const, MAXSTEPS);
  for (int k = 0; k < NP; k++) ad[k] = dp[k];
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; k++) {
    double dp[NP] = {0};
    dp[k] = 1;
    ad[k] = __enzyme_fwddiff((void *)rc_objective, enzyme_dup, params, dp, enzyme_const, t_obs, enzyme_const, N,
                             enzyme_const, MAXSTEPS);
  }
#endif
  hunt_check_vec("grad", ad, fd, NP);
  return hunt_finish();
}

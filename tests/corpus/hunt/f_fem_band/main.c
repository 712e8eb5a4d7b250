#include "hunt.h"
/* C driver for fem.f90: sensitivities of a nonlinear P2 finite-element solution's misfit to the
   conductivity coefficients, reaction, source, boundary value and Robin data. */
double fem_objective(const double *p, const double *obs, int nobs, int nel);

enum { NP = 8, NOBS = 5, NEL = 10 };
static double p[NP] = {1.0, 0.5, 0.3, 2.0, 8.0, 0.2, 1.5, 0.1}, obs[NOBS] = {0.5, 0.8, 0.7, 0.5, 0.3};

int main(void) {
  double fd[NP], ad[NP];
  for (int k = 0; k < NP; k++) fd[k] = HUNT_FD(fem_objective(p, obs, NOBS, NEL), p[k]);
#ifdef MODE_REV
  double dp[NP] = {0};
  __enzyme_autodiff((void *)fem_objective, enzyme_dup, p, dp, enzyme_const, obs, enzyme_const, NOBS, enzyme_const, NEL);
  for (int k = 0; k < NP; k++) ad[k] = dp[k];
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; k++) {
    double dp[NP] = {0};
    dp[k] = 1;
    ad[k] = __enzyme_fwddiff((void *)fem_objective, enzyme_dup, p, dp, enzyme_const, obs, enzyme_const, NOBS,
                             enzyme_const, NEL);
  }
#endif
  hunt_check_vec("grad", ad, fd, NP);
  return hunt_finish();
}

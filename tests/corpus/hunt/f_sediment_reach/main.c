#include "hunt.h"
/* C driver for reach.f90: sensitivities of a river reach's bed-survey misfit and sediment yield, after a
   morphodynamic run, to the unit discharge, Manning's n, the grain size, the upstream feed and the outlet depth. */
double reach_objective(const double *params, const double *z_survey, const int *surveyed, int n, int nsteps);

enum { NP = 5, N = 30, NSTEPS = 40 };
static double params[NP] = {3.0, 0.03, 2.0, 0.8, 1.9}, z_survey[N];
static int surveyed[N];

int main(void) {
  for (int i = 0; i < N; i++) {
    z_survey[i] = 0.002 * 100.0 * (N - 1 - i) + 0.05 * sin(0.4 * i);
    surveyed[i] = i % 4 == 1;
  }
  double fd[NP], ad[NP];
  printf("objective %.12g\n", reach_objective(params, z_survey, surveyed, N, NSTEPS));
  for (int k = 0; k < NP; k++) fd[k] = HUNT_FD(reach_objective(params, z_survey, surveyed, N, NSTEPS), params[k]);
#ifdef MODE_REV
  double dp[NP] = {0};
  __enzyme_autodiff((void *)reach_objective, enzyme_dup, params, dp, enzyme_const, z_survey, enzyme_const, surveyed,
                    enzyme_const, N, enzyme_const, NSTEPS);
  for (int k = 0; k < NP; k++) ad[k] = dp[k];
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; k++) {
    double dp[NP] = {0};
    dp[k] = 1;
    ad[k] = __enzyme_fwddiff((void *)reach_objective, enzyme_dup, params, dp, enzyme_const, z_survey, enzyme_const,
                             surveyed, enzyme_const, N, enzyme_const, NSTEPS);
  }
#endif
  hunt_check_vec("grad", ad, fd, NP);
  return hunt_finish();
}

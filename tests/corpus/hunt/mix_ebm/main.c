#include "hunt.h"
/* C driver for the mixed C/Fortran/Rust energy-balance climate model: sensitivities of the temperature
   misfit to solar input, longwave coefficients, ice albedo, diffusivity and heat capacity. */
double ebm_objective(const double *p, const double *tobs, int n, int nsteps);

enum { NP = 6, N = 18, NSTEPS = 600 };
static double p[NP] = {1360.0, 203.0, 2.1, 0.62, 0.55, 4.0}, tobs[N];

int main(void) {
  for (int i = 0; i < N; i++) {
    double x = (i + 0.5) / N;
    tobs[i] = 28.0 - 40.0 * x * x;
  }
  double fd[NP], ad[NP];
  for (int k = 0; k < NP; k++) fd[k] = HUNT_FD(ebm_objective(p, tobs, N, NSTEPS), p[k]);
#ifdef MODE_REV
  double dp[NP] = {0};
  __enzyme_autodiff((void *)ebm_objective, enzyme_dup, p, dp, enzyme_const, tobs, enzyme_const, N, enzyme_const,
                    NSTEPS);
  for (int k = 0; k < NP; k++) ad[k] = dp[k];
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; k++) {
    double dp[NP] = {0};
    dp[k] = 1;
    ad[k] = __enzyme_fwddiff((void *)ebm_objective, enzyme_dup, p, dp, enzyme_const, tobs, enzyme_const, N,
                             enzyme_const, NSTEPS);
  }
#endif
  hunt_check_vec("grad", ad, fd, NP);
  return hunt_finish();
}

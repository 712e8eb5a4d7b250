#include "hunt.h"
/* C driver for ising.f90: sensitivities of the misfit of an Ising strip's transfer-matrix free energy and
   magnetization to synthetic measurements, with respect to the coupling, the field, the diagonal coupling and
   the temperature scale. */
double ising_misfit(const double *params, const double *temps, const double *f_obs, const double *m_obs, int ntemp,
                    int width);

enum { NP = 4, NT = 4, WIDTH = 5 };
static double params[NP] = {0.8, 0.15, 0.2, 1.1};
static double temps[NT] = {2.5, 3.0, 3.5, 4.5}, f_obs[NT] = {-2.6, -2.9, -3.2, -3.8}, m_obs[NT] = {0.3, 0.2, 0.15, 0.1};

int main(void) {
  double fd[NP], ad[NP];
  printf("misfit %.12g\n", ising_misfit(params, temps, f_obs, m_obs, NT, WIDTH));
  for (int k = 0; k < NP; k++) fd[k] = HUNT_FD(ising_misfit(params, temps, f_obs, m_obs, NT, WIDTH), params[k]);
#ifdef MODE_REV
  double dp[NP] = {0};
  __enzyme_autodiff((void *)ising_misfit, enzyme_dup, params, dp, enzyme_const, temps, enzyme_const, f_obs,
                    enzyme_const, m_obs, enzyme_const, NT, enzyme_const, WIDTH);
  for (int k = 0; k < NP; k++) ad[k] = dp[k];
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; k++) {
    double dp[NP] = {0};
    dp[k] = 1;
    ad[k] = __enzyme_fwddiff((void *)ising_misfit, enzyme_dup, params, dp, enzyme_const, temps, enzyme_const, f_obs,
                             enzyme_const, m_obs, enzyme_const, NT, enzyme_const, WIDTH);
  }
#endif
  hunt_check_vec("grad", ad, fd, NP);
  return hunt_finish();
}

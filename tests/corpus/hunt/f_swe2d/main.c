#include "hunt.h"
/* C driver for swe2d.f90: sensitivities of the gauge misfit to the hump amplitude and width, the drift
   velocity and the mound height. */
double swe_misfit(const double *p, const double *gauge, int n1, int n2, int nsteps);

enum { N1 = 16, N2 = 12, NSTEPS = 10, NP = 4 };
static double p[NP] = {0.2, 0.15, 0.3, 0.25}, gauge[N1 * N2];

int main(void) {
  for (int j = 0; j < N2; j++)
    for (int i = 0; i < N1; i++) gauge[i + N1 * j] = 1.0 + 0.05 * cos(0.7 * i) * sin(0.9 * j);
  double fd[NP], ad[NP];
  for (int k = 0; k < NP; k++) fd[k] = HUNT_FD(swe_misfit(p, gauge, N1, N2, NSTEPS), p[k]);
#ifdef MODE_REV
  double dp[NP] = {0};
  __enzyme_autodiff((void *)swe_misfit, enzyme_dup, p, dp, enzyme_const, gauge, enzyme_const, N1, enzyme_const, N2,
                    enzyme_const, NSTEPS);
  for (int k = 0; k < NP; k++) ad[k] = dp[k];
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; k++) {
    double dp[NP] = {0};
    dp[k] = 1;
    ad[k] = __enzyme_fwddiff((void *)swe_misfit, enzyme_dup, p, dp, enzyme_const, gauge, enzyme_const, N1,
                             enzyme_const, N2, enzyme_const, NSTEPS);
  }
#endif
  hunt_check_vec("grad", ad, fd, NP);
  return hunt_finish();
}

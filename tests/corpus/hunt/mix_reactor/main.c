#include "hunt.h"
/* C driver for the mixed C/Fortran/Rust reactor: kinetic, heat-transfer and initial-temperature
   sensitivities of the sampled yield misfit. */
double reactor_objective(const double *p, const double *samples, int nsamples, double dt_sample);

enum { NP = 8, NS = 6 };
static double p[NP] = {14.0, 12.0, 13.0, 4.0, 3.5, 4.5, 50.0, 310.0}, samples[NS];

int main(void) {
  for (int s = 0; s < NS; s++) samples[s] = 0.3 + 0.1 * s - 0.01 * s * s;
  double fd[NP], ad[NP];
  for (int k = 0; k < NP; k++) fd[k] = HUNT_FD(reactor_objective(p, samples, NS, 0.5), p[k]);
#ifdef MODE_REV
  double dp[NP] = {0};
  __enzyme_autodiff((void *)reactor_objective, enzyme_dup, p, dp, enzyme_const, samples, enzyme_const, NS,
                    enzyme_const, 0.5);
  for (int k = 0; k < NP; k++) ad[k] = dp[k];
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; k++) {
    double dp[NP] = {0};
    dp[k] = 1;
    ad[k] = __enzyme_fwddiff((void *)reactor_objective, enzyme_dup, p, dp, enzyme_const, samples, enzyme_const, NS,
                             enzyme_const, 0.5);
  }
#endif
  hunt_check_vec("grad", ad, fd, NP);
  return hunt_finish();
}

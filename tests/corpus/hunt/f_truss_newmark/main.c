#include "hunt.h"
/* C driver for truss.f90: sensitivities of a Warren truss's time-integrated midspan deflection, strain energy
   and final kinetic energy under a harmonic load to Young's modulus, the bar area, the density, the two
   Rayleigh damping coefficients and the load amplitude. */
double truss_response(const double *params, int nsteps, int quantity);

enum { NP = 6, NSTEPS = 150 };
static double params[NP] = {200.0, 12.0, 7.85, 2.0, 0.5, 40.0};

int main(void) {
  double fd[NP], ad[NP];
  printf("response %.12g\n", truss_response(params, NSTEPS, 0));
  for (int k = 0; k < NP; k++) fd[k] = HUNT_FD(truss_response(params, NSTEPS, 0), params[k]);
#ifdef MODE_REV
  double dp[NP] = {0};
  __enzyme_autodiff((void *)truss_response, enzyme_dup, params, dp, enzyme_const, NSTEPS, enzyme_const, 0);
  for (int k = 0; k < NP; k++) ad[k] = dp[k];
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; k++) {
    double dp[NP] = {0};
    dp[k] = 1;
    ad[k] = __enzyme_fwddiff((void *)truss_response, enzyme_dup, params, dp, enzyme_const, NSTEPS, enzyme_const, 0);
  }
#endif
  hunt_check_vec("grad", ad, fd, NP);
  return hunt_finish();
}

#include "hunt.h"
/* C driver for thermal.rs: sensitivities of a building's comfort-and-energy objective to its envelope
   conductances, heater gain and setpoint, and the slab's heat capacity. */
#include <stddef.h>
double building_objective(const double *params, size_t hours, double comfort);

enum { NP = 6, HOURS = 24 };
static double params[NP] = {1.1, 0.6, 0.9, 1.3, 20.0, 12.0};

int main(void) {
  double fd[NP], ad[NP];
  for (int k = 0; k < NP; k++) fd[k] = HUNT_FD(building_objective(params, HOURS, 20.5), params[k]);
#ifdef MODE_REV
  double dp[NP] = {0};
  __enzyme_autodiff((void *)building_objective, enzyme_dup, params, dp, enzyme_const, (size_t)HOURS,
                    enzyme_const, 20.5);
  for (int k = 0; k < NP; k++) ad[k] = dp[k];
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; k++) {
    double dp[NP] = {0};
    dp[k] = 1;
    ad[k] = __enzyme_fwddiff((void *)building_objective, enzyme_dup, params, dp, enzyme_const, (size_t)HOURS,
                             enzyme_const, 20.5);
  }
#endif
  hunt_check_vec("grad", ad, fd, NP);
  return hunt_finish();
}

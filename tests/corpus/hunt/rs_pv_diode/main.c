#include "hunt.h"
/* C driver for diode.rs: sensitivities of a single-diode photovoltaic module fit (I-V curve residuals at three
   temperature/irradiance conditions, maximum power) to the photocurrent, log saturation current, ideality,
   series and shunt resistances. */
#include <stddef.h>
double pv_objective(const double *params, const double *voltage, const double *current, size_t npts,
                    const double *temps, const double *irrad, size_t ncurves);

enum { NP = 5, NPTS = 14, NC = 3 };
static double params[NP] = {8.6, -20.5, 1.05, 0.35, 300.0};
static double voltage[NC * NPTS], current[NC * NPTS], temps[NC] = {298.15, 318.0, 283.0}, irrad[NC] = {1000, 800, 450};

int main(void) {
  for (int c = 0; c < NC; c++)
    for (int j = 0; j < NPTS; j++) {
      double v = 38.0 * j / (NPTS - 1), isc = 8.7 * irrad[c] / 1000;
      voltage[c * NPTS + j] = v;
      current[c * NPTS + j] = isc * (1 - exp((v - 37.5 + 0.08 * (temps[c] - 298)) / 2.2)) - 0.02 * v;
    }
  double fd[NP], ad[NP];
  printf("objective %.12g\n", pv_objective(params, voltage, current, NPTS, temps, irrad, NC));
  for (int k = 0; k < NP; k++)
    fd[k] = HUNT_FD(pv_objective(params, voltage, current, NPTS, temps, irrad, NC), params[k]);
#ifdef MODE_REV
  double dp[NP] = {0};
  __enzyme_autodiff((void *)pv_objective, enzyme_dup, params, dp, enzyme_const, voltage, enzyme_const, current,
                    enzyme_const, (size_t)NPTS, enzyme_const, temps, enzyme_const, irrad, enzyme_const, (size_t)NC);
  for (int k = 0; k < NP; k++) ad[k] = dp[k];
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; k++) {
    double dp[NP] = {0};
    dp[k] = 1;
    ad[k] = __enzyme_fwddiff((void *)pv_objective, enzyme_dup, params, dp, enzyme_const, voltage, enzyme_const,
                             current, enzyme_const, (size_t)NPTS, enzyme_const, temps, enzyme_const, irrad,
                             enzyme_const, (size_t)NC);
  }
#endif
  hunt_check_vec("grad", ad, fd, NP);
  return hunt_finish();
}

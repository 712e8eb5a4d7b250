#include "hunt.h"
/* C driver for kalman.rs: sensitivities of a GPS-tracking Kalman filter's negative log-likelihood (with outages
   marked NaN), its consistency penalty and final-speed error to the process noise, the GPS noise, the initial
   velocity and the initial covariance. */
#include <stddef.h>
double gps_track_objective(const double *params, const double *fixes, size_t nfix, double dt, double speed_ref);

enum { NP = 5, NFIX = 40 };
static double params[NP] = {0.8, 3.5, 11.0, 4.0, 25.0}, fixes[2 * NFIX];

int main(void) {
  unsigned s = 12345;
  for (int k = 0; k < NFIX; k++) {
    double t = k * 1.0, noise[2];
    for (int j = 0; j < 2; j++) {
      s = s * 1103515245u + 12345u;
      noise[j] = 3.0 * (((s >> 8) & 0xffff) / 65536.0 - 0.5);
    }
    fixes[2 * k] = 12.0 * t + 0.05 * t * t + noise[0];
    fixes[2 * k + 1] = 3.0 * t + 20.0 * sin(0.05 * t) + noise[1];
    if (k == 13 || k == 14 || k == 27) fixes[2 * k] = fixes[2 * k + 1] = NAN; /* outages under a bridge */
  }
  double fd[NP], ad[NP];
  printf("objective %.12g\n", gps_track_objective(params, fixes, NFIX, 1.0, 15.0));
  for (int k = 0; k < NP; k++) fd[k] = HUNT_FD(gps_track_objective(params, fixes, NFIX, 1.0, 15.0), params[k]);
#ifdef MODE_REV
  double dp[NP] = {0};
  __enzyme_autodiff((void *)gps_track_objective, enzyme_dup, params, dp, enzyme_const, fixes, enzyme_const,
                    (size_t)NFIX, enzyme_const, 1.0, enzyme_const, 15.0);
  for (int k = 0; k < NP; k++) ad[k] = dp[k];
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; k++) {
    double dp[NP] = {0};
    dp[k] = 1;
    ad[k] = __enzyme_fwddiff((void *)gps_track_objective, enzyme_dup, params, dp, enzyme_const, fixes, enzyme_const,
                             (size_t)NFIX, enzyme_const, 1.0, enzyme_const, 15.0);
  }
#endif
  hunt_check_vec("grad", ad, fd, NP);
  return hunt_finish();
}

#include "hunt.h"
/* C driver for chain.rs: sensitivities of a hanging filament's tip misfit to the physical parameters and to
   initial bead coordinates. */
#include <stddef.h>
double filament_objective(const double *coords, size_t nbeads, const double *phys, const double *target,
                          size_t steps);

enum { NB = 8, STEPS = 200 };
static double coords[2 * NB], phys[7] = {60.0, 2.0, 0.25, 0.4, 0.3, 1.5, 3.0}, target[2] = {0.9, -1.1};

int main(void) {
  for (int i = 0; i < NB; i++) {
    coords[2 * i] = 0.25 * i * cos(0.3);
    coords[2 * i + 1] = -0.25 * i * sin(0.3) + 0.01 * sin(2.0 * i);
  }
  enum { NQ = 7 + 3 };
  double *prim[NQ] = {&phys[0], &phys[1], &phys[2], &phys[3], &phys[4], &phys[5], &phys[6],
                      &coords[2], &coords[7], &coords[2 * NB - 1]};
  double fd[NQ], ad[NQ];
  for (int q = 0; q < NQ; q++) fd[q] = HUNT_FD(filament_objective(coords, NB, phys, target, STEPS), *prim[q]);
#ifdef MODE_REV
  double dc[2 * NB] = {0}, dp[7] = {0};
  __enzyme_autodiff((void *)filament_objective, enzyme_dup, coords, dc, enzyme_const, (size_t)NB, enzyme_dup, phys, dp,
                    enzyme_const, target, enzyme_const, (size_t)STEPS);
  double *shad[NQ] = {&dp[0], &dp[1], &dp[2], &dp[3], &dp[4], &dp[5], &dp[6], &dc[2], &dc[7], &dc[2 * NB - 1]};
  for (int q = 0; q < NQ; q++) ad[q] = *shad[q];
#endif
#ifdef MODE_FWD
  for (int q = 0; q < NQ; q++) {
    double dc[2 * NB] = {0}, dp[7] = {0};
    double *shad[NQ] = {&dp[0], &dp[1], &dp[2], &dp[3], &dp[4], &dp[5], &dp[6], &dc[2], &dc[7], &dc[2 * NB - 1]};
    *shad[q] = 1;
    ad[q] = __enzyme_fwddiff((void *)filament_objective, enzyme_dup, coords, dc, enzyme_const, (size_t)NB, enzyme_dup,
                             phys, dp, enzyme_const, target, enzyme_const, (size_t)STEPS);
  }
#endif
  hunt_check_vec("grad", ad, fd, NQ);
  return hunt_finish();
}

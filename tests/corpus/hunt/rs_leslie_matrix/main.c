#include "hunt.h"
/* C driver for leslie.rs: sensitivities of an age-structured stock assessment's catch misfit to
   natural and fishing mortality, selectivity and fecundity. */
#include <stddef.h>
double stock_objective(const double *params, const double *catches, size_t years);

enum { NP = 5, YEARS = 12 };
static double params[NP] = {0.25, 0.35, 4.3, 1.2, 3.0}, catches[YEARS];

int main(void) {
  for (int y = 0; y < YEARS; y++) catches[y] = 60.0 + 8.0 * sin(0.7 * y) + 1.5 * y;
  double fd[NP], ad[NP];
  for (int k = 0; k < NP; k++) fd[k] = HUNT_FD(stock_objective(params, catches, YEARS), params[k]);
#ifdef MODE_REV
  double dp[NP] = {0};
  __enzyme_autodiff((void *)stock_objective, enzyme_dup, params, dp, enzyme_const, catches, enzyme_const,
                    (size_t)YEARS);
  for (int k = 0; k < NP; k++) ad[k] = dp[k];
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; k++) {
    double dp[NP] = {0};
    dp[k] = 1;
    ad[k] = __enzyme_fwddiff((void *)stock_objective, enzyme_dup, params, dp, enzyme_const, catches, enzyme_const,
                             (size_t)YEARS);
  }
#endif
  hunt_check_vec("grad", ad, fd, NP);
  return hunt_finish();
}

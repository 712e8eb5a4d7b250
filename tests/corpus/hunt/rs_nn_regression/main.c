#include "hunt.h"
/* C driver for nn.rs: gradient of a small regression network's training + validation loss with respect
   to all of its 63 parameters (4 inputs, hidden layers of 6 and 4). */
#include <stddef.h>
double nn_objective(const double *params, size_t nparams, const double *features, const double *targets, size_t n,
                    size_t d);

enum { D = 4, N = 30, NP = D * 6 + 6 + 6 * 4 + 4 + 4 + 1 };
static double params[NP], features[N * D], targets[N];

int main(void) {
  for (int k = 0; k < NP; k++) params[k] = 0.4 * sin(1.3 * k + 0.2) + 0.05 * cos(7.0 * k);
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < D; j++) features[i * D + j] = 100.0 * j + 10.0 * sin(0.9 * i + j) + i * (j + 1) * 0.3;
    targets[i] = 1.0 + 0.5 * sin(0.3 * i) + 0.2 * cos(1.1 * i);
  }
  double fd[NP], ad[NP];
  printf("loss %.12g\n", nn_objective(params, NP, features, targets, N, D));
  for (int k = 0; k < NP; k++) fd[k] = HUNT_FD(nn_objective(params, NP, features, targets, N, D), params[k]);
#ifdef MODE_REV
  double dp[NP] = {0};
  __enzyme_autodiff((void *)nn_objective, enzyme_dup, params, dp, enzyme_const, (size_t)NP, enzyme_const, features,
                    enzyme_const, targets, enzyme_const, (size_t)N, enzyme_const, (size_t)D);
  for (int k = 0; k < NP; k++) ad[k] = dp[k];
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; k++) {
    double dp[NP] = {0};
    dp[k] = 1;
    ad[k] = __enzyme_fwddiff((void *)nn_objective, enzyme_dup, params, dp, enzyme_const, (size_t)NP, enzyme_const,
                             features, enzyme_const, targets, enzyme_const, (size_t)N, enzyme_const, (size_t)D);
  }
#endif
  hunt_check_vec("grad", ad, fd, NP);
  return hunt_finish();
}

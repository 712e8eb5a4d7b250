#include "hunt.h"
/* C driver for poppk.rs: sensitivities of a population pharmacokinetic FOCE objective (one-compartment oral
   model, random effect on clearance, each subject's mode by Gauss-Newton) to CL, V, ka, omega and sigma. */
#include <stddef.h>
#include <stdint.h>
double poppk_objective(const double *params, const uint32_t *ids, const double *times, const double *concs,
                       size_t nobs, const uint32_t *subj_id, const double *subj_dose, const double *subj_weight,
                       size_t nsubj);

enum { NP = 5, NSUBJ = 6, NT = 7, NOBS = NSUBJ * NT };
static double params[NP] = {4.5, 32.0, 1.3, 0.35, 0.18};
static uint32_t ids[NOBS], subj_id[NSUBJ];
static double times[NOBS], concs[NOBS], subj_dose[NSUBJ], subj_weight[NSUBJ];
static const double sample_times[NT] = {0.5, 1.0, 2.0, 4.0, 6.0, 8.0, 12.0};

int main(void) {
  for (int s = 0; s < NSUBJ; s++) {
    subj_id[s] = 101 + 7 * s;
    subj_dose[s] = s % 2 ? 200.0 : 100.0;
    subj_weight[s] = 55.0 + 8.0 * s;
    double cl = 4.0 * exp(0.3 * sin(1.7 * s)) * pow(subj_weight[s] / 70, 0.75), v = 30.0 * subj_weight[s] / 70;
    double ka = 1.2, k = cl / v;
    for (int j = 0; j < NT; j++) {
      int row = (j * NSUBJ + s); /* rows ordered by time, subjects interleaved as in a sampling log */
      double t = sample_times[j];
      ids[row] = subj_id[s];
      times[row] = t;
      concs[row] = subj_dose[s] * ka / (v * (ka - k)) * (exp(-k * t) - exp(-ka * t)) * exp(0.1 * sin(3.1 * row));
    }
  }
  double fd[NP], ad[NP];
  printf("objective %.12g\n", poppk_objective(params, ids, times, concs, NOBS, subj_id, subj_dose, subj_weight, NSUBJ));
  for (int k = 0; k < NP; k++)
    fd[k] = HUNT_FD(poppk_objective(params, ids, times, concs, NOBS, subj_id, subj_dose, subj_weight, NSUBJ),
                    params[k]);
#ifdef MODE_REV
  double dp[NP] = {0};
  __enzyme_autodiff((void *)poppk_objective, enzyme_dup, params, dp, enzyme_const, ids, enzyme_const, times,
                    enzyme_const, concs, enzyme_const, (size_t)NOBS, enzyme_const, subj_id, enzyme_const, subj_dose,
                    enzyme_const, subj_weight, enzyme_const, (size_t)NSUBJ);
  for (int k = 0; k < NP; k++) ad[k] = dp[k];
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; k++) {
    double dp[NP] = {0};
    dp[k] = 1;
    ad[k] = __enzyme_fwddiff((void *)poppk_objective, enzyme_dup, params, dp, enzyme_const, ids, enzyme_const, times,
                             enzyme_const, concs, enzyme_const, (size_t)NOBS, enzyme_const, subj_id, enzyme_const,
                             subj_dose, enzyme_const, subj_weight, enzyme_const, (size_t)NSUBJ);
  }
#endif
  hunt_check_vec("grad", ad, fd, NP);
  return hunt_finish();
}

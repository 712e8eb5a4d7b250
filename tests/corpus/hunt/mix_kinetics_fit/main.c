#include "hunt.h"
/* Mixed C/Fortran/Rust kinetics calibration: the C driver integrates a reaction network under a temperature
   ramp with classical RK4 (malloc'd stage buffers, a samples table), the right-hand side comes from a Fortran
   kinetics library (kin_rhs) and the robust cost from Rust (kinetics_cost).  Sensitivities of the cost to the
   four log pre-exponential factors and four activation energies. */
#include <stddef.h>
void kin_rhs(double temp, const double *conc, const double *ln_a, const double *ea, double *dcdt);
int kin_nspecies(void);
double kinetics_cost(const double *pred, const double *obs, size_t nobs, size_t nspec, int scheme);

enum { NR = 4, NP = 2 * NR, NOBS = 8, NSUB = 6 };
typedef struct {
  double t_start, t_end, temp0, ramp;
  int nsub; /* RK4 steps between samples */
} Schedule;

static double temperature(const Schedule *s, double t) { return s->temp0 + s->ramp * t; }

double fit_cost(const double *params, const double *c0, const double *obs, int nobs) {
  const Schedule sched = {0.0, 40.0, 310.0, 1.0, NSUB};
  int ns = kin_nspecies();
  double *c = malloc(ns * sizeof(double)), *k = malloc(4 * ns * sizeof(double)), *tmp = malloc(ns * sizeof(double));
  double *pred = calloc((size_t)nobs * ns, sizeof(double));
  const double *ln_a = params, *ea = params + NR;
  memcpy(c, c0, ns * sizeof(double));
  double h = (sched.t_end - sched.t_start) / ((nobs - 1) * sched.nsub), t = sched.t_start;
  memcpy(pred, c, ns * sizeof(double));
  for (int o = 1; o < nobs; o++) {
    for (int sub = 0; sub < sched.nsub; sub++) {
      static const double stage_t[4] = {0.0, 0.5, 0.5, 1.0};
      for (int st = 0; st < 4; st++) {
        for (int i = 0; i < ns; i++) tmp[i] = c[i] + (st ? stage_t[st] * h * k[(st - 1) * ns + i] : 0.0);
        kin_rhs(temperature(&sched, t + stage_t[st] * h), tmp, ln_a, ea, k + st * ns);
      }
      for (int i = 0; i < ns; i++) c[i] += h / 6 * (k[i] + 2 * k[ns + i] + 2 * k[2 * ns + i] + k[3 * ns + i]);
      t += h;
    }
    memcpy(pred + (size_t)o * ns, c, ns * sizeof(double));
  }
  double cost = kinetics_cost(pred, obs, nobs, ns, 1);
  free(c);
  free(k);
  free(tmp);
  free(pred);
  return cost;
}

static double params[NP] = {1.2, 3.5, 4.0, 2.0, 18.0, 30.0, 25.0, 22.0};
static const double c0[5] = {1.0, 0.8, 0.0, 0.0, 0.0};
static double obs[NOBS * 5];

int main(void) {
  for (int o = 0; o < NOBS; o++) {
    double t = 40.0 * o / (NOBS - 1);
    obs[o * 5 + 0] = 1.0 * exp(-0.05 * t);
    obs[o * 5 + 1] = 0.8 * exp(-0.04 * t);
    obs[o * 5 + 2] = 0.3 * (1 - exp(-0.1 * t)) * exp(-0.02 * t);
    obs[o * 5 + 3] = 0.4 * (1 - exp(-0.03 * t));
    obs[o * 5 + 4] = 0.05 * (1 - exp(-0.05 * t));
  }
  double fd[NP], ad[NP];
  printf("cost %.12g\n", fit_cost(params, c0, obs, NOBS));
  for (int k = 0; k < NP; k++) fd[k] = HUNT_FD(fit_cost(params, c0, obs, NOBS), params[k]);
#ifdef MODE_REV
  double dp[NP] = {0};
  __enzyme_autodiff((void *)fit_cost, enzyme_dup, params, dp, enzyme_const, c0, enzyme_const, obs, enzyme_const, NOBS);
  for (int k = 0; k < NP; k++) ad[k] = dp[k];
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; k++) {
    double dp[NP] = {0};
    dp[k] = 1;
    ad[k] = __enzyme_fwddiff((void *)fit_cost, enzyme_dup, params, dp, enzyme_const, c0, enzyme_const, obs,
                             enzyme_const, NOBS);
  }
#endif
  hunt_check_vec("grad", ad, fd, NP);
  return hunt_finish();
}

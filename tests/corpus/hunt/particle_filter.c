#include "hunt.h"
/* Bootstrap particle filter for a noisy pendulum observed through sin(theta): particles are a struct of
   arrays (malloc'd), a fixed-seed LCG gives the process noise, weights are normalised with log-sum-exp,
   and every few steps the particles are resampled: an index array sorted by weight with libc qsort and a
   comparator that reads the weights through a file-scope pointer, then systematic resampling.
   Objective: the log-likelihood estimate, differentiated with respect to the model parameters (the
   ancestor choices are discrete and held fixed, as in a pathwise estimator). */
typedef struct {
  double *theta, *omega, *logw;
  int n;
} Particles;

static unsigned long long lcg_state;
static double uniform(void) {
  lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return ((lcg_state >> 11) + 0.5) / 9007199254740992.0;
}
static double gauss(void) {
  double u1 = uniform(), u2 = uniform();
  return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

static const double *sort_keys;
static int by_weight_desc(const void *a, const void *b) {
  double wa = sort_keys[*(const int *)a], wb = sort_keys[*(const int *)b];
  return (wa < wb) - (wa > wb);
}

static void resample(Particles *ps, int *order, double *tmp) {
  int n = ps->n;
  for (int i = 0; i < n; i++) order[i] = i;
  sort_keys = ps->logw;
  qsort(order, n, sizeof(int), by_weight_desc);
  double cum = 0, u0 = uniform() / n;
  int j = 0;
  double wsum = exp(ps->logw[order[0]]);
  /* systematic resampling over the sorted particles */
  for (int i = 0; i < n; i++) {
    double target = u0 + (double)i / n;
    while (cum + wsum < target && j < n - 1) { cum += wsum; j++; wsum = exp(ps->logw[order[j]]); }
    tmp[i] = ps->theta[order[j]];
    tmp[n + i] = ps->omega[order[j]];
  }
  memcpy(ps->theta, tmp, n * sizeof(double));
  memcpy(ps->omega, tmp + n, n * sizeof(double));
  for (int i = 0; i < n; i++) ps->logw[i] = -log((double)n);
}

double pf_loglik(const double *par, const double *obs, int nobs, int n) {
  double gl = par[0], damping = par[1], sig_obs = par[2], dt = 0.05;
  Particles ps = {malloc(n * sizeof(double)), malloc(n * sizeof(double)), malloc(n * sizeof(double)), n};
  int *order = malloc(n * sizeof(int));
  double *tmp = malloc(2 * n * sizeof(double));
  lcg_state = 12345;
  for (int i = 0; i < n; i++) { ps.theta[i] = 0.8 + 0.05 * gauss(); ps.omega[i] = 0.05 * gauss(); ps.logw[i] = -log((double)n); }
  double loglik = 0;
  for (int t = 0; t < nobs; t++) {
    for (int i = 0; i < n; i++) {
      double th = ps.theta[i], om = ps.omega[i];
      om += dt * (-gl * sin(th) - damping * om) + 0.02 * gauss();
      th += dt * om;
      ps.theta[i] = th; ps.omega[i] = om;
      double r = (obs[t] - sin(th)) / sig_obs;
      ps.logw[i] += -0.5 * r * r - log(sig_obs);
    }
    double m = ps.logw[0];
    for (int i = 1; i < n; i++) m = fmax(m, ps.logw[i]);
    double s = 0;
    for (int i = 0; i < n; i++) s += exp(ps.logw[i] - m);
    double lse = m + log(s);
    loglik += lse;
    for (int i = 0; i < n; i++) ps.logw[i] -= lse;
    if (t % 4 == 3) resample(&ps, order, tmp);
  }
  free(ps.theta); free(ps.omega); free(ps.logw); free(order); free(tmp);
  return loglik;
}

enum { NOBS = 16, NPART = 64 };
static double obs[NOBS], par[3] = {9.0, 0.3, 0.15};

int main(void) {
  hunt_fd_step = 1e-7; /* resampling is piecewise constant in the weights: stay between its jumps */
  double th = 0.8, om = 0;
  for (int t = 0; t < NOBS; t++) {
    om += 0.05 * (-9.81 * sin(th) - 0.25 * om);
    th += 0.05 * om;
    obs[t] = sin(th) + 0.05 * cos(7.0 * t);
  }
  double fd[3], ad[3];
  for (int k = 0; k < 3; k++) fd[k] = HUNT_FD(pf_loglik(par, obs, NOBS, NPART), par[k]);
#ifdef MODE_REV
  double dpar[3] = {0};
  __enzyme_autodiff((void *)pf_loglik, enzyme_dup, par, dpar, enzyme_const, obs, enzyme_const, NOBS, enzyme_const, NPART);
  for (int k = 0; k < 3; k++) ad[k] = dpar[k];
#endif
#ifdef MODE_FWD
  for (int k = 0; k < 3; k++) {
    double dpar[3] = {0};
    dpar[k] = 1;
    ad[k] = __enzyme_fwddiff((void *)pf_loglik, enzyme_dup, par, dpar, enzyme_const, obs, enzyme_const, NOBS,
                             enzyme_const, NPART);
  }
#endif
  hunt_check_vec("grad", ad, fd, 3);
  return hunt_finish();
}

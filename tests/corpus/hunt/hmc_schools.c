#include "hunt.h"
#include <stdint.h>
/* Hamiltonian Monte Carlo on the eight-schools hierarchical model (non-centred: theta_j = mu + tau eta_j,
   tau = exp(log_tau)): the log density and its hand-written gradient, leapfrog trajectories with a fixed
   number of steps, momenta from an xorshift generator with Box-Muller (the spare normal kept in the
   generator struct), a Metropolis accept/reject on the energy error, and running means of the draws.
   Objective: posterior mean of mu plus the mean of tau from a short chain.  Inputs: the school effects y
   and their standard errors sigma (dup) and the leapfrog step size (active) -- pathwise derivatives of the
   chain for a fixed seed. */
enum { J = 8, D = J + 2 };
typedef struct { uint64_t s; int has_spare; double spare; } rng;
typedef struct { const double *y, *sigma; double prior_mu_sd, prior_tau_sd; } model;

static double uniform(rng *r) {
  r->s ^= r->s << 13; r->s ^= r->s >> 7; r->s ^= r->s << 17;
  return ((r->s >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}
static double normal(rng *r) {
  if (r->has_spare) { r->has_spare = 0; return r->spare; }
  double u1 = uniform(r), u2 = uniform(r), rad = sqrt(-2.0 * log(u1));
  r->spare = rad * sin(2 * M_PI * u2);
  r->has_spare = 1;
  return rad * cos(2 * M_PI * u2);
}

/* q = (mu, log_tau, eta_1..eta_J) */
static double log_density(const model *m, const double *q, double *grad) {
  double mu = q[0], lt = q[1], tau = exp(lt);
  double lp = -0.5 * mu * mu / (m->prior_mu_sd * m->prior_mu_sd);
  lp += -0.5 * tau * tau / (m->prior_tau_sd * m->prior_tau_sd) + lt; /* half-normal on tau, Jacobian */
  grad[0] = -mu / (m->prior_mu_sd * m->prior_mu_sd);
  grad[1] = -tau * tau / (m->prior_tau_sd * m->prior_tau_sd) + 1.0;
  for (int j = 0; j < J; j++) {
    double eta = q[2 + j], theta = mu + tau * eta, r = (m->y[j] - theta) / m->sigma[j];
    lp += -0.5 * eta * eta - 0.5 * r * r;
    double dtheta = r / m->sigma[j];
    grad[0] += dtheta;
    grad[1] += dtheta * tau * eta;
    grad[2 + j] = -eta + dtheta * tau;
  }
  return lp;
}

static int hmc_step(const model *m, double *q, double eps, int nleap, rng *r) {
  double p[D], q1[D], g[D];
  for (int i = 0; i < D; i++) p[i] = normal(r);
  memcpy(q1, q, sizeof q1);
  double lp0 = log_density(m, q1, g), k0 = 0;
  for (int i = 0; i < D; i++) k0 += 0.5 * p[i] * p[i];
  for (int l = 0; l < nleap; l++) {
    for (int i = 0; i < D; i++) p[i] += 0.5 * eps * g[i];
    for (int i = 0; i < D; i++) q1[i] += eps * p[i];
    log_density(m, q1, g);
    for (int i = 0; i < D; i++) p[i] += 0.5 * eps * g[i];
  }
  double lp1 = log_density(m, q1, g), k1 = 0;
  for (int i = 0; i < D; i++) k1 += 0.5 * p[i] * p[i];
  double log_accept = (lp1 - k1) - (lp0 - k0);
  if (log(uniform(r)) < log_accept) { memcpy(q, q1, sizeof q1); return 1; }
  return 0;
}

double chain_summary(const double *y, const double *sigma, double eps, int draws) {
  model m = {y, sigma, 5.0, 5.0};
  rng r = {0x9E3779B97F4A7C15ull, 0, 0.0};
  double q[D] = {0};
  q[1] = log(2.0);
  double mean_mu = 0, mean_tau = 0;
  int accepted = 0;
  for (int k = 0; k < draws; k++) {
    accepted += hmc_step(&m, q, eps, 12, &r);
    mean_mu += (q[0] - mean_mu) / (k + 1);
    mean_tau += (exp(q[1]) - mean_tau) / (k + 1);
  }
  if (accepted == 0) return NAN;
  return mean_mu + mean_tau;
}

static double y[J] = {28, 8, -3, 7, -1, 1, 18, 12}, sigma[J] = {15, 10, 16, 11, 9, 11, 10, 18};
enum { DRAWS = 40 };
int main(void) {
  double eps = 0.2, fd[2 * J + 1], ad[2 * J + 1];
  printf("summary %.12g\n", chain_summary(y, sigma, eps, DRAWS));
  for (int j = 0; j < J; j++) fd[j] = HUNT_FD(chain_summary(y, sigma, eps, DRAWS), y[j]);
  for (int j = 0; j < J; j++) fd[J + j] = HUNT_FD(chain_summary(y, sigma, eps, DRAWS), sigma[j]);
  fd[2 * J] = HUNT_FD(chain_summary(y, sigma, eps, DRAWS), eps);
#ifdef MODE_REV
  double dy[J] = {0}, ds[J] = {0};
  ad[2 * J] = __enzyme_autodiff((void *)chain_summary, enzyme_dup, y, dy, enzyme_dup, sigma, ds, enzyme_out, eps,
                                enzyme_const, DRAWS);
  for (int j = 0; j < J; j++) { ad[j] = dy[j]; ad[J + j] = ds[j]; }
  hunt_check_vec("grad", ad, fd, 2 * J + 1);
#endif
#ifdef MODE_FWD
  double dy[J] = {0}, ds[J] = {0};
  for (int k = 0; k < 2 * J; k++) {
    double *slot = k < J ? &dy[k] : &ds[k - J];
    *slot = 1.0;
    ad[k] = __enzyme_fwddiff((void *)chain_summary, enzyme_dup, y, dy, enzyme_dup, sigma, ds, enzyme_const, eps,
                             enzyme_const, DRAWS);
    *slot = 0.0;
  }
  ad[2 * J] = __enzyme_fwddiff((void *)chain_summary, enzyme_dup, y, dy, enzyme_dup, sigma, ds, enzyme_dup, eps, 1.0,
                               enzyme_const, DRAWS);
  hunt_check_vec("grad", ad, fd, 2 * J + 1);
#endif
  return hunt_finish();
}

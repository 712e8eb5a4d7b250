#include "hunt.h"
/* Calibration of a Michaelis-Menten reactor against batches of measurements.  Diagnostics are kept the
   way many lab codes keep them: a global statistics struct (Welford running mean/variance, min/max,
   counters) that a callee updates for every residual, reset at the start of each evaluation, and read
   back by the objective.  A global "model configuration" struct holds the active parameters copied in
   by a setter.  Objective: mean squared residual plus a variance penalty plus the worst residual. */
typedef struct {
  long count;
  double mean, m2, max_abs, sum_sq;
} RunningStats;

typedef struct {
  double vmax, km, k_inhib;
  int substeps;
} ModelConfig;

RunningStats g_stats;
static ModelConfig g_model = {0, 0, 0, 10};

static void stats_reset(RunningStats *s) { memset(s, 0, sizeof *s); }

static void stats_push(RunningStats *s, double x) {
  s->count++;
  double delta = x - s->mean;
  s->mean += delta / s->count;
  s->m2 += delta * (x - s->mean);
  s->sum_sq += x * x;
  if (fabs(x) > s->max_abs) s->max_abs = fabs(x);
}

static void set_model(const double *p) {
  g_model.vmax = p[0];
  g_model.km = p[1];
  g_model.k_inhib = p[2];
}

static double simulate_batch(double s0, double t_end) {
  double s = s0, dt = t_end / g_model.substeps;
  for (int k = 0; k < g_model.substeps; k++) { /* RK2 on ds/dt = -vmax s / (km + s + s^2/ki) */
    double r1 = -g_model.vmax * s / (g_model.km + s + s * s / g_model.k_inhib);
    double sm = s + 0.5 * dt * r1;
    double r2 = -g_model.vmax * sm / (g_model.km + sm + sm * sm / g_model.k_inhib);
    s += dt * r2;
  }
  return s;
}

double calibration_loss(const double *p, const double *s0, const double *times, const double *measured, int nb,
                        int nt) {
  set_model(p);
  stats_reset(&g_stats);
  for (int b = 0; b < nb; b++)
    for (int t = 0; t < nt; t++) stats_push(&g_stats, simulate_batch(s0[b], times[t]) - measured[b * nt + t]);
  double var = g_stats.count > 1 ? g_stats.m2 / (g_stats.count - 1) : 0;
  return g_stats.sum_sq / g_stats.count + 0.5 * var + 0.2 * g_stats.max_abs + g_stats.mean * g_stats.mean;
}

enum { NB = 4, NT = 5 };
static double p[3] = {1.3, 0.7, 4.0}, s0[NB] = {0.5, 1.0, 2.0, 4.0}, times[NT] = {0.2, 0.5, 1.0, 1.5, 2.5};
static double measured[NB * NT];

int main(void) {
  double ptrue[3] = {1.1, 0.8, 3.5};
  set_model(ptrue);
  for (int b = 0; b < NB; b++)
    for (int t = 0; t < NT; t++) measured[b * NT + t] = simulate_batch(s0[b], times[t]) * (1 + 0.03 * sin(3.0 * b + t));
  double fd[3 + NB], ad[3 + NB];
  for (int k = 0; k < 3; k++) fd[k] = HUNT_FD(calibration_loss(p, s0, times, measured, NB, NT), p[k]);
  for (int b = 0; b < NB; b++) fd[3 + b] = HUNT_FD(calibration_loss(p, s0, times, measured, NB, NT), s0[b]);
#ifdef MODE_REV
  double dp[3] = {0}, ds0[NB] = {0};
  __enzyme_autodiff((void *)calibration_loss, enzyme_dup, p, dp, enzyme_dup, s0, ds0, enzyme_const, times,
                    enzyme_const, measured, enzyme_const, NB, enzyme_const, NT);
  for (int k = 0; k < 3; k++) ad[k] = dp[k];
  for (int b = 0; b < NB; b++) ad[3 + b] = ds0[b];
#endif
#ifdef MODE_FWD
  for (int k = 0; k < 3 + NB; k++) {
    double dp[3] = {0}, ds0[NB] = {0};
    if (k < 3) dp[k] = 1; else ds0[k - 3] = 1;
    ad[k] = __enzyme_fwddiff((void *)calibration_loss, enzyme_dup, p, dp, enzyme_dup, s0, ds0, enzyme_const, times,
                             enzyme_const, measured, enzyme_const, NB, enzyme_const, NT);
  }
#endif
  hunt_check_vec("grad", ad, fd, 3 + NB);
  printf("evaluations recorded: %ld\n", g_stats.count);
  return hunt_finish();
}

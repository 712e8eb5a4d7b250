#include "check.h"
/* Hessian-vector products through checkpointed loops (<enzyme/checkpoint.h>), forward mode over reverse mode:
   the schedule of the gradient runs on tangents too.  A damped nonlinear oscillator chain, 60 steps, whose
   state is two arrays named as regions and an integer counter in a global; the product must equal forward
   over reverse of the plain loop and central differences of its gradient, for Revolve, Periodic and a while
   loop, and the state after it must be the plain loop's. */
#include <enzyme/checkpoint.h>
#include <string.h>

enum { N = 5, STEPS = 60 };
static long counter; /* written by every step, no derivative: snapshots hold it */

__attribute__((noinline)) static void step(int64_t i, double *x, double *v, const double *k) {
  double a[N];
  counter = (3 * counter + 1) % 7;
  for (int j = 0; j < N; j++)
    a[j] = -k[j] * sin(x[j]) + 0.3 * (x[(j + 1) % N] - x[j]) * v[j] - 0.05 * v[j] + 0.01 * (double)(i % 5 + counter);
  for (int j = 0; j < N; j++) {
    v[j] += 0.05 * a[j];
    x[j] += 0.05 * v[j];
  }
}

static int step_until(int64_t i, double *x, double *v, const double *k, const int64_t *n) {
  step(i, x, v, k);
  return i + 1 < *n;
}

static double energy(const double *x, const double *v) {
  double s = 0;
  for (int j = 0; j < N; j++) s += v[j] * v[j] * x[j] + x[j] * x[j] * x[j];
  return s;
}

static double plain(double *x, double *v, double *k, int64_t n, const EnzymeCheckpointScheme *scheme,
                    EnzymeCkptConfig *config) {
  (void)scheme, (void)config;
  counter = 0;
  for (int64_t i = 0; i < n; i++) step(i, x, v, k);
  return energy(x, v);
}

static double ckpt(double *x, double *v, double *k, int64_t n, const EnzymeCheckpointScheme *scheme,
                   EnzymeCkptConfig *config) {
  counter = 0;
  if (scheme)
    __enzyme_checkpoint_for((void *)step, 0, n, enzyme_scheme, scheme, config, enzyme_checkpoint_region, x,
                            (int64_t)sizeof(double) * N, enzyme_checkpoint_region, v, (int64_t)sizeof(double) * N,
                            x, v, k);
  else
    __enzyme_checkpoint_while((void *)step_until, enzyme_scheme, &EnzymeCkptStoreAll, config,
                              enzyme_checkpoint_region, x, (int64_t)sizeof(double) * N, enzyme_checkpoint_region, v,
                              (int64_t)sizeof(double) * N, x, v, k, &n);
  return energy(x, v);
}

/* The gradient with respect to x, v and k, in g[0..3N): of the plain loop without a config. */
__attribute__((noinline)) static void grad(double *x, double *v, double *k, double *g,
                                           const EnzymeCheckpointScheme *scheme, EnzymeCkptConfig *config) {
  if (config)
    __enzyme_autodiff((void *)ckpt, enzyme_dup, x, g, enzyme_dup, v, g + N, enzyme_dup, k, g + 2 * N, enzyme_const,
                      (int64_t)STEPS, enzyme_const, scheme, enzyme_const, config);
  else
    __enzyme_autodiff((void *)plain, enzyme_dup, x, g, enzyme_dup, v, g + N, enzyme_dup, k, g + 2 * N,
                      enzyme_const, (int64_t)STEPS, enzyme_const, scheme, enzyme_const, config);
}

static void init(double *x, double *v, double *k) {
  for (int j = 0; j < N; j++) {
    x[j] = 0.4 + 0.1 * j;
    v[j] = 0.2 - 0.05 * j;
    k[j] = 1.0 + 0.2 * j;
  }
}

static const double dir[3 * N] = {1, -0.5, 0.3, 0.2, -1, 0.4, 0.1, -0.2, 0.6, 0.3, 0.5, -0.4, 0.2, 0.1, -0.3};

/* Hv along dir: forward mode of grad. */
static void hvp(const EnzymeCheckpointScheme *scheme, EnzymeCkptConfig *config, double *g, double *hv,
                double *x_after) {
  double x[N], v[N], k[N], tx[N], tv[N], tk[N];
  init(x, v, k);
  memcpy(tx, dir, sizeof(tx));
  memcpy(tv, dir + N, sizeof(tv));
  memcpy(tk, dir + 2 * N, sizeof(tk));
  memset(g, 0, sizeof(double) * 3 * N);
  memset(hv, 0, sizeof(double) * 3 * N);
  __enzyme_fwddiff((void *)grad, enzyme_dup, x, tx, enzyme_dup, v, tv, enzyme_dup, k, tk, enzyme_dup, g, hv,
                   enzyme_const, scheme, enzyme_const, config);
  memcpy(x_after, x, sizeof(x));
}

int main(void) {
  double g0[3 * N], hv0[3 * N], x0[N], fd[3 * N];
  hvp(NULL, NULL, g0, hv0, x0);
  long counter_after = counter;
  {  /* central differences of the plain loop's gradient along dir */
    double h = 1e-6, gp[3 * N], gm[3 * N], x[N], v[N], k[N];
    for (int s = 0; s < 2; s++) {
      double sign = s ? -1 : 1, *out = s ? gm : gp;
      init(x, v, k);
      for (int j = 0; j < N; j++) {
        x[j] += sign * h * dir[j];
        v[j] += sign * h * dir[N + j];
        k[j] += sign * h * dir[2 * N + j];
      }
      memset(out, 0, sizeof(gp));
      grad(x, v, k, out, NULL, NULL);
    }
    for (int j = 0; j < 3 * N; j++) fd[j] = (gp[j] - gm[j]) / (2 * h);
  }
  struct { const char *name; const EnzymeCheckpointScheme *scheme; int64_t snaps; } cases[] = {
      {"revolve 2", &EnzymeCkptRevolve, 2}, {"revolve 7", &EnzymeCkptRevolve, 7},
      {"periodic 6", &EnzymeCkptPeriodic, 6}, {"while, store all", NULL, 0}};
  for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    double g[3 * N], hv[3 * N], x[N];
    char what[96];
    EnzymeCkptStats stats;
    EnzymeCkptConfig config = {cases[c].snaps, 0, NULL, 0, &stats};
    memset(&stats, 0, sizeof(stats));
    hvp(cases[c].scheme, &config, g, hv, x);
    for (int j = 0; j < 3 * N; j++) {
      snprintf(what, sizeof(what), "%s: gradient [%d]", cases[c].name, j);
      check(what, g[j], g0[j], 1e-12);
      snprintf(what, sizeof(what), "%s: Hv [%d]", cases[c].name, j);
      check(what, hv[j], hv0[j], 1e-10);
      snprintf(what, sizeof(what), "%s: Hv [%d] vs central differences", cases[c].name, j);
      check(what, hv[j], fd[j], 1e-5);
    }
    check("state after", memcmp(x, x0, sizeof(x)) == 0 && counter == counter_after, 1, 0);
    check("every step differentiated once", (double)stats.taped_steps, STEPS, 0);
  }
  return finish();
}

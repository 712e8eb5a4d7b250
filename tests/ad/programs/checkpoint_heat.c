#include "check.h"
/* Checkpointed time stepping (<enzyme/checkpoint.h>): a nonlinear heat equation on a periodic rod, 200
   explicit Euler steps, whose state is the temperature (an argument, named as a region) and an energy
   tally in a global.  Its gradient through __enzyme_checkpoint_for with each reference scheme and several
   budgets must equal the gradient of the same plain loop and central differences of the plain loop; the
   schedule must differentiate every step once and keep no more snapshots than Revolve is given; the
   primal state after the gradient must be the plain loop's.  A while loop (__enzyme_checkpoint_while),
   a loop whose state is only a global, batch reverse mode (enzyme_width 2), forward mode through a checkpointed loop, and a checkpointed loop whose steps run checkpointed loops (outer
   snapshots in files)
   are checked the same way. */
#include <enzyme/checkpoint.h>
#include <string.h>

enum { N = 16, STEPS = 200 };
static const double dt = 0.02;
static double energy; /* written by every step: snapshots must hold it */

__attribute__((noinline)) static void heat_step(int64_t i, double *T, const double *kappa, const double *q) {
  double next[N];
  for (int k = 0; k < N; k++) {
    double lap = T[(k + 1) % N] - 2 * T[k] + T[(k + N - 1) % N];
    next[k] = T[k] + dt * (*kappa * lap + q[k] * sin(T[k]) - 0.1 * T[k] * T[k] * T[k] +
                           0.05 * cos(0.01 * (double)i + k));
  }
  for (int k = 0; k < N; k++) {
    energy = 0.99 * energy + dt * next[k] * next[k];
    T[k] = next[k];
  }
}

static double loss(const double *T) {
  double s = energy;
  for (int k = 0; k < N; k++) s += (k + 1) * T[k] * T[k];
  return s;
}

static double plain(double *T, double *kappa, double *q, int64_t n) {
  energy = 0;
  for (int64_t i = 0; i < n; i++) heat_step(i, T, kappa, q);
  return loss(T);
}

static double checkpointed(double *T, double *kappa, double *q, int64_t n, const EnzymeCheckpointScheme *scheme,
                           EnzymeCkptConfig *config) {
  energy = 0;
  __enzyme_checkpoint_for((void *)heat_step, 0, n, enzyme_scheme, scheme, config, enzyme_checkpoint_region, T,
                          (int64_t)sizeof(double) * N, T, kappa, q);
  return loss(T);
}

/* The same loop as a while loop: the step says whether to go on. */
__attribute__((noinline)) static int heat_step_until(int64_t i, double *T, const double *kappa, const double *q,
                                                     const int64_t *n) {
  heat_step(i, T, kappa, q);
  return i + 1 < *n;
}

static double checkpointed_while(double *T, double *kappa, double *q, int64_t *n, EnzymeCkptConfig *config) {
  energy = 0;
  __enzyme_checkpoint_while((void *)heat_step_until, enzyme_scheme, &EnzymeCkptStoreAll, config,
                            enzyme_checkpoint_region, T, (int64_t)sizeof(double) * N, T, kappa, q, n);
  return loss(T);
}

/* Two levels: each outer step runs 20 inner steps, checkpointed too. */
__attribute__((noinline)) static void twenty_steps(int64_t j, double *T, const double *kappa, const double *q,
                                                  EnzymeCkptConfig *inner) {
  __enzyme_checkpoint_for((void *)heat_step, 20 * j, 20, enzyme_scheme, &EnzymeCkptRevolve, inner,
                          enzyme_checkpoint_region, T, (int64_t)sizeof(double) * N, T, kappa, q);
}

static double two_levels(double *T, double *kappa, double *q, EnzymeCkptConfig *outer, EnzymeCkptConfig *inner) {
  energy = 0;
  __enzyme_checkpoint_for((void *)twenty_steps, 0, STEPS / 20, enzyme_scheme, &EnzymeCkptPeriodic, outer,
                          enzyme_checkpoint_region, T, (int64_t)sizeof(double) * N, T, kappa, q, inner);
  return loss(T);
}

/* Two outputs, for batch reverse mode: the loss and a product of two temperatures. */
static void outputs(double *T, double *kappa, double *q, double *out, int64_t ckpt, EnzymeCkptConfig *config) {
  if (ckpt)
    out[0] = checkpointed(T, kappa, q, STEPS, &EnzymeCkptRevolve, config);
  else
    out[0] = plain(T, kappa, q, STEPS);
  out[1] = T[3] * T[5];
}

/* A loop whose whole state is a global, stepped by an int from 5 on: no argument carries its derivative. */
static double G[3];
__attribute__((noinline)) static void global_step(int i) {
  for (int k = 0; k < 3; k++) G[k] = sin(G[k]) + 0.01 * i * G[(k + 1) % 3];
}

static double global_loop(double *x, int n, EnzymeCkptConfig *config) {
  for (int k = 0; k < 3; k++) G[k] = x[k];
  if (config)
    __enzyme_checkpoint_for((void *)global_step, 5, n, enzyme_scheme, &EnzymeCkptRevolve, config);
  else
    for (int i = 5; i < 5 + n; i++) global_step(i);
  return G[0] * G[1] + G[2];
}

static void init(double *T, double *kappa, double *q) {
  for (int k = 0; k < N; k++) {
    T[k] = 1.0 + 0.5 * sin(0.7 * k);
    q[k] = 0.3 + 0.02 * k;
  }
  *kappa = 0.4;
}

/* The gradient of the plain loop: dT then dkappa then dq. */
static void plain_gradient(double *g) {
  double T[N], kappa, q[N];
  memset(g, 0, sizeof(double) * (2 * N + 1));
  init(T, &kappa, q);
  __enzyme_autodiff((void *)plain, enzyme_dup, T, g, enzyme_dup, &kappa, g + N, enzyme_dup, q, g + N + 1,
                    enzyme_const, (int64_t)STEPS);
}

static double plain_value(const double *T0, double kappa, const double *q0) {
  double T[N], q[N];
  memcpy(T, T0, sizeof(T));
  memcpy(q, q0, sizeof(q));
  return plain(T, &kappa, q, STEPS);
}

static void compare(const char *what, const double *g, const double *want, double rtol) {
  char name[128];
  for (int k = 0; k < 2 * N + 1; k++) {
    snprintf(name, sizeof(name), "%s [%d]", what, k);
    check(name, g[k], want[k], rtol);
  }
}

int main(void) {
  double want[2 * N + 1], T0[N], kappa0, q0[N], Tafter[N];
  plain_gradient(want);
  init(T0, &kappa0, q0);
  memcpy(Tafter, T0, sizeof(T0));
  double k_tmp = kappa0, q_tmp[N];
  memcpy(q_tmp, q0, sizeof(q0));
  plain(Tafter, &k_tmp, q_tmp, STEPS);
  double energy_after = energy;

  /* Central differences of the plain loop, for a few entries. */
  {
    double T[N], q[N], kappa = kappa0, h = 1e-6;
    memcpy(T, T0, sizeof(T));
    memcpy(q, q0, sizeof(q));
    int idx[] = {0, 7, 15};
    for (int j = 0; j < 3; j++) {
      int k = idx[j];
      double x = T[k];
      T[k] = x + h;
      double p = plain_value(T, kappa, q);
      T[k] = x - h;
      double m = plain_value(T, kappa, q);
      T[k] = x;
      check("plain gradient vs central dT", want[k], (p - m) / (2 * h), 1e-6);
      x = q[k];
      q[k] = x + h;
      p = plain_value(T, kappa, q);
      q[k] = x - h;
      m = plain_value(T, kappa, q);
      q[k] = x;
      check("plain gradient vs central dq", want[N + 1 + k], (p - m) / (2 * h), 1e-6);
    }
    double p = plain_value(T, kappa + h, q), m = plain_value(T, kappa - h, q);
    check("plain gradient vs central dkappa", want[N], (p - m) / (2 * h), 1e-6);
  }

  struct { const char *name; const EnzymeCheckpointScheme *scheme; int64_t snaps; } cases[] = {
      {"revolve 1", &EnzymeCkptRevolve, 1},   {"revolve 3", &EnzymeCkptRevolve, 3},
      {"revolve 10", &EnzymeCkptRevolve, 10}, {"binomial 5", &EnzymeCkptBinomial, 5},
      {"periodic 4", &EnzymeCkptPeriodic, 4}, {"periodic 1000", &EnzymeCkptPeriodic, 1000},
      {"store all", &EnzymeCkptStoreAll, 0}};
  for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    double T[N], kappa, q[N], g[2 * N + 1];
    EnzymeCkptStats stats;
    EnzymeCkptConfig config = {cases[c].snaps, 0, NULL, 0, &stats};
    memset(g, 0, sizeof(g));
    memset(&stats, 0, sizeof(stats));
    init(T, &kappa, q);
    __enzyme_autodiff((void *)checkpointed, enzyme_dup, T, g, enzyme_dup, &kappa, g + N, enzyme_dup, q, g + N + 1,
                      enzyme_const, (int64_t)STEPS, enzyme_const, cases[c].scheme, enzyme_const, &config);
    compare(cases[c].name, g, want, 1e-12);
    check("state after the gradient", memcmp(T, Tafter, sizeof(T)) == 0 && energy == energy_after, 1, 0);
    check("every step differentiated once", (double)stats.taped_steps, STEPS, 0);
    if (cases[c].scheme == &EnzymeCkptRevolve) {
      check("revolve keeps at most its snapshots", stats.max_slots <= cases[c].snaps, 1, 0);
      check("revolve runs steps again", stats.forward_steps > STEPS, 1, 0);
    }
  }

  {  /* the while loop */
    double T[N], kappa, q[N], g[2 * N + 1];
    int64_t n = STEPS;
    EnzymeCkptStats stats;
    EnzymeCkptConfig config = {0, 0, NULL, 0, &stats};
    memset(g, 0, sizeof(g));
    init(T, &kappa, q);
    __enzyme_autodiff((void *)checkpointed_while, enzyme_dup, T, g, enzyme_dup, &kappa, g + N, enzyme_dup, q,
                      g + N + 1, enzyme_const, &n, enzyme_const, &config);
    compare("while", g, want, 1e-12);
    check("while: state after the gradient", memcmp(T, Tafter, sizeof(T)) == 0, 1, 0);
    check("while: steps", (double)stats.taped_steps, STEPS, 0);
  }

  {  /* two levels, the outer snapshots in files */
    double T[N], kappa, q[N], g[2 * N + 1];
    EnzymeCkptStats stats;
    EnzymeCkptConfig outer = {3, 0, "/tmp", 0, &stats}, inner = {2, 0, NULL, 0, NULL};
    memset(g, 0, sizeof(g));
    init(T, &kappa, q);
    __enzyme_autodiff((void *)two_levels, enzyme_dup, T, g, enzyme_dup, &kappa, g + N, enzyme_dup, q, g + N + 1,
                      enzyme_const, &outer, enzyme_const, &inner);
    compare("two levels", g, want, 1e-12);
    check("two levels: outer steps", (double)stats.taped_steps, STEPS / 20, 0);
  }

  {  /* batch reverse mode (two adjoint seeds, one schedule) against the plain loop, one row at a time */
    double T[N], kappa, q[N], out[2], g[2][2 * N + 1], rows[2][2 * N + 1], dout[2][2] = {{1, 0}, {0, 1}};
    EnzymeCkptStats stats;
    EnzymeCkptConfig config = {4, 0, NULL, 0, &stats};
    extern int enzyme_width;
    for (int j = 0; j < 2; j++) {
      double seed[2] = {j == 0, j == 1};
      memset(rows[j], 0, sizeof(rows[j]));
      init(T, &kappa, q);
      __enzyme_autodiff((void *)outputs, enzyme_dup, T, rows[j], enzyme_dup, &kappa, rows[j] + N, enzyme_dup, q,
                        rows[j] + N + 1, enzyme_dup, out, seed, enzyme_const, (int64_t)0, enzyme_const, &config);
    }
    memset(g, 0, sizeof(g));
    init(T, &kappa, q);
    __enzyme_autodiff((void *)outputs, enzyme_width, 2, enzyme_dup, T, g[0], g[1], enzyme_dup, &kappa, g[0] + N,
                      g[1] + N, enzyme_dup, q, g[0] + N + 1, g[1] + N + 1, enzyme_dup, out, dout[0], dout[1],
                      enzyme_const, (int64_t)1, enzyme_const, &config);
    compare("batch row 0", g[0], rows[0], 1e-12);
    compare("batch row 1", g[1], rows[1], 1e-12);
    compare("batch row 0 = the plain gradient", g[0], want, 1e-12);
    check("batch: each step differentiated once", (double)stats.taped_steps, STEPS, 0);
  }

  {  /* state in a global only */
    double x[3] = {0.3, 0.5, 0.9}, want_g[3] = {0}, got_g[3] = {0};
    EnzymeCkptStats stats;
    EnzymeCkptConfig config = {2, 0, NULL, 0, &stats};
    __enzyme_autodiff((void *)global_loop, enzyme_dup, x, want_g, enzyme_const, 9, enzyme_const, (void *)0);
    __enzyme_autodiff((void *)global_loop, enzyme_dup, x, got_g, enzyme_const, 9, enzyme_const, &config);
    for (int k = 0; k < 3; k++) check("global state", got_g[k], want_g[k], 1e-13);
    check("global state: steps differentiated", (double)stats.taped_steps, 9, 0);
  }

  {  /* forward mode through the checkpointed loop: the directional derivative along (v, 1, w) */
    double T[N], kappa, q[N], dT[N], dkappa = 1, dq[N], expected = want[N];
    EnzymeCkptConfig config = {3, 0, NULL, 0, NULL};
    init(T, &kappa, q);
    for (int k = 0; k < N; k++) {
      dT[k] = 0.1 * (k % 3) - 0.05;
      dq[k] = 0.02 * k;
      expected += dT[k] * want[k] + dq[k] * want[N + 1 + k];
    }
    double got = __enzyme_fwddiff((void *)checkpointed, enzyme_dup, T, dT, enzyme_dup, &kappa, &dkappa, enzyme_dup,
                                  q, dq, enzyme_const, (int64_t)STEPS, enzyme_const, &EnzymeCkptRevolve,
                                  enzyme_const, &config);
    check("forward mode", got, expected, 1e-11);
  }
  return finish();
}

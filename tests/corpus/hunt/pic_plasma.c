#include "hunt.h"
/* 1-D electrostatic particle-in-cell (two-stream / Landau setup): cloud-in-cell charge deposition with
   integer cell indices from floor(), periodic wrap, field from Gauss's law by a running sum with the mean
   removed, field gathered back to the particles, leapfrog push, positions wrapped with fmod.  The field
   energy history is formatted with snprintf into a log line each step.  Inputs: the perturbation
   amplitude, the drift velocity and the per-particle initial velocity offsets. */
#include <stdlib.h>

#define NG 16
#define NPART 64

typedef struct {
  double *x, *v;
  int n;
  double qm, weight;
} Species;

typedef struct {
  double rho[NG], E[NG];
  double dx, length;
} Grid;

static void deposit(const Species *s, Grid *g) {
  memset(g->rho, 0, sizeof g->rho);
  for (int p = 0; p < s->n; p++) {
    double xi = s->x[p] / g->dx;
    int i = (int)floor(xi);
    double w = xi - i;
    i %= NG;
    int ip = (i + 1) % NG;
    g->rho[i] += s->weight * (1.0 - w);
    g->rho[ip] += s->weight * w;
  }
  double mean = 0;
  for (int i = 0; i < NG; i++) mean += g->rho[i];
  mean /= NG;
  for (int i = 0; i < NG; i++) g->rho[i] = (g->rho[i] - mean) / g->dx;
}

static void solve_field(Grid *g) {
  g->E[0] = 0;
  for (int i = 1; i < NG; i++) g->E[i] = g->E[i - 1] + 0.5 * (g->rho[i - 1] + g->rho[i]) * g->dx;
  double mean = 0;
  for (int i = 0; i < NG; i++) mean += g->E[i];
  mean /= NG;
  for (int i = 0; i < NG; i++) g->E[i] -= mean;
}

static double gather(const Grid *g, double x) {
  double xi = x / g->dx;
  int i = (int)floor(xi);
  double w = xi - i;
  return (1.0 - w) * g->E[i % NG] + w * g->E[(i + 1) % NG];
}

static void push(Species *s, const Grid *g, double dt) {
  for (int p = 0; p < s->n; p++) {
    s->v[p] += s->qm * gather(g, s->x[p]) * dt;
    double xn = fmod(s->x[p] + s->v[p] * dt, g->length);
    if (xn < 0) xn += g->length;
    s->x[p] = xn;
  }
}

double pic_energy(double amplitude, double drift, const double *dv, int nsteps) {
  Grid g;
  g.length = 4.0 * M_PI;
  g.dx = g.length / NG;
  Species s = {malloc(NPART * sizeof(double)), malloc(NPART * sizeof(double)), NPART, -1.0, g.length / NPART};
  for (int p = 0; p < NPART; p++) {
    double x0 = (p + 0.37) * g.length / NPART;
    s.x[p] = x0 + amplitude * sin(0.5 * x0);
    s.v[p] = (p % 2 ? drift : -drift) + dv[p];
  }
  double dt = 0.1, energy = 0;
  char line[96];
  for (int step = 0; step < nsteps; step++) {
    deposit(&s, &g);
    solve_field(&g);
    double we = 0;
    for (int i = 0; i < NG; i++) we += 0.5 * g.E[i] * g.E[i] * g.dx;
    snprintf(line, sizeof line, "step %3d t=%6.3f field energy %.6e", step, step * dt, we);
    if (step == nsteps - 1) puts(line);
    energy += we * dt;
    push(&s, &g, dt);
  }
  double ke = 0;
  for (int p = 0; p < NPART; p++) ke += 0.5 * s.weight * s.v[p] * s.v[p];
  free(s.x);
  free(s.v);
  return energy + 0.1 * ke;
}

int main(void) {
  double amp = 0.05, drift = 0.4, dv[NPART];
  int nsteps = 12;
  for (int p = 0; p < NPART; p++) dv[p] = 0.01 * sin(1.7 * p);
  hunt_fd_step = 1e-6;
  hunt_rtol = 1e-4;
  enum { NPAR = 2 + NPART };
  double *prim[NPAR];
  prim[0] = &amp; prim[1] = &drift;
  for (int p = 0; p < NPART; p++) prim[2 + p] = &dv[p];
  double fd[NPAR], ad[NPAR], ddv[NPART] = {0};
  for (int k = 0; k < NPAR; k++) fd[k] = HUNT_FD(pic_energy(amp, drift, dv, nsteps), *prim[k]);
#ifdef MODE_REV
  ad[0] = __enzyme_autodiff((void *)pic_energy, amp, enzyme_const, drift, enzyme_const, dv, enzyme_const, nsteps);
  ad[1] = __enzyme_autodiff((void *)pic_energy, enzyme_const, amp, drift, enzyme_dup, dv, ddv, enzyme_const, nsteps);
  for (int p = 0; p < NPART; p++) ad[2 + p] = ddv[p];
  hunt_check_vec("grad", ad, fd, NPAR);
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NPAR; k++) {
    if (k >= 2) ddv[k - 2] = 1.0;
    ad[k] = __enzyme_fwddiff((void *)pic_energy, amp, k == 0 ? 1.0 : 0.0, drift, k == 1 ? 1.0 : 0.0, enzyme_dup, dv,
                             ddv, enzyme_const, nsteps);
    if (k >= 2) ddv[k - 2] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NPAR);
#endif
  return hunt_finish();
}

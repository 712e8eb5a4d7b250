#include "hunt.h"
#include <stdarg.h>
/* Lattice-Boltzmann D2Q9 channel (Poiseuille) flow driven by a body force: BGK collision with the
   Guo forcing term, streaming with periodic inflow/outflow and half-way bounce-back walls.  Velocity
   set, weights and opposite directions are const lookup tables; the distributions live in two calloc'd
   buffers swapped by pointer, macroscopic fields in a struct.  Objective: volumetric flow rate at the
   outlet column plus a small density-fluctuation penalty.  Inputs: relaxation time tau, body force gx
   (active) and the initial density perturbation rho0 (dup). */
enum { Q = 9 };
static const int cx[Q] = {0, 1, 0, -1, 0, 1, -1, -1, 1};
static const int cy[Q] = {0, 0, 1, 0, -1, 1, 1, -1, -1};
static const double wq[Q] = {4.0 / 9, 1.0 / 9, 1.0 / 9, 1.0 / 9, 1.0 / 9, 1.0 / 36, 1.0 / 36, 1.0 / 36, 1.0 / 36};
static const int opp[Q] = {0, 3, 4, 1, 2, 7, 8, 5, 6};

typedef struct { int nx, ny, steps, log_every; } lbm_config;
static lbm_config config = {10, 7, 30, 10};

typedef struct { double *rho, *ux, *uy; } fields;

static void logmsg(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
}

static inline int idx(int x, int y, int q) { return (y * config.nx + x) * Q + q; }

static double equilibrium(int q, double rho, double ux, double uy) {
  double cu = 3.0 * (cx[q] * ux + cy[q] * uy);
  double uu = 1.5 * (ux * ux + uy * uy);
  return wq[q] * rho * (1.0 + cu + 0.5 * cu * cu - uu);
}

static void macroscopic(const double *f, fields *m, double gx) {
  for (int y = 0; y < config.ny; y++)
    for (int x = 0; x < config.nx; x++) {
      double rho = 0, jx = 0, jy = 0;
      for (int q = 0; q < Q; q++) {
        double fq = f[idx(x, y, q)];
        rho += fq; jx += cx[q] * fq; jy += cy[q] * fq;
      }
      int c = y * config.nx + x;
      m->rho[c] = rho;
      m->ux[c] = (jx + 0.5 * gx * rho) / rho; /* half-force velocity shift (Guo) */
      m->uy[c] = jy / rho;
    }
}

static void collide(double *f, const fields *m, double tau, double gx) {
  double omega = 1.0 / tau;
  for (int y = 0; y < config.ny; y++)
    for (int x = 0; x < config.nx; x++) {
      int c = y * config.nx + x;
      double rho = m->rho[c], ux = m->ux[c], uy = m->uy[c];
      for (int q = 0; q < Q; q++) {
        double force = (1 - 0.5 * omega) * wq[q] * rho *
                       (3.0 * (cx[q] - ux) + 9.0 * (cx[q] * ux + cy[q] * uy) * cx[q]) * gx;
        f[idx(x, y, q)] += -omega * (f[idx(x, y, q)] - equilibrium(q, rho, ux, uy)) + force;
      }
    }
}

static void stream(const double *f, double *g) {
  for (int y = 0; y < config.ny; y++)
    for (int x = 0; x < config.nx; x++)
      for (int q = 0; q < Q; q++) {
        int xn = (x + cx[q] + config.nx) % config.nx, yn = y + cy[q];
        if (yn < 0 || yn >= config.ny)
          g[idx(x, y, opp[q])] = f[idx(x, y, q)]; /* half-way bounce-back at the walls */
        else
          g[idx(xn, yn, q)] = f[idx(x, y, q)];
      }
}

double channel_flow(double tau, double gx, const double *rho0) {
  int ncell = config.nx * config.ny;
  double *f = calloc((size_t)ncell * Q, sizeof(double));
  double *g = calloc((size_t)ncell * Q, sizeof(double));
  fields m = {malloc(ncell * sizeof(double)), malloc(ncell * sizeof(double)), malloc(ncell * sizeof(double))};
  for (int y = 0; y < config.ny; y++)
    for (int x = 0; x < config.nx; x++)
      for (int q = 0; q < Q; q++) f[idx(x, y, q)] = equilibrium(q, rho0[y * config.nx + x], 0.0, 0.0);
  for (int s = 0; s < config.steps; s++) {
    macroscopic(f, &m, gx);
    collide(f, &m, tau, gx);
    stream(f, g);
    double *t = f; f = g; g = t;
    if (config.log_every > 0 && (s + 1) % config.log_every == 0)
      logmsg("lbm step %d: centre ux %.6e rho %.6f\n", s + 1, m.ux[(config.ny / 2) * config.nx], m.rho[0]);
  }
  macroscopic(f, &m, gx);
  double flow = 0, mean = 0, var = 0;
  for (int y = 0; y < config.ny; y++) flow += m.ux[y * config.nx + config.nx - 1] * m.rho[y * config.nx + config.nx - 1];
  for (int c = 0; c < ncell; c++) mean += m.rho[c] / ncell;
  for (int c = 0; c < ncell; c++) var += (m.rho[c] - mean) * (m.rho[c] - mean);
  free(f); free(g); free(m.rho); free(m.ux); free(m.uy);
  return 100.0 * flow + 10.0 * var;
}

enum { NCELL = 70, NP = 4 };
static double rho0[NCELL];
static const int probes[NP] = {3, 24, 38, 66};
int main(void) {
  for (int c = 0; c < NCELL; c++) rho0[c] = 1.0 + 0.02 * sin(0.7 * c) * cos(0.3 * c);
  double tau = 0.8, gx = 1e-4, fd[NP + 2], ad[NP + 2];
  printf("flow objective %.12g\n", channel_flow(tau, gx, rho0));
  fd[0] = HUNT_FD(channel_flow(tau, gx, rho0), tau);
  fd[1] = HUNT_FD(channel_flow(tau, gx, rho0), gx);
  for (int k = 0; k < NP; k++) fd[k + 2] = HUNT_FD(channel_flow(tau, gx, rho0), rho0[probes[k]]);
#ifdef MODE_REV
  double drho0[NCELL] = {0};
  ad[0] = __enzyme_autodiff((void *)channel_flow, enzyme_out, tau, enzyme_const, gx, enzyme_dup, rho0, drho0);
  memset(drho0, 0, sizeof drho0);
  ad[1] = __enzyme_autodiff((void *)channel_flow, enzyme_const, tau, enzyme_out, gx, enzyme_dup, rho0, drho0);
  for (int k = 0; k < NP; k++) ad[k + 2] = drho0[probes[k]];
  hunt_check_vec("grad", ad, fd, NP + 2);
#endif
#ifdef MODE_FWD
  double drho0[NCELL] = {0};
  ad[0] = __enzyme_fwddiff((void *)channel_flow, enzyme_dup, tau, 1.0, enzyme_const, gx, enzyme_dup, rho0, drho0);
  ad[1] = __enzyme_fwddiff((void *)channel_flow, enzyme_const, tau, enzyme_dup, gx, 1.0, enzyme_dup, rho0, drho0);
  for (int k = 0; k < NP; k++) {
    drho0[probes[k]] = 1.0;
    ad[k + 2] = __enzyme_fwddiff((void *)channel_flow, enzyme_const, tau, enzyme_const, gx, enzyme_dup, rho0, drho0);
    drho0[probes[k]] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP + 2);
#endif
  return hunt_finish();
}

#include "hunt.h"
/* Explicit 2D heat equation, 5-point stencil, forward Euler, double buffering by pointer swap,
   Dirichlet boundary held at the initial values.  Objective: the field's energy at the end.
   Inputs: initial field u0 (dup) and diffusivity kappa (active). */
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);

#define IDX(i, j) ((j) * nx + (i))

static void heat_step(const double *restrict u, double *restrict un, int nx, int ny, double r) {
  for (int j = 1; j < ny - 1; ++j)
    for (int i = 1; i < nx - 1; ++i)
      un[IDX(i, j)] = u[IDX(i, j)] + r * (u[IDX(i + 1, j)] + u[IDX(i - 1, j)] + u[IDX(i, j + 1)] +
                                           u[IDX(i, j - 1)] - 4.0 * u[IDX(i, j)]);
}

double heat_energy(const double *u0, double kappa, int nx, int ny, int nsteps) {
  size_t n = (size_t)nx * ny;
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  memcpy(a, u0, n * sizeof *a);
  memcpy(b, u0, n * sizeof *b); /* boundary rows/columns of b never change */
  double dx = 1.0 / (nx - 1), dt = 0.2 * dx * dx;
  double r = kappa * dt / (dx * dx);
  for (int s = 0; s < nsteps; ++s) {
    heat_step(a, b, nx, ny, r);
    double *t = a; a = b; b = t;
  }
  double e = 0;
  for (size_t k = 0; k < n; ++k) e += a[k] * a[k];
  free(a);
  free(b);
  return 0.5 * e * dx * dx;
}

enum { NX = 12, NY = 10, NSTEPS = 25, NP = 6 };
static double u0[NX * NY], kappa = 0.9;
static const int probes[NP] = {0, 13, 27, 58, 101, 66}; /* a boundary point and interior points */

int main(void) {
  for (int j = 0; j < NY; j++)
    for (int i = 0; i < NX; i++) u0[j * NX + i] = sin(0.3 * i + 0.1) * cos(0.4 * j) + 0.01 * i * j;
  double fd[NP + 1], ad[NP + 1];
  for (int k = 0; k < NP; k++) fd[k] = HUNT_FD(heat_energy(u0, kappa, NX, NY, NSTEPS), u0[probes[k]]);
  fd[NP] = HUNT_FD(heat_energy(u0, kappa, NX, NY, NSTEPS), kappa);
#ifdef MODE_REV
  double du0[NX * NY] = {0};
  ad[NP] = __enzyme_autodiff((void *)heat_energy, enzyme_dup, u0, du0, kappa, enzyme_const, NX, enzyme_const, NY,
                             enzyme_const, NSTEPS);
  for (int k = 0; k < NP; k++) ad[k] = du0[probes[k]];
  hunt_check_vec("grad", ad, fd, NP + 1);
#endif
#ifdef MODE_FWD
  double du0[NX * NY] = {0};
  for (int k = 0; k < NP; k++) {
    du0[probes[k]] = 1.0;
    ad[k] = __enzyme_fwddiff((void *)heat_energy, enzyme_dup, u0, du0, kappa, 0.0, enzyme_const, NX, enzyme_const,
                             NY, enzyme_const, NSTEPS);
    du0[probes[k]] = 0.0;
  }
  ad[NP] = __enzyme_fwddiff((void *)heat_energy, enzyme_dup, u0, du0, kappa, 1.0, enzyme_const, NX, enzyme_const, NY,
                            enzyme_const, NSTEPS);
  hunt_check_vec("grad", ad, fd, NP + 1);
#endif
#ifdef MODE_BATCH
  double da[NX * NY] = {0}, db[NX * NY] = {0};
  for (int k = 0; k + 1 < NP; k += 2) {
    da[probes[k]] = 1.0; db[probes[k + 1]] = 1.0;
    v2 t = __enzyme_fwddiff_v2((void *)heat_energy, enzyme_width, 2, enzyme_dup, u0, da, db, kappa, 0.0, 0.0,
                               enzyme_const, NX, enzyme_const, NY, enzyme_const, NSTEPS);
    da[probes[k]] = 0.0; db[probes[k + 1]] = 0.0;
    ad[k] = t.d[0]; ad[k + 1] = t.d[1];
  }
  v2 t = __enzyme_fwddiff_v2((void *)heat_energy, enzyme_width, 2, enzyme_dup, u0, da, db, kappa, 1.0, 0.0,
                             enzyme_const, NX, enzyme_const, NY, enzyme_const, NSTEPS);
  ad[NP] = t.d[0];
  hunt_check_vec("grad", ad, fd, NP + 1);
  hunt_check("batch zero direction", t.d[1], 0.0);
#endif
#ifdef MODE_SPLIT
  double du0[NX * NY] = {0};
  aug_t r = __enzyme_augmentfwd((void *)heat_energy, enzyme_dup, u0, du0, kappa, enzyme_const, NX, enzyme_const, NY,
                                enzyme_const, NSTEPS);
  hunt_check("primal", r.primal, heat_energy(u0, kappa, NX, NY, NSTEPS));
  ad[NP] = __enzyme_reverse((void *)heat_energy, enzyme_dup, u0, du0, kappa, enzyme_const, NX, enzyme_const, NY,
                            enzyme_const, NSTEPS, 1.0, r.tape);
  for (int k = 0; k < NP; k++) ad[k] = du0[probes[k]];
  hunt_check_vec("grad", ad, fd, NP + 1);
#endif
  return hunt_finish();
}

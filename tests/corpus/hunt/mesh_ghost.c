#include "hunt.h"
/* Finite-volume advection-diffusion on a structured 2-D mesh stored as an array of struct Cell with neighbour
   indices.  The mesh has one ghost row above and below: each step the periodic ghost rows are filled by
   memcpy of a whole row of cells (n * sizeof(Cell)), fluxes are zeroed with memset before accumulation,
   and the work array comes from calloc.  Objective: sum of u^2 over the interior after a few steps.
   Inputs: the initial field (interior), the diffusion coefficient. */
typedef struct {
  int nbr[4]; /* west, east, south, north */
  double u, flux;
} Cell;

enum { NX = 6, NY = 5 };

static int idx(int i, int j) { return (j + 1) * NX + i; } /* j in -1..NY */

static void fill_ghosts(Cell *c) {
  memcpy(&c[idx(0, -1)], &c[idx(0, NY - 1)], NX * sizeof(Cell));
  memcpy(&c[idx(0, NY)], &c[idx(0, 0)], NX * sizeof(Cell));
}

double mesh_energy(const double *u0, double kappa, int steps) {
  int ncell = NX * (NY + 2);
  Cell *c = calloc(ncell, sizeof(Cell));
  for (int j = 0; j < NY; j++)
    for (int i = 0; i < NX; i++) {
      Cell *k = &c[idx(i, j)];
      k->u = u0[j * NX + i];
      k->nbr[0] = idx((i + NX - 1) % NX, j);
      k->nbr[1] = idx((i + 1) % NX, j);
      k->nbr[2] = idx(i, j - 1);
      k->nbr[3] = idx(i, j + 1);
    }
  const double dt = 0.1, vel = 0.5;
  for (int s = 0; s < steps; s++) {
    fill_ghosts(c);
    for (int n = 0; n < ncell; n++) c[n].flux = 0.0;
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < NX; i++) {
        Cell *k = &c[idx(i, j)];
        double lap = 0.0;
        for (int q = 0; q < 4; q++) lap += c[k->nbr[q]].u - k->u;
        double up = k->u - c[k->nbr[0]].u; /* upwind in x */
        k->flux = kappa * lap - vel * up;
      }
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < NX; i++) c[idx(i, j)].u += dt * c[idx(i, j)].flux;
  }
  Cell *interior = malloc(NX * NY * sizeof(Cell));
  memcpy(interior, &c[idx(0, 0)], NX * NY * sizeof(Cell));
  memset(c, 0, ncell * sizeof(Cell));
  free(c);
  double e = 0.0;
  for (int n = 0; n < NX * NY; n++) e += interior[n].u * interior[n].u;
  free(interior);
  return e;
}

enum { NU = NX * NY };
static double u0[NU], kappa = 0.2;

int main(void) {
  for (int n = 0; n < NU; n++) u0[n] = sin(0.7 * n) + 0.3 * cos(1.9 * n);
  double fd[NU + 1], ad[NU + 1];
  int steps = 4;
  for (int q = 0; q < NU; q++) fd[q] = HUNT_FD(mesh_energy(u0, kappa, steps), u0[q]);
  fd[NU] = HUNT_FD(mesh_energy(u0, kappa, steps), kappa);
  double du[NU] = {0};
#ifdef MODE_REV
  ad[NU] = __enzyme_autodiff((void *)mesh_energy, enzyme_dup, u0, du, enzyme_out, kappa, enzyme_const, steps);
  for (int q = 0; q < NU; q++) ad[q] = du[q];
  hunt_check_vec("grad", ad, fd, NU + 1);
#endif
#ifdef MODE_FWD
  for (int q = 0; q <= NU; q++) {
    if (q < NU) du[q] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)mesh_energy, enzyme_dup, u0, du, kappa, q == NU ? 1.0 : 0.0, enzyme_const, steps);
    if (q < NU) du[q] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NU + 1);
#endif
  return hunt_finish();
}

#include "hunt.h"
/* Classical XY model on an L x L torus (neighbours by modulo wrap): spin angles relaxed by a few
   sweeps of damped local gradient steps (Gauss-Seidel order, the force written out by hand), then the
   energy  E = -J sum cos(t_i - t_j) - h sum cos t_i + D sum sin^2 t_i  plus the squared magnetisation per
   site.  Inputs: coupling J, field h, anisotropy D, and the initial angles. */
enum { L = 6, N = L * L };

static double lattice_energy(const double *th, double J, double h, double D) {
  double e = 0.0;
  for (int i = 0; i < L; i++)
    for (int j = 0; j < L; j++) {
      int s = i * L + j;
      int right = i * L + (j + 1) % L;
      int down = ((i + 1) % L) * L + j;
      e -= J * (cos(th[s] - th[right]) + cos(th[s] - th[down]));
      e -= h * cos(th[s]);
      e += D * sin(th[s]) * sin(th[s]);
    }
  return e;
}

double xy_objective(const double *par, const double *th0, int sweeps) {
  double J = par[0], h = par[1], D = par[2];
  const double eta = 0.08;
  double th[N];
  memcpy(th, th0, sizeof th);
  for (int sw = 0; sw < sweeps; sw++) {
    for (int s = 0; s < N; s++) {
      int i = s / L, j = s % L;
      int nb[4] = {i * L + (j + 1) % L, i * L + (j + L - 1) % L, ((i + 1) % L) * L + j, ((i + L - 1) % L) * L + j};
      double force = -h * sin(th[s]) - D * sin(2.0 * th[s]);
      for (int k = 0; k < 4; k++) force -= J * sin(th[s] - th[nb[k]]);
      th[s] += eta * force;
    }
  }
  double mx = 0.0, my = 0.0;
  for (int s = 0; s < N; s++) {
    mx += cos(th[s]);
    my += sin(th[s]);
  }
  return lattice_energy(th, J, h, D) / N + (mx * mx + my * my) / ((double)N * N);
}

static double par[3] = {1.0, 0.35, 0.2};
static double th0[N];

int main(void) {
  for (int s = 0; s < N; s++) th0[s] = 0.9 * sin(1.7 * s) + 0.15 * (s % 5);
  const int sweeps = 5;
  double fdp[3], fdt[N];
  for (int q = 0; q < 3; q++) fdp[q] = HUNT_FD(xy_objective(par, th0, sweeps), par[q]);
  for (int s = 0; s < N; s++) fdt[s] = HUNT_FD(xy_objective(par, th0, sweeps), th0[s]);
#ifdef MODE_REV
  double dpar[3] = {0}, dth[N] = {0};
  __enzyme_autodiff((void *)xy_objective, enzyme_dup, par, dpar, enzyme_dup, th0, dth, enzyme_const, sweeps);
  hunt_check_vec("dpar", dpar, fdp, 3);
  hunt_check_vec("dth0", dth, fdt, N);
#endif
#ifdef MODE_FWD
  double adp[3], adt[4], fdt4[4], dpar[3] = {0}, dth[N] = {0};
  for (int q = 0; q < 3; q++) {
    dpar[q] = 1.0;
    adp[q] = __enzyme_fwddiff((void *)xy_objective, enzyme_dup, par, dpar, enzyme_dup, th0, dth, enzyme_const, sweeps);
    dpar[q] = 0.0;
  }
  for (int k = 0; k < 4; k++) {
    int s = 7 * k + 2;
    dth[s] = 1.0;
    adt[k] = __enzyme_fwddiff((void *)xy_objective, enzyme_dup, par, dpar, enzyme_dup, th0, dth, enzyme_const, sweeps);
    dth[s] = 0.0;
    fdt4[k] = fdt[s];
  }
  hunt_check_vec("dpar", adp, fdp, 3);
  hunt_check_vec("dth0_picked", adt, fdt4, 4);
#endif
  return hunt_finish();
}

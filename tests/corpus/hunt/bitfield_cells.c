#include "hunt.h"
/* Legacy-style 1-D heat conduction through a layered wall: each cell is a struct with bit-field flags
   (active, boundary kind, material id) packed next to the temperature and a cached conductivity, the
   material properties in a const table indexed by the bit field, a union giving the boundary value either
   as a fixed temperature or as a heat-transfer coefficient, explicit steps with flags tested in the loop.
   Objective: heat flux into the inner face integrated over time plus the final mean temperature.
   Inputs: outside temperature, convection coefficient, the conductivity scale of material 2. */
typedef struct {
  unsigned active : 1;
  unsigned bc : 2;       /* 0 interior, 1 fixed temperature, 2 convective */
  unsigned material : 3;
  double T;
  double k;
  union {
    double T_fixed;
    double h_conv;
  } bcval;
} Cell;

typedef struct { double k, rho_c; } Material;
static const Material materials[4] = {{0.8, 1.6}, {0.04, 0.05}, {1.4, 2.0}, {0.2, 0.9}};

double wall(const double *p, int nsteps) {
  enum { N = 24 };
  Cell c[N];
  memset(c, 0, sizeof c);
  for (int i = 0; i < N; i++) {
    c[i].active = 1;
    c[i].material = i < 6 ? 2 : i < 16 ? 1 : 0;
    c[i].T = 20.0;
    c[i].k = materials[c[i].material].k * (c[i].material == 2 ? p[2] : 1.0);
  }
  c[0].bc = 2;
  c[0].bcval.h_conv = p[1];
  c[N - 1].bc = 1;
  c[N - 1].bcval.T_fixed = 20.0;
  c[7].active = 0; /* a cell switched off: keeps its temperature */
  const double dx = 0.01, dt = 0.05;
  double flux_in = 0.0;
  double Tn[N];
  for (int n = 0; n < nsteps; n++) {
    for (int i = 0; i < N; i++) {
      if (!c[i].active) { Tn[i] = c[i].T; continue; }
      double rc = materials[c[i].material].rho_c * 1000.0;
      double q = 0.0;
      if (i > 0) q += 2.0 / (1.0 / c[i].k + 1.0 / c[i - 1].k) * (c[i - 1].T - c[i].T) / (dx * dx);
      if (i < N - 1) q += 2.0 / (1.0 / c[i].k + 1.0 / c[i + 1].k) * (c[i + 1].T - c[i].T) / (dx * dx);
      switch (c[i].bc) {
        case 2: q += c[i].bcval.h_conv * (p[0] - c[i].T) / dx; break;
        case 1: Tn[i] = c[i].bcval.T_fixed; continue;
        default: break;
      }
      Tn[i] = c[i].T + dt * 1e-3 * q / rc * 1000.0;
    }
    flux_in += dt * 2.0 / (1.0 / c[N - 2].k + 1.0 / c[N - 1].k) * (c[N - 2].T - c[N - 1].T) / dx;
    for (int i = 0; i < N; i++) c[i].T = Tn[i];
  }
  double mean = 0.0;
  for (int i = 0; i < N; i++) mean += c[i].T / N;
  return flux_in + mean;
}

static double p[3] = {-5.0, 12.0, 1.3};

int main(void) {
  const int nsteps = 40;
  double fd[3], ad[3], dp[3] = {0};
  for (int q = 0; q < 3; q++) fd[q] = HUNT_FD(wall(p, nsteps), p[q]);
#ifdef MODE_REV
  __enzyme_autodiff((void *)wall, enzyme_dup, p, dp, enzyme_const, nsteps);
  hunt_check_vec("grad", dp, fd, 3);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < 3; q++) {
    dp[q] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)wall, enzyme_dup, p, dp, enzyme_const, nsteps);
    dp[q] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, 3);
#endif
  (void)ad;
  return hunt_finish();
}

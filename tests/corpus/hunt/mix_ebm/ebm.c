/* Time stepping of the energy-balance model: forward Euler on the mixed-layer heat capacity, radiation
   from Rust, diffusion from Fortran; the objective is the misfit to an observed zonal-mean temperature
   profile plus a penalty on the ice-covered area. */
#include <stdlib.h>
#include <stddef.h>

typedef struct {
  double solar, a_olr, b_olr, alpha_ice, alpha_warm, t_ice;
} RadParams;

void meridional_diffusion(int n, double d, double *temp, double *tend);
double net_radiation(size_t n, const double *temp, const RadParams *par, double *net);

double ebm_objective(const double *p, const double *tobs, int n, int nsteps) {
  RadParams rp = {p[0], p[1], p[2], p[3], 0.3, -10.0};
  double diff = p[4], heatcap = p[5];
  double *t = malloc(n * sizeof(double)), *net = malloc(n * sizeof(double)), *tend = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) t[i] = 10.0;
  double ice = 0, dt = 0.005;
  for (int s = 0; s < nsteps; s++) {
    ice = net_radiation((size_t)n, t, &rp, net);
    meridional_diffusion(n, diff, t, tend);
    for (int i = 0; i < n; i++) t[i] += dt * (net[i] + tend[i]) / heatcap;
  }
  double obj = 0;
  for (int i = 0; i < n; i++) obj += (t[i] - tobs[i]) * (t[i] - tobs[i]);
  obj = obj / n + 10.0 * (ice - 0.1) * (ice - 0.1);
  free(t);
  free(net);
  free(tend);
  return obj;
}

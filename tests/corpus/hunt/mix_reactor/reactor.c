/* C part of the mixed-language reactor model: a non-isothermal batch reactor with a cooling jacket,
   integrated by Heun's method; rates come from Fortran (kinetics.f90), heat capacities from Rust
   (thermo.rs).  Objective: yield misfit of B at the sampling times and a peak-temperature penalty. */
#include <math.h>
#include <stddef.h>
#include <string.h>

void arrhenius_rates(double temp, const double *lnA, const double *ea, const double *conc, int nspec,
                     double *wdot);
double reaction_heat(double temp, const double *wdot, int nspec);
double mixture_cp(double t, const double *conc, size_t n);

#define NSPEC 4

typedef struct {
  double lnA[3], ea[3];
  double ua;       /* jacket heat-transfer coefficient times area per volume */
  double t_jacket;
  double solvent_cp; /* heat capacity of the solvent per volume, J/K */
} Reactor;

static void derivs(const Reactor *r, const double *y, double *dy) {
  const double *c = y;
  double temp = y[NSPEC];
  arrhenius_rates(temp, r->lnA, r->ea, c, NSPEC, dy);
  double total = 0;
  for (int i = 0; i < NSPEC; i++) total += c[i];
  double cp = mixture_cp(temp, c, NSPEC) * total + r->solvent_cp;
  dy[NSPEC] = (reaction_heat(temp, dy, NSPEC) - r->ua * (temp - r->t_jacket)) / cp;
}

double reactor_objective(const double *p, const double *samples, int nsamples, double dt_sample) {
  /* p = [lnA1, lnA2, lnA3, Ea1/1e4, Ea2/1e4, Ea3/1e4, UA, T0] */
  Reactor r;
  memcpy(r.lnA, p, sizeof r.lnA);
  for (int i = 0; i < 3; i++) r.ea[i] = 1e4 * p[3 + i];
  r.ua = p[6];
  r.t_jacket = 300.0;
  r.solvent_cp = 4000.0;
  double y[NSPEC + 1] = {2.0, 0.0, 0.0, 0.0, p[7]}, k1[NSPEC + 1], k2[NSPEC + 1], yp[NSPEC + 1];
  const int sub = 40;
  double h = dt_sample / sub, obj = 0, tpeak = y[NSPEC];
  for (int s = 0; s < nsamples; s++) {
    for (int k = 0; k < sub; k++) {
      derivs(&r, y, k1);
      for (int i = 0; i <= NSPEC; i++) yp[i] = y[i] + h * k1[i];
      derivs(&r, yp, k2);
      for (int i = 0; i <= NSPEC; i++) y[i] += 0.5 * h * (k1[i] + k2[i]);
      tpeak = fmax(tpeak, y[NSPEC]);
    }
    obj += pow(y[1] - samples[s], 2);
  }
  return obj + 1e-6 * pow(tpeak - 300.0, 2);
}

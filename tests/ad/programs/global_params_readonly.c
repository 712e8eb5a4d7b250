#include "check.h"
/* A reaction-kinetics model whose rate constants, temperature and stoichiometry live in mutable globals, set
   by the input stage in main and only read by the model (they stay inactive: no shadow, no zeroing), next to a
   monitoring counter and a cache of the last rate (written with an active value, so that one does get a
   shadow).  The derivative of the simulated product yield with respect to the initial concentrations is
   checked against central differences in reverse and forward mode, before and after the parameters change. */
#define NSPEC 3
double k_forward = 0.8, k_backward = 0.3;
double activation_energy = 5.0e3, temperature = 300.0;
double stoich[NSPEC] = {-1.0, -1.0, 1.0};
static const double gas_constant = 8.314;
long rate_evaluations;
double last_rate;

static double rate(const double *c) {
  rate_evaluations++;
  double arrhenius = exp(-activation_energy / (gas_constant * temperature));
  double r = arrhenius * (k_forward * c[0] * c[1] - k_backward * c[2]);
  last_rate = r;
  return r;
}

double yield(const double *c0) {
  double c[NSPEC];
  for (int s = 0; s < NSPEC; s++) c[s] = c0[s];
  for (int n = 0; n < 40; n++) {
    double r = rate(c);
    for (int s = 0; s < NSPEC; s++) c[s] += 0.05 * stoich[s] * r;
  }
  return c[2] / (c0[0] + 1e-3);
}

static void read_input(double t, double kf) { temperature = t; k_forward = kf; }

static void check_gradient(const char *label) {
  double c0[NSPEC] = {1.0, 0.7, 0.05}, cc[NSPEC], fd[NSPEC], g[NSPEC] = {0};
  for (int s = 0; s < NSPEC; s++) cc[s] = c0[s];
  for (int s = 0; s < NSPEC; s++) fd[s] = CENTRAL(yield(cc), cc[s], c0[s]);
  __enzyme_autodiff((void *)yield, enzyme_dup, c0, g);
  for (int s = 0; s < NSPEC; s++) {
    printf("%s ", label);
    check("reverse", g[s], fd[s], 1e-6);
    double dir[NSPEC] = {0};
    dir[s] = 1;
    check("forward", __enzyme_fwddiff((void *)yield, c0, dir), fd[s], 1e-6);
  }
}

int main(void) {
  read_input(300.0, 0.8);
  check_gradient("T=300");
  read_input(900.0, 2.5);
  check_gradient("T=900");
  check("the parameters are as set", temperature + k_forward, 902.5, 0.0);
  check("rates were counted", rate_evaluations > 0 ? 1.0 : 0.0, 1.0, 0.0);
  return finish();
}

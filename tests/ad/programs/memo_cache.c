/* Property routines that memoise their last call in static variables, called by the differentiated code
   right after a primal call at the same point (the cache is warm): a hit returns a value set before the
   derivative call, whose derivative would be lost.  Derivatives must take the computing path; primal calls
   keep their cache.  One cache is keyed on one argument, one on two (`t == last_t && p == last_p`), one
   tests with `!=`. */
#include "check.h"

static int hits = 0;

static double viscosity(double t) {
  static double last_t = NAN, last_mu;
  if (t == last_t) { hits++; return last_mu; }
  last_t = t;
  last_mu = 1e-3 * exp(1.8 - 0.03 * t);
  return last_mu;
}

typedef struct { double t, p, rho, cp; } state_cache;
static state_cache gas_cache = {NAN, NAN, 0, 0};

static double density(double t, double p) {
  if (t == gas_cache.t && p == gas_cache.p) { hits++; return gas_cache.rho; }
  gas_cache.t = t;
  gas_cache.p = p;
  gas_cache.rho = p / (287.0 * (t + 273.15));
  gas_cache.cp = 1005.0 + 0.1 * t;
  return gas_cache.rho;
}

static double conductivity(double t) {
  static double key = NAN, value;
  if (t != key) {
    key = t;
    value = 0.6 + 1e-3 * t * t;
  } else {
    hits++;
  }
  return value;
}

double objective(double t, double p) {
  double s = 0;
  for (int i = 0; i < 3; i++) s += viscosity(t) * density(t, p) + conductivity(t);
  return s + density(t, p) * conductivity(t);
}

static double exact_dt(double t, double p) {
  double mu = 1e-3 * exp(1.8 - 0.03 * t), dmu = -0.03 * mu;
  double rho = p / (287.0 * (t + 273.15)), drho = -rho / (t + 273.15);
  double k = 0.6 + 1e-3 * t * t, dk = 2e-3 * t;
  return 3 * (dmu * rho + mu * drho + dk) + drho * k + rho * dk;
}

int main(void) {
  double t = 25.0, p = 101325.0;
  objective(t, p); /* warm every cache at (t, p) */
  int before = hits;
  objective(t, p);
  if (hits == before) { printf("MISMATCH primal calls do not hit the cache\n"); failures++; }
  objective(t, p);
  before = hits;
  double dt = __enzyme_autodiff((void *)objective, t, enzyme_const, p);
  check("reverse d/dt (warm caches)", dt, exact_dt(t, p), 1e-10);
  objective(t, p);
  check("forward d/dt (warm caches)", __enzyme_fwddiff((void *)objective, t, 1.0, enzyme_const, p), exact_dt(t, p), 1e-10);
  objective(t, p);
  double dp = __enzyme_fwddiff((void *)objective, enzyme_const, t, p, 1.0);
  double rho = p / (287.0 * (t + 273.15)), k = 0.6 + 1e-3 * t * t;
  check("forward d/dp (warm caches)", dp, (3 * 1e-3 * exp(1.8 - 0.03 * t) + k) * rho / p, 1e-10);
  check("central d/dt", CENTRAL(objective(t, p), t, t), exact_dt(t, p), 1e-6);
  return finish();
}

/* Property routines that memoise their last call in static variables, called by the differentiated code
   right after a primal call at the same point (the cache is warm): a hit returns a value set before the
   derivative call, whose derivative would be lost.  Derivatives must take the computing path; primal calls
   keep their cache.  One cache is keyed on one argument, one on two (`t == last_t && p == last_p`), one
   tests with `!=`, one keeps the last four keys in a static array searched by a loop. */
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

static double keys[4] = {NAN, NAN, NAN, NAN}, values[4];
static int next_slot = 0;
static double enthalpy(double t) {
  for (int i = 0; i < 4; i++)
    if (keys[i] == t) { hits++; return values[i]; }
  double h = 4.18 * t + 1e-4 * t * t * t;
  keys[next_slot] = t;
  values[next_slot] = h;
  next_slot = (next_slot + 1) % 4;
  return h;
}

double objective(double t, double p) {
  double s = 0;
  for (int i = 0; i < 3; i++) s += viscosity(t) * density(t, p) + conductivity(t) + 0.01 * enthalpy(t);
  return s + density(t, p) * conductivity(t) + 0.01 * enthalpy(t + 1.0);
}

static double exact_dt(double t, double p) {
  double mu = 1e-3 * exp(1.8 - 0.03 * t), dmu = -0.03 * mu;
  double rho = p / (287.0 * (t + 273.15)), drho = -rho / (t + 273.15);
  double k = 0.6 + 1e-3 * t * t, dk = 2e-3 * t;
  double dh = 4.18 + 3e-4 * t * t, dh1 = 4.18 + 3e-4 * (t + 1) * (t + 1);
  return 3 * (dmu * rho + mu * drho + dk + 0.01 * dh) + drho * k + rho * dk + 0.01 * dh1;
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

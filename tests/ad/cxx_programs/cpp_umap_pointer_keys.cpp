#include "check.h"
#include <unordered_map>
/* Named parameters in a std::unordered_map keyed by const char* (the key's address is its hash code,
   std::hash<const char*>): the mapped values carry derivatives, the keys are string literals. */
using Params = std::unordered_map<const char *, double>;

static double model(Params &p, double t) { return p["alpha"] * t * t + p["beta"] * t + p["gamma"] * p["alpha"]; }

double loss(const double *theta, int n) {
  Params p;
  p["alpha"] = theta[0];
  p["beta"] = theta[1];
  p["gamma"] = theta[2];
  p["beta"] *= p["gamma"];  // a value read and written through the map
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double r = model(p, 0.1 * i) - 0.5 * i;
    s += r * r;
  }
  return s;
}

int main() {
  double th[3] = {0.7, -1.2, 0.4}, dth[3] = {0, 0, 0};
  const int n = 6;
  __enzyme_autodiff((void *)loss, enzyme_dup, th, dth, enzyme_const, n);
  for (int i = 0; i < 3; ++i) {
    double t[3] = {0, 0, 0};
    t[i] = 1;
    check("forward", __enzyme_fwddiff((void *)loss, enzyme_dup, th, t, enzyme_const, n), dth[i], 1e-10);
    double q[3] = {0.7, -1.2, 0.4};
    check("central", CENTRAL(loss(q, n), q[i], th[i]), dth[i], 1e-6);
  }
  return finish();
}

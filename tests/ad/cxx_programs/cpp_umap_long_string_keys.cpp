#include "check.h"
#include <string>
#include <unordered_map>
/* Named parameters in a std::unordered_map<std::string, double> filled inside the derivative with keys longer
   than 15 characters (libstdc++ keeps those on the heap, allocated by a function without a body here) and keys
   built at run time (std::to_string).  Reverse against forward mode and central differences. */
using Params = std::unordered_map<std::string, double>;

double loss(const double *th, int n) {
  Params p;
  p["reaction_rate_constant_forward"] = th[0];
  p["equilibrium_constant"] = th[1];
  for (int i = 0; i < n; ++i) p["temperature_coefficient_" + std::to_string(i)] = th[2] * (i + 1);
  p["reaction_rate_constant_forward"] *= p["equilibrium_constant"];
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double c = p["temperature_coefficient_" + std::to_string(i)];
    s += c * c * p["reaction_rate_constant_forward"] + std::sin(p["equilibrium_constant"] * c);
  }
  return s;
}

int main() {
  double th[3] = {0.7, -1.2, 0.4}, dth[3] = {0, 0, 0};
  const int n = 3;
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

#include "check.h"
#include <cmath>
/* Enzyme's attributes in C++ spellings: [[enzyme::inactive]] on a member and a static member function,
   [[enzyme::function_like("tanh")]] on a template (every instantiation), [[enzyme::shadow]] on a global in a
   namespace.  Checked against the analytic derivative, in reverse and forward mode (float instantiations to
   float precision). */
extern "C" int enzyme_nofree, enzyme_allocated;   // upstream marker names: still plain variables

namespace solver {
double d_weights[2];
[[enzyme::shadow(d_weights)]] double weights[2] = {0.75, 1.5};

// A Pade approximation of tanh, differentiated as tanh (its own derivative is off by several percent).
template <class T> [[enzyme::function_like("tanh")]] T soft_clip(T x) {
  return x * (27 + x * x) / (27 + 9 * x * x);
}

struct Stats {
  int evaluations = 0;
  double last = 0;
  [[enzyme::inactive]] void record(double value) { evaluations++; last = value; }
  [[enzyme::inactive]] static double tolerance(double scale) { return 1e-3 * scale; }
};

double objective(double x, Stats &stats) {
  double y = weights[0] * soft_clip(x) + weights[1] * soft_clip(0.5f * (float)x) * x;
  stats.record(y);
  return y + Stats::tolerance(x);
}
}  // namespace solver

int main() {
  using namespace solver;
  double x = 1.2;
  Stats stats, dstats;
  // Values from soft_clip itself, derivatives from tanh's rule: d tanh(u) = du / cosh(u)^2.
  float u = 0.5f * (float)x;
  double s1 = soft_clip(x), s2 = soft_clip(u);
  double c1 = std::cosh(x), c2 = std::cosh(u);
  double dydx = weights[0] / (c1 * c1) + weights[1] * (0.5 * x / (c2 * c2) + s2);
  double dw[2] = {s1, s2 * x};
  double den = 27 + 9 * x * x, own = ((27 + 3 * x * x) * den - 18 * x * x * (27 + x * x)) / (den * den);
  check("Pade derivative differs from tanh's", std::fabs(own - 1 / (c1 * c1)) > 1e-3, 1, 0);

  d_weights[0] = d_weights[1] = 0;
  double g = __enzyme_autodiff((void *)objective, x, enzyme_dup, &stats, &dstats);
  check("dx reverse", g, dydx, 2e-7);
  check("dw0 reverse", d_weights[0], dw[0], 1e-12);
  check("dw1 reverse", d_weights[1], dw[1], 2e-7);
  check("record ran", stats.evaluations, 1, 0);

  d_weights[0] = d_weights[1] = 0;
  check("dx forward", __enzyme_fwddiff((void *)objective, x, 1.0, enzyme_dup, &stats, &dstats), dydx, 2e-7);
  d_weights[0] = 1;
  check("dw0 forward", __enzyme_fwddiff((void *)objective, x, 0.0, enzyme_dup, &stats, &dstats), dw[0], 1e-12);
  d_weights[0] = 0;
  return finish();
}

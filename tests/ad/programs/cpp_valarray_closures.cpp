// std::valarray expression templates at -O0 (issue 11): each closure copies its operands' closures by value
// (libstdc++'s _BinBase/_BinBase1 constructors memcpy them), so a closure holds doubles (scalar constants) beside
// pointers to valarrays.  Copies of a closure's first field, of a field after `this` passed down from a derived
// constructor, and of a constant-times-closure whose constructor stores only a double must all keep the
// pointers' shadows.  Checked against central differences, reverse and forward.
#include "check.h"
#include <valarray>
using va = std::valarray<double>;

extern "C" double step(const double *u0, int n, double feed) {
  va u(u0, n), v(u0, n);
  const double du = 0.16, dt = 0.5;
  for (int s = 0; s < 2; s++) {
    va lu = u.cshift(1) + u.cshift(-1) - 2.0 * u;
    va uvv = u * v * v;
    u += dt * (du * lu - uvv + feed * (1.0 - u));
  }
  return (u * u).sum();
}

int main() {
  double p[4] = {0.3, 0.7, 0.2, 0.9}, dp[4] = {0, 0, 0, 0};
  double feed = 0.04;
  double g = __enzyme_autodiff((void *)step, enzyme_dup, p, dp, enzyme_const, 4, feed);
  check("reverse d/dfeed", g, CENTRAL(step(p, 4, feed), feed, feed), 1e-6);
  for (int q = 0; q < 4; q++) {
    double fd = CENTRAL(step(p, 4, feed), p[q], p[q]);
    check("reverse d/du0", dp[q], fd, 1e-6);
    double t[4] = {0, 0, 0, 0};
    t[q] = 1.0;
    double fwd = __enzyme_fwddiff((void *)step, enzyme_dup, p, t, enzyme_const, 4, feed, 0.0);
    check("forward d/du0", fwd, dp[q], 1e-10);
  }
  check("forward d/dfeed", __enzyme_fwddiff((void *)step, enzyme_const, p, enzyme_const, 4, feed, 1.0), g, 1e-10);
  return finish();
}

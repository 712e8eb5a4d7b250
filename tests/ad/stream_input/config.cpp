// A material law whose coefficients come from a configuration text parsed inside the differentiated
// function with a std::stringstream (a text long enough to live on the heap): operator>> into a double
// and a float.  The parsed numbers are constants to the derivative, and `k` -- a copy of x, then
// overwritten by the parse -- must lose the derivative it had.  Checked in both modes against the
// analytic derivative and central differences.
#include <sstream>
#include <string>
#include "check.h"

static double energy(double x) {
  std::stringstream config("stiffness 4.5 damping 0.75 (units: SI, from the lab sheet)");
  double k = x;  // overwritten below
  float c = 0;
  config.ignore(64, ' ');  // "stiffness "
  config >> k;
  config.ignore(64, 'g');  // " damping"
  config >> c;
  return 0.5 * k * x * x + (double)c * x;
}

int main() {
  double x = 1.3;
  double g = __enzyme_autodiff((void *)energy, x);
  double t = __enzyme_fwddiff((void *)energy, x, 1.0);
  check("value", energy(x), 0.5 * 4.5 * x * x + 0.75 * x, 1e-12);
  check("reverse", g, 4.5 * x + 0.75, 1e-12);
  check("forward", t, 4.5 * x + 0.75, 1e-12);
  check("central", g, CENTRAL(energy(x), x, x), 1e-6);
  return finish();
}

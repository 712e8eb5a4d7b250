// Printing inside the differentiated function, inlined: `std::cout << 'c' << std::endl` becomes, at -O1 and
// above, a phi of the stream references that the inlined character insertions return (inactive library
// calls), a load of the stream's ctype facet through it, and an indirect call of ctype::do_widen.  The
// phi merges only pointers without a shadow, so it gets none and the indirect call stays inactive; a
// stream chosen at run time (a select of std::cout and std::cerr) is the same.  Both modes must give the
// plain derivative, checked against the analytic formula and central differences.
#include <cmath>
#include <iostream>
#include "check.h"

static int verbose = 1;

static double energy(double x) {
  std::cout << "x=" << 7 << '7' << std::endl;
  std::ostream &log = verbose > 1 ? std::cerr : std::cout;
  log << "e" << '=' << std::flush;
  double e = x * x * std::sin(x);
  log << e << '\n' << std::endl;
  return e + 3 * x;
}

static double d_energy(double x) { return 2 * x * std::sin(x) + x * x * std::cos(x) + 3; }

int main() {
  double x = 1.3;
  double g = __enzyme_autodiff((void *)energy, x);
  check("reverse", g, d_energy(x), 1e-12);
  check("reverse central", g, CENTRAL(energy(x), x, x), 1e-6);
  double t = __enzyme_fwddiff((void *)energy, x, 1.0);
  check("forward", t, d_energy(x), 1e-12);
  check("forward = reverse", t, g, 1e-12);
  return finish();
}

#include "check.h"
#include <vector>
/* With a std::vector alive in main, clang reaches __enzyme_autodiff through `invoke`. */
extern "C" double sq(const double *x, int n) { double s = 0; for (int i = 0; i < n; ++i) s += x[i] * x[i] * x[i]; return s; }

int main() {
  std::vector<double> x{1.0, 2.0}, dx(2, 0.0);
  __enzyme_autodiff((void *)sq, enzyme_dup, x.data(), dx.data(), enzyme_const, 2);
  check("invoke request d0", dx[0], 3.0, 1e-12);
  check("invoke request d1", dx[1], 12.0, 1e-12);
  return finish();
}

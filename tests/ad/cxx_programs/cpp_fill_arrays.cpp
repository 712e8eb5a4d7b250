#include "check.h"
#include <algorithm>
#include <array>
#include <vector>
/* Cell states kept as std::vector<std::array<double, 3>> (density, momentum, energy), reset with std::fill
   to a free-stream state that depends on the parameters; at -O0 libstdc++'s __fill_a1 assigns each element
   with a 24-byte memcpy (no TBAA).  Here the cells' later accesses type those bytes; where nothing does
   (tests/corpus/hunt/cpp_euler_stl.cpp at -O0), the layout comes from __fill_a1's template argument
   std::array<double, 3> (copy_records.template_element).  Objective: the cells relaxed, summed. */
using State = std::array<double, 3>;

double objective(const double *p, int n) {
  std::vector<State> cells(n);
  const State inflow = {p[0], p[0] * p[1], 0.5 * p[0] * p[1] * p[1] + p[2]};
  std::fill(cells.begin(), cells.end(), inflow);
  double total = 0;
  for (int i = 0; i < n; ++i) {
    double w = 1.0 + 0.1 * i;
    cells[i][1] += w * cells[i][0];
    total += cells[i][0] * cells[i][2] + cells[i][1] * cells[i][1] / (w * cells[i][0]);
  }
  return total;
}

int main() {
  double p[3] = {1.2, 0.3, 2.5}, dp[3] = {0, 0, 0};
  const int n = 6;
  __enzyme_autodiff((void *)objective, enzyme_dup, p, dp, enzyme_const, n);
  for (int i = 0; i < 3; ++i) {
    double t[3] = {0, 0, 0};
    t[i] = 1;
    check("forward", __enzyme_fwddiff((void *)objective, enzyme_dup, p, t, enzyme_const, n), dp[i], 1e-10);
    double q[3] = {1.2, 0.3, 2.5};
    check("central", CENTRAL(objective(q, n), q[i], p[i]), dp[i], 1e-6);
  }
  return finish();
}

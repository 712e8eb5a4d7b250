#include "check.h"
// std::sort of a std::vector<unsigned long> of indices (a permutation by hash key) at -O0: its insertion sort and
// std::swap move the indices as i64 loads and stores through the iterator's operator*; the templates name the
// element type (integers), so the moves carry no derivatives.  The indices then pick the active inputs.
#include <algorithm>
#include <cmath>
#include <vector>

extern "C" double weighted(const double *p) {
  std::vector<unsigned long> order(24);
  for (unsigned long i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [](unsigned long a, unsigned long b) {
    unsigned long ka = (a * 7919) % 13, kb = (b * 7919) % 13;
    return ka < kb || (ka == kb && a < b);
  });
  double s = 0.0;
  for (unsigned long k = 0; k < order.size(); ++k) s += std::sin(p[order[k] % 4] * (double)(k + 1) * 0.1);
  return s * p[0];
}

int main() {
  enum { NP = 4 };
  double p[NP] = {0.8, -0.3, 1.4, 0.6}, dp[NP] = {0};
  __enzyme_autodiff((void *)weighted, p, dp);
  for (int k = 0; k < NP; ++k) {
    check("sorted indices reverse vs central", dp[k], CENTRAL(weighted(p), p[k], p[k]), 1e-6);
    double t[NP] = {0};
    t[k] = 1.0;
    check("sorted indices forward vs reverse", __enzyme_fwddiff((void *)weighted, p, t), dp[k], 1e-10);
  }
  return finish();
}

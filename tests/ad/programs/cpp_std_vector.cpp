#include "check.h"
#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <vector>
/* std::vector with exceptions enabled: push_back, copies, std::reverse and std::accumulate are invoked
   (with landing pads for the vector destructors) at -O0; derivatives follow the normal path only. */
double f(const double *x, int n) {
  std::vector<double> v;
  for (int i = 0; i < n; i++) v.push_back(x[i] * x[i]);
  std::vector<double> w(v.begin(), v.end());
  std::reverse(w.begin(), w.end());
  double s = 0;
  for (size_t i = 0; i < w.size(); i++) s += w[i] * (double)(i + 1);
  if (s < 0) throw std::runtime_error("negative");
  return s + std::accumulate(v.begin(), v.end(), 0.0);
}

int main() {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0, 0, 0, 0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 4);
  for (int i = 0; i < 4; i++) check("reverse", dx[i], 2 * x[i] * ((4 - i) + 1), 1e-12);
  for (int i = 0; i < 4; i++) {
    double t[4] = {0, 0, 0, 0};
    t[i] = 1;
    check("forward", __enzyme_fwddiff((void *)f, enzyme_dup, x, t, enzyme_const, 4), dx[i], 1e-12);
    double y[4] = {1, 2, 3, 4};
    check("central", CENTRAL(f(y, 4), y[i], x[i]), dx[i], 1e-6);
  }
  return finish();
}

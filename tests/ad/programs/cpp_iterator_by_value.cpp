#include "check.h"
// std::upper_bound / std::lower_bound over a std::vector<double> grid member whose contents are active, searched
// for an active value: at -O0 the __normal_iterator<double *> objects are copied between stack temporaries as
// one i64 each (the word is the iterator's pointer field by the declaration, so its shadow moves with it).
#include <algorithm>
#include <cmath>
#include <vector>

struct Grid {  // nodes in log-space and their exponentials, built in the constructor
  std::vector<double> x, s;
  double dx;
  Grid(double centre, double width, int n) : x(n), s(n) {
    dx = 2 * width / (n - 1);
    for (int i = 0; i < n; ++i) {
      x[i] = std::log(centre) - width + i * dx;
      s[i] = std::exp(x[i]);
    }
  }
};

class Interpolator {
 public:
  explicit Interpolator(int n) : n_(n) {}
  double operator()(const double *p, double at) const {
    Grid g(100.0, p[0], n_);
    std::vector<double> vals(n_);
    for (int i = 0; i < n_; ++i) vals[i] = std::max(g.s[i] - 100.0 * p[1], 0.0) + 0.1 * g.s[i];
    const double xs = std::log(at);
    auto it = std::upper_bound(g.x.begin(), g.x.end(), xs);
    int j = std::clamp(static_cast<int>(it - g.x.begin()) - 1, 0, n_ - 2);
    auto lo = std::lower_bound(g.x.begin(), g.x.end(), g.x[j]);
    double w = (xs - *lo) / g.dx;
    return (1 - w) * vals[j] + w * vals[j + 1];
  }

 private:
  int n_;
};

extern "C" double interp(const double *p, double x) { return Interpolator(41)(p, x); }

int main() {
  double p[2] = {0.9, 0.95}, dp[2] = {0}, x = 97.0;
  // x active too: the searches compare an active value, so they are differentiated (with their iterators)
  double dx = __enzyme_autodiff((void *)interp, p, dp, x);
  check("iterator by value reverse vs central (x)", dx, CENTRAL(interp(p, x), x, x), 1e-6);
  for (int k = 0; k < 2; ++k) {
    check("iterator by value reverse vs central", dp[k], CENTRAL(interp(p, x), p[k], p[k]), 1e-6);
    double t[2] = {0};
    t[k] = 1.0;
    check("iterator by value forward vs reverse", __enzyme_fwddiff((void *)interp, p, t, x, 0.0), dp[k], 1e-10);
  }
  double t0[2] = {0};
  check("iterator by value forward vs reverse (x)", __enzyme_fwddiff((void *)interp, p, t0, x, 1.0), dx, 1e-10);
  return finish();
}

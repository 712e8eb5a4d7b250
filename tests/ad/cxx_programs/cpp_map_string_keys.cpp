#include "check.h"
#include <map>
#include <string>
/* Named parameters in a std::map<std::string, double> filled from the active input vector: short keys (kept in
   the string's own buffer, moved into the tree node with a memcpy of characters) and long keys (a heap buffer
   from std::string's _M_create, which has no shadow), looked up with operator[] and at().  Analytic oracle. */
static const char *const NAMES[] = {"k", "decay_rate_of_the_fast_pool", "V", "recharge_exponent_beta"};

double model(const double *p, int n) {
  std::map<std::string, double> par;
  for (int i = 0; i < 4; ++i) par[NAMES[i]] = p[i];
  const double k = par["k"], slow = par.at("decay_rate_of_the_fast_pool"), V = par.at("V");
  const double beta = par["recharge_exponent_beta"];
  double s = 0;
  for (int i = 0; i < n; ++i) s += k * i / V + slow * slow * beta;
  return s;
}

int main() {
  double p[4] = {0.7, 1.3, 2.5, 0.4}, dp[4] = {0, 0, 0, 0};
  const int n = 5;
  __enzyme_autodiff((void *)model, enzyme_dup, p, dp, enzyme_const, n);
  const double sum_i = 10.0;  /* 0 + 1 + 2 + 3 + 4 */
  check("analytic k", dp[0], sum_i / p[2], 1e-12);
  check("analytic slow", dp[1], n * 2 * p[1] * p[3], 1e-12);
  check("analytic V", dp[2], -p[0] * sum_i / (p[2] * p[2]), 1e-12);
  check("analytic beta", dp[3], n * p[1] * p[1], 1e-12);
  for (int i = 0; i < 4; ++i) {
    double t[4] = {0, 0, 0, 0};
    t[i] = 1;
    check("forward", __enzyme_fwddiff((void *)model, enzyme_dup, p, t, enzyme_const, n), dp[i], 1e-10);
  }
  return finish();
}

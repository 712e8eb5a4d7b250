#include "check.h"
#include <cmath>
#include <stdexcept>
#include <string>
/* Input validation the way C++ libraries write it: a bad argument throws std::invalid_argument with a
   message built from std::to_string and string concatenation.  The code on the throwing paths cannot return,
   so it carries no derivative and runs as it is; the derivative follows the normal path (checked against
   central differences in both modes).  The throwing path itself is taken once, outside any derivative. */
static double checked_log(double x, int index) {
  if (!(x > 0.0))
    throw std::invalid_argument("checked_log: argument " + std::to_string(index) + " is " + std::to_string(x) +
                                ", not positive");
  return std::log(x);
}

double log_likelihood(const double *p, const double *data, int n) {
  if (n <= 0) throw std::invalid_argument("log_likelihood: n = " + std::to_string(n));
  double mu = p[0], sigma = p[1];
  if (sigma <= 0) throw std::domain_error("sigma must be positive, got " + std::to_string(sigma));
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double z = (data[i] - mu) / sigma;
    s += -0.5 * z * z - checked_log(sigma, i) + 0.1 * checked_log(data[i] * data[i] + mu * mu, i);
  }
  return s;
}

int main() {
  const int n = 5;
  double data[n] = {0.3, 1.2, -0.7, 2.1, 0.9};
  double p[2] = {0.4, 1.3}, dp[2] = {0, 0};
  __enzyme_autodiff((void *)log_likelihood, enzyme_dup, p, dp, enzyme_const, data, enzyme_const, n);
  for (int i = 0; i < 2; ++i) {
    double t[2] = {0, 0};
    t[i] = 1;
    check("forward", __enzyme_fwddiff((void *)log_likelihood, enzyme_dup, p, t, enzyme_const, data, enzyme_const, n),
          dp[i], 1e-12);
    double q[2] = {p[0], p[1]};
    check("central", CENTRAL(log_likelihood(q, data, n), q[i], p[i]), dp[i], 1e-6);
  }
  double bad[2] = {0.4, -1.0};
  bool thrown = false;
  try {
    log_likelihood(bad, data, n);
  } catch (const std::domain_error &e) {
    thrown = std::string(e.what()).find("sigma") != std::string::npos;
  }
  check("throws on bad sigma", thrown ? 1.0 : 0.0, 1.0, 0.0);
  return finish();
}

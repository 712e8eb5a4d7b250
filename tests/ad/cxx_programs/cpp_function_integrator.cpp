#include "check.h"
#include <functional>
#include <vector>
/* A damped oscillator integrated with Heun's method; the right-hand side is a std::function holding a
   lambda that captures the parameters by reference (the closure is copied into std::function's storage
   with an aggregate memcpy).  Objective: the energy-like sum over the trajectory. */
using Rhs = std::function<void(double, const double *, double *)>;

static void heun(const Rhs &f, double *y, double dt, int steps, std::vector<double> &trace) {
  double k1[2], k2[2], tmp[2];
  for (int s = 0; s < steps; ++s) {
    double t = s * dt;
    f(t, y, k1);
    for (int i = 0; i < 2; ++i) tmp[i] = y[i] + dt * k1[i];
    f(t + dt, tmp, k2);
    for (int i = 0; i < 2; ++i) y[i] += 0.5 * dt * (k1[i] + k2[i]);
    trace.push_back(y[0] * y[0] + 0.5 * y[1] * y[1]);
  }
}

double oscillator_cost(const double *params, int steps) {
  double stiffness = params[0], damping = params[1];
  Rhs rhs = [&stiffness, &damping](double t, const double *y, double *dy) {
    dy[0] = y[1];
    dy[1] = -stiffness * y[0] - damping * y[1] + 0.1 * std::cos(t);
  };
  double y[2] = {1.0, 0.0};
  std::vector<double> trace;
  heun(rhs, y, 0.05, steps, trace);
  double s = 0;
  for (double e : trace) s += e;
  return s / trace.size();
}

int main() {
  double p[2] = {2.0, 0.3}, dp[2] = {0, 0};
  const int steps = 40;
  __enzyme_autodiff((void *)oscillator_cost, enzyme_dup, p, dp, enzyme_const, steps);
  for (int i = 0; i < 2; ++i) {
    double t[2] = {0, 0};
    t[i] = 1;
    check("forward", __enzyme_fwddiff((void *)oscillator_cost, enzyme_dup, p, t, enzyme_const, steps), dp[i], 1e-10);
    double q[2] = {2.0, 0.3};
    check("central", CENTRAL(oscillator_cost(q, steps), q[i], p[i]), dp[i], 1e-6);
  }
  return finish();
}

#include "hunt.h"
#include <algorithm>
#include <array>
#include <numeric>
#include <vector>
/* 1-D compressible Euler (Sod-like smooth pulse) in modern C++: the state is a
   std::vector<std::array<double, 3>> of conserved variables, Rusanov fluxes, forward Euler steps.
   Written with range-for, std::transform with lambdas, std::accumulate for the total energy and
   std::inner_product for a weighted density functional.  Objective: the functional at the end. */
using State = std::array<double, 3>;
static const double GAMMA = 1.4;

static double pressure(const State &u) {
  return (GAMMA - 1.0) * (u[2] - 0.5 * u[1] * u[1] / u[0]);
}

static State physical_flux(const State &u) {
  double v = u[1] / u[0], p = pressure(u);
  return {u[1], u[1] * v + p, (u[2] + p) * v};
}

static double wave_speed(const State &u) { return std::fabs(u[1] / u[0]) + std::sqrt(GAMMA * pressure(u) / u[0]); }

static State rusanov(const State &l, const State &r) {
  State fl = physical_flux(l), fr = physical_flux(r), f;
  double a = std::max(wave_speed(l), wave_speed(r));
  for (int k = 0; k < 3; k++) f[k] = 0.5 * (fl[k] + fr[k]) - 0.5 * a * (r[k] - l[k]);
  return f;
}

extern "C" double euler_functional(const double *rho0, const double *weights, int n, int steps, double cfl) {
  std::vector<State> u(n);
  for (int i = 0; i < n; i++) {
    double p = 1.0 + 0.2 * rho0[i];
    u[i] = {rho0[i], 0.1 * rho0[i], p / (GAMMA - 1.0) + 0.5 * 0.01 * rho0[i]};
  }
  double dx = 1.0 / n;
  std::vector<State> flux(n + 1);
  for (int s = 0; s < steps; s++) {
    double smax = 0;
    for (const State &c : u) smax = std::max(smax, wave_speed(c));
    double dt = cfl * dx / smax;
    flux[0] = rusanov(u[0], u[0]);          /* transmissive ends */
    flux[n] = rusanov(u[n - 1], u[n - 1]);
    for (int i = 1; i < n; i++) flux[i] = rusanov(u[i - 1], u[i]);
    std::vector<State> next(n);
    std::transform(u.begin(), u.end(), flux.begin(), next.begin(), [&](const State &c, const State &fl) {
      const State &fr = *(&fl + 1);
      State out;
      for (int k = 0; k < 3; k++) out[k] = c[k] - dt / dx * (fr[k] - fl[k]);
      return out;
    });
    u.swap(next);
  }
  std::vector<double> rho(n);
  std::transform(u.begin(), u.end(), rho.begin(), [](const State &c) { return c[0]; });
  double energy = std::accumulate(u.begin(), u.end(), 0.0, [](double acc, const State &c) { return acc + c[2]; });
  double weighted = std::inner_product(rho.begin(), rho.end(), weights, 0.0);
  return weighted * dx + 0.1 * energy * dx;
}

enum { N = 48, STEPS = 30, NP = 5 };
static double rho0[N], w[N];
static const int probes[NP] = {8, 17, 24, 30, 36}; /* away from the ends: kinks of the max wave speed lie within 1e-5 there */

int main(void) {
  for (int i = 0; i < N; i++) {
    double x = (i + 0.5) / N;
    rho0[i] = 1.0 + 0.3 * std::exp(-60 * (x - 0.5) * (x - 0.5));
    w[i] = std::sin(M_PI * x) + 0.2;
  }
  hunt_fd_step = 1e-6; /* the max wave speeds (time step, Rusanov dissipation) have kinks nearby */
  double cfl = 0.5;
  double fd[NP + 1], ad[NP + 1];
  for (int k = 0; k < NP; k++) fd[k] = HUNT_FD(euler_functional(rho0, w, N, STEPS, cfl), rho0[probes[k]]);
  fd[NP] = HUNT_FD(euler_functional(rho0, w, N, STEPS, cfl), cfl);
#ifdef MODE_REV
  double d[N] = {0};
  ad[NP] = __enzyme_autodiff((void *)euler_functional, enzyme_dup, rho0, d, enzyme_const, w, enzyme_const, N,
                             enzyme_const, STEPS, cfl);
  for (int k = 0; k < NP; k++) ad[k] = d[probes[k]];
#endif
#ifdef MODE_FWD
  for (int k = 0; k <= NP; k++) {
    double d[N] = {0};
    if (k < NP) d[probes[k]] = 1;
    ad[k] = __enzyme_fwddiff((void *)euler_functional, enzyme_dup, rho0, d, enzyme_const, w, enzyme_const, N,
                             enzyme_const, STEPS, cfl, k == NP ? 1.0 : 0.0);
  }
#endif
  hunt_check_vec("grad", ad, fd, NP + 1);
  return hunt_finish();
}

#include "hunt.h"
/* C++17 generic ODE integration: std::array state, a function template taking any callable (a
   lambda capturing parameters by reference), a std::function-based variant, and a
   structured-binding return of (final state, arc length).  Lorenz system with RK4.
   Inputs: sigma, rho, beta and the initial state. */
#include <array>
#include <cmath>
#include <functional>
#include <tuple>

extern "C" {
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);
}

using State = std::array<double, 3>;

template <class F>
State rk4_step(F &&f, const State &y, double h) {
  auto axpy = [](const State &a, double s, const State &b) {
    State r;
    for (std::size_t i = 0; i < r.size(); ++i) r[i] = a[i] + s * b[i];
    return r;
  };
  State k1 = f(y), k2 = f(axpy(y, h / 2, k1)), k3 = f(axpy(y, h / 2, k2)), k4 = f(axpy(y, h, k3));
  State out;
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = y[i] + h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  return out;
}

template <class F>
std::tuple<State, double> integrate(F &&f, State y, double h, int n) {
  double arc = 0.0;
  for (int s = 0; s < n; ++s) {
    State next = rk4_step(f, y, h);
    double d2 = 0;
    for (std::size_t i = 0; i < 3; ++i) d2 += (next[i] - y[i]) * (next[i] - y[i]);
    arc += std::sqrt(d2);
    y = next;
  }
  return {y, arc};
}

extern "C" double lorenz_objective(const double *p, const double *y0, double h, int n, int use_std_function) {
  const double &sigma = p[0], &rho = p[1], &beta = p[2];
  auto lorenz = [&](const State &y) -> State {
    return {sigma * (y[1] - y[0]), y[0] * (rho - y[2]) - y[1], y[0] * y[1] - beta * y[2]};
  };
  State start{y0[0], y0[1], y0[2]};
  State end;
  double arc;
  if (use_std_function) {
    std::function<State(const State &)> f = lorenz;
    std::tie(end, arc) = integrate(f, start, h, n);
  } else {
    auto [e, a] = integrate(lorenz, start, h, n);
    end = e;
    arc = a;
  }
  return end[0] + 0.5 * end[2] + 0.01 * arc;
}

int main() {
  double p[3] = {10.0, 28.0, 8.0 / 3.0}, y0[3] = {1.0, 1.0, 1.0}, h = 0.005;
  int n = 120;
  enum { NP = 6 };
  double *prim[NP] = {&p[0], &p[1], &p[2], &y0[0], &y0[1], &y0[2]};
  for (int variant = 0; variant < 2; ++variant) {
    const char *name = variant ? "grad_stdfunction" : "grad_lambda";
    double fd[NP], ad[NP];
    for (int q = 0; q < NP; q++) fd[q] = HUNT_FD(lorenz_objective(p, y0, h, n, variant), *prim[q]);
    double dp[3] = {0}, dy0[3] = {0};
    double *shad[NP] = {&dp[0], &dp[1], &dp[2], &dy0[0], &dy0[1], &dy0[2]};
#ifdef MODE_REV
    __enzyme_autodiff((void *)lorenz_objective, enzyme_dup, p, dp, enzyme_dup, y0, dy0, enzyme_const, h, enzyme_const, n,
                      enzyme_const, variant);
    for (int q = 0; q < NP; q++) ad[q] = *shad[q];
    hunt_check_vec(name, ad, fd, NP);
#endif
#ifdef MODE_FWD
    for (int q = 0; q < NP; q++) {
      *shad[q] = 1.0;
      ad[q] = __enzyme_fwddiff((void *)lorenz_objective, enzyme_dup, p, dp, enzyme_dup, y0, dy0, enzyme_const, h,
                               enzyme_const, n, enzyme_const, variant);
      *shad[q] = 0.0;
    }
    hunt_check_vec(name, ad, fd, NP);
#endif
#ifdef MODE_BATCH
    double dp2[3] = {0}, dy02[3] = {0};
    double *shad2[NP] = {&dp2[0], &dp2[1], &dp2[2], &dy02[0], &dy02[1], &dy02[2]};
    for (int q = 0; q < NP; q += 2) {
      *shad[q] = 1.0; *shad2[q + 1] = 1.0;
      v2 t = __enzyme_fwddiff_v2((void *)lorenz_objective, enzyme_width, 2, enzyme_dup, p, dp, dp2, enzyme_dup, y0, dy0,
                                 dy02, enzyme_const, h, enzyme_const, n, enzyme_const, variant);
      *shad[q] = 0.0; *shad2[q + 1] = 0.0;
      ad[q] = t.d[0]; ad[q + 1] = t.d[1];
    }
    hunt_check_vec(name, ad, fd, NP);
#endif
#ifdef MODE_SPLIT
    aug_t r = __enzyme_augmentfwd((void *)lorenz_objective, enzyme_dup, p, dp, enzyme_dup, y0, dy0, enzyme_const, h,
                                  enzyme_const, n, enzyme_const, variant);
    hunt_check("primal", r.primal, lorenz_objective(p, y0, h, n, variant));
    __enzyme_reverse((void *)lorenz_objective, enzyme_dup, p, dp, enzyme_dup, y0, dy0, enzyme_const, h, enzyme_const, n,
                     enzyme_const, variant, 1.0, r.tape);
    for (int q = 0; q < NP; q++) ad[q] = *shad[q];
    hunt_check_vec(name, ad, fd, NP);
#endif
  }
  return hunt_finish();
}

#include "hunt.h"
#include <cmath>
#include <vector>
/* Conservation-law solver written against an abstract physics interface, as in an OO teaching code:
   class ConservationLaw with pure virtual flux() and max_speed(), three models (linear advection,
   Burgers, LWR traffic) deriving from it, one more level (TrafficWithRamp overriding flux() and calling
   the base version), a Solver holding a `const ConservationLaw &` and a Godunov-type local Lax-Friedrichs
   scheme with a virtual source term.  Objective: sum over the three models of a weighted final state. */
class ConservationLaw {
public:
  virtual ~ConservationLaw() = default;
  virtual double flux(double u) const = 0;
  virtual double max_speed(double u) const = 0;
  virtual double source(double u, double x) const { (void)u; (void)x; return 0.0; }
};

class Advection : public ConservationLaw {
  double a_;
public:
  explicit Advection(double a) : a_(a) {}
  double flux(double u) const override { return a_ * u; }
  double max_speed(double) const override { return std::fabs(a_); }
};

class Burgers : public ConservationLaw {
public:
  double flux(double u) const override { return 0.5 * u * u; }
  double max_speed(double u) const override { return std::fabs(u); }
};

class Traffic : public ConservationLaw {
protected:
  double vmax_, rho_max_;
public:
  Traffic(double vmax, double rho_max) : vmax_(vmax), rho_max_(rho_max) {}
  double flux(double u) const override { return vmax_ * u * (1 - u / rho_max_); }
  double max_speed(double u) const override { return std::fabs(vmax_ * (1 - 2 * u / rho_max_)); }
};

class TrafficWithRamp : public Traffic {
  double inflow_;
public:
  TrafficWithRamp(double vmax, double rho_max, double inflow) : Traffic(vmax, rho_max), inflow_(inflow) {}
  double flux(double u) const override { return 0.98 * Traffic::flux(u); }
  double source(double u, double x) const override {
    return x > 0.4 && x < 0.6 ? inflow_ * (1 - u / rho_max_) : 0.0;
  }
};

class Solver {
  const ConservationLaw &law_;
  std::vector<double> u_, f_;
  double dx_;
public:
  Solver(const ConservationLaw &law, const double *u0, int n) : law_(law), u_(u0, u0 + n), f_(n + 1), dx_(1.0 / n) {}
  void step(double dt) {
    int n = (int)u_.size();
    for (int i = 0; i <= n; i++) {
      double l = u_[(i - 1 + n) % n], r = u_[i % n];
      double a = std::fmax(law_.max_speed(l), law_.max_speed(r));
      f_[i] = 0.5 * (law_.flux(l) + law_.flux(r)) - 0.5 * a * (r - l);
    }
    for (int i = 0; i < n; i++)
      u_[i] += -dt / dx_ * (f_[i + 1] - f_[i]) + dt * law_.source(u_[i], (i + 0.5) * dx_);
  }
  double weighted(const double *w) const {
    double s = 0;
    for (size_t i = 0; i < u_.size(); i++) s += w[i] * u_[i] * u_[i];
    return s * dx_;
  }
};

extern "C" double multi_physics(const double *u0, const double *w, int n, double speed, double vmax, int steps) {
  Advection adv(speed);
  Burgers burg;
  TrafficWithRamp traffic(vmax, 1.0, 0.3);
  const ConservationLaw *laws[] = {&adv, &burg, &traffic};
  double total = 0;
  for (const ConservationLaw *law : laws) {
    Solver solver(*law, u0, n);
    for (int s = 0; s < steps; s++) solver.step(0.2 / n);
    total += solver.weighted(w);
  }
  return total;
}

struct two { double a, b; };
extern "C" two __enzyme_autodiff_two(void *, ...);

enum { N = 32, STEPS = 20, NP = 4 };
static double u0[N], w[N];
static const int probes[NP] = {2, 11, 16, 29};

int main(void) {
  hunt_fd_step = 1e-6;
  for (int i = 0; i < N; i++) {
    double x = (i + 0.5) / N;
    u0[i] = 0.45 + 0.25 * std::sin(2 * M_PI * x);
    w[i] = 1 + x;
  }
  double speed = 0.8, vmax = 1.2;
  double fd[NP + 2], ad[NP + 2];
  for (int k = 0; k < NP; k++) fd[k] = HUNT_FD(multi_physics(u0, w, N, speed, vmax, STEPS), u0[probes[k]]);
  fd[NP] = HUNT_FD(multi_physics(u0, w, N, speed, vmax, STEPS), speed);
  fd[NP + 1] = HUNT_FD(multi_physics(u0, w, N, speed, vmax, STEPS), vmax);
#ifdef MODE_REV
  double du[N] = {0};
  two g = __enzyme_autodiff_two((void *)multi_physics, enzyme_dup, u0, du, enzyme_const, w, enzyme_const, N, speed,
                                vmax, enzyme_const, STEPS);
  for (int k = 0; k < NP; k++) ad[k] = du[probes[k]];
  ad[NP] = g.a; ad[NP + 1] = g.b;
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP + 2; k++) {
    double du[N] = {0};
    if (k < NP) du[probes[k]] = 1;
    ad[k] = __enzyme_fwddiff((void *)multi_physics, enzyme_dup, u0, du, enzyme_const, w, enzyme_const, N, speed,
                             k == NP ? 1.0 : 0.0, vmax, k == NP + 1 ? 1.0 : 0.0, enzyme_const, STEPS);
  }
#endif
  hunt_check_vec("grad", ad, fd, NP + 2);
  return hunt_finish();
}

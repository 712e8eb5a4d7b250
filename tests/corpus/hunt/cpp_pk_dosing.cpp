#include "hunt.h"
/* Two-compartment pharmacokinetics with first-order absorption: oral bolus doses kept in a
   std::vector<Dose> sorted by time with std::sort, an intravenous infusion given as a
   std::function<double(double)> rate callback (a lambda capturing the regimen), RK4 on a fixed grid with
   doses applied when the clock passes them, and a weighted least-squares misfit of log concentrations
   against sampled observations.  Inputs: ka, CL, V1, Q, V2 and the infusion rate. */
#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <numeric>
#include <vector>

struct Dose {
  double time;
  double amount;
};

struct Observation {
  double time;
  double conc;
  double weight;
};

struct PKParams {
  double ka, CL, V1, Q, V2;
};

using Amounts = std::array<double, 3>;  // gut, central, peripheral

static Amounts rhs(const PKParams &p, const Amounts &a, double infusion) {
  const double k10 = p.CL / p.V1, k12 = p.Q / p.V1, k21 = p.Q / p.V2;
  return {-p.ka * a[0], p.ka * a[0] - (k10 + k12) * a[1] + k21 * a[2] + infusion, k12 * a[1] - k21 * a[2]};
}

static Amounts rk4(const PKParams &p, const Amounts &a, double t, double h,
                   const std::function<double(double)> &rate) {
  auto shift = [](const Amounts &x, double s, const Amounts &k) {
    return Amounts{x[0] + s * k[0], x[1] + s * k[1], x[2] + s * k[2]};
  };
  const Amounts k1 = rhs(p, a, rate(t));
  const Amounts k2 = rhs(p, shift(a, h / 2, k1), rate(t + h / 2));
  const Amounts k3 = rhs(p, shift(a, h / 2, k2), rate(t + h / 2));
  const Amounts k4 = rhs(p, shift(a, h, k3), rate(t + h));
  Amounts out;
  for (int i = 0; i < 3; ++i) out[i] = a[i] + h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  return out;
}

static std::vector<Observation> sampling_schedule() {
  std::vector<Observation> obs;
  const double times[] = {0.5, 1.0, 2.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0, 30.0, 36.0};
  for (double t : times) obs.push_back({t, 2.0 * std::exp(-0.08 * t) + 0.5 * std::exp(-0.6 * t) + 0.3, 1.0 / (1.0 + 0.05 * t)});
  return obs;
}

extern "C" double pk_misfit(const double *theta, double infusion_rate, int nsteps_per_hour) {
  const PKParams p{theta[0], theta[1], theta[2], theta[3], theta[4]};
  std::vector<Dose> doses = {{24.0, 100.0}, {0.0, 100.0}, {12.0, 50.0}};
  std::sort(doses.begin(), doses.end(), [](const Dose &a, const Dose &b) { return a.time < b.time; });
  const double total = std::accumulate(doses.begin(), doses.end(), 0.0,
                                       [](double s, const Dose &d) { return s + d.amount; });
  const double t_on = 6.0, t_off = 10.0;
  std::function<double(double)> infusion = [=](double t) {
    return (t >= t_on && t < t_off) ? infusion_rate : 0.0;
  };
  const std::vector<Observation> obs = sampling_schedule();
  const double h = 1.0 / nsteps_per_hour;
  Amounts a{0.0, 0.0, 0.0};
  std::size_t next_dose = 0, next_obs = 0;
  double misfit = 0, t = 0;
  const int nsteps = static_cast<int>(std::lround(obs.back().time / h));
  for (int s = 0; s <= nsteps; ++s) {
    t = s * h;
    while (next_dose < doses.size() && doses[next_dose].time <= t + 1e-9) a[0] += doses[next_dose++].amount;
    if (next_obs < obs.size() && std::fabs(obs[next_obs].time - t) < 1e-9) {
      const double c = a[1] / p.V1;
      const double r = std::log(c) - std::log(obs[next_obs].conc);
      misfit += obs[next_obs].weight * r * r;
      ++next_obs;
    }
    if (s < nsteps) a = rk4(p, a, t, h, infusion);
  }
  return misfit + 1e-4 * total * a[2] / p.V2;
}

int main() {
  double theta[5] = {1.1, 4.0, 40.0, 6.0, 80.0}, rate = 8.0;
  int nsph = 8;
  enum { NP = 6 };
  double *prim[NP] = {&theta[0], &theta[1], &theta[2], &theta[3], &theta[4], &rate};
  double fd[NP], ad[NP], dtheta[5] = {0};
  for (int k = 0; k < NP; ++k) fd[k] = HUNT_FD(pk_misfit(theta, rate, nsph), *prim[k]);
#ifdef MODE_REV
  ad[5] = __enzyme_autodiff((void *)pk_misfit, enzyme_dup, theta, dtheta, rate, enzyme_const, nsph);
  for (int k = 0; k < 5; ++k) ad[k] = dtheta[k];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; ++k) {
    if (k < 5) dtheta[k] = 1.0;
    ad[k] = __enzyme_fwddiff((void *)pk_misfit, enzyme_dup, theta, dtheta, rate, k == 5 ? 1.0 : 0.0, enzyme_const,
                             nsph);
    if (k < 5) dtheta[k] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

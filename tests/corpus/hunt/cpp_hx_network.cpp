#include "hunt.h"
/* Heat-exchanger network of a crude preheat train: process streams in a std::map<std::string, Stream>
   (heat-capacity flow rate, supply, target and current temperature), exchangers as a std::vector of
   `Exchanger` records naming their hot and cold streams, counter-flow effectiveness-NTU returning a
   std::tuple<double, double, double> unpacked with structured bindings, std::minmax of the two capacity
   rates, a std::pair<double, double> of hot and cold utility duties from a range-for over the map, a
   `CostModel` class with a static exponent, area from log-mean temperature difference, an
   std::ostringstream log of duties.  Objective: annualized utility plus area cost.
   Inputs: the UA of the four exchangers and two stream flow rates. */
#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

struct Stream {
  double mcp;       // kW/K
  double t_supply;  // deg C
  double t_target;
  double t_now;
  bool hot;
};

struct Exchanger {
  std::string hot, cold;
  double ua;  // kW/K
};

static std::tuple<double, double, double> counterflow(const Stream &h, const Stream &c, double ua) {
  if (h.t_now <= c.t_now) throw std::runtime_error("temperature cross in exchanger");
  const auto [cmin, cmax] = std::minmax(h.mcp, c.mcp);
  const double cr = cmin / cmax, ntu = ua / cmin;
  const double e = std::exp(-ntu * (1.0 - cr));
  const double eff = (1.0 - e) / (1.0 - cr * e);
  const double q = eff * cmin * (h.t_now - c.t_now);
  return {q, h.t_now - q / h.mcp, c.t_now + q / c.mcp};
}

class CostModel {
 public:
  static double area_exponent;
  CostModel(double steam, double water, double per_m2) : steam_(steam), water_(water), per_m2_(per_m2) {}
  double utilities(double q_hot, double q_cold) const { return 8000.0 * (steam_ * q_hot + water_ * q_cold); }
  double area(double ua, double u) const { return per_m2_ * std::pow(ua / u, area_exponent); }

 private:
  double steam_, water_, per_m2_;
};
double CostModel::area_exponent = 0.65;

static std::string duty_log;

extern "C" double network_cost(const double *ua, const double *flows) {
  std::map<std::string, Stream> streams{
      {"crude", {flows[0], 30.0, 230.0, 30.0, false}},
      {"desalted", {flows[1], 120.0, 260.0, 120.0, false}},
      {"residue", {18.0, 340.0, 90.0, 340.0, true}},
      {"gasoil", {12.0, 280.0, 60.0, 280.0, true}},
      {"kerosene", {9.5, 210.0, 45.0, 210.0, true}},
  };
  const std::vector<Exchanger> exchangers{
      {"kerosene", "crude", ua[0]}, {"gasoil", "crude", ua[1]}, {"residue", "desalted", ua[2]}, {"residue", "crude", ua[3]}};
  const CostModel costs(0.012, 0.002, 2600.0);
  double capital = 0.0;
  std::ostringstream log;
  for (const Exchanger &x : exchangers) {
    Stream &h = streams.at(x.hot);
    Stream &c = streams.at(x.cold);
    const double th_in = h.t_now, tc_in = c.t_now;
    const auto [q, th_out, tc_out] = counterflow(h, c, x.ua);
    h.t_now = th_out;
    c.t_now = tc_out;
    const double dt1 = th_in - tc_out, dt2 = th_out - tc_in;
    const double lmtd = std::fabs(dt1 - dt2) < 1e-9 ? dt1 : (dt1 - dt2) / std::log(dt1 / dt2);
    capital += costs.area(q / lmtd, 0.45);
    log << x.hot << "->" << x.cold << ": " << q << " kW; ";
  }
  std::pair<double, double> utility{0.0, 0.0};
  for (const auto &[name, s] : streams) {
    const double remaining = s.mcp * (s.t_target - s.t_now);
    if (s.hot)
      utility.second += std::max(-remaining, 0.0);
    else
      utility.first += std::max(remaining, 0.0);
  }
  duty_log = log.str();
  return costs.utilities(utility.first, utility.second) / 1e3 + 0.2 * capital / 1e3;
}

int main() {
  double ua[4] = {6.0, 9.0, 14.0, 7.5}, flows[2] = {21.0, 15.0};
  enum { NP = 6 };
  double *prim[NP] = {&ua[0], &ua[1], &ua[2], &ua[3], &flows[0], &flows[1]};
  double fd[NP], ad[NP], dua[4] = {0}, dflows[2] = {0};
  for (int k = 0; k < NP; ++k) fd[k] = HUNT_FD(network_cost(ua, flows), *prim[k]);
  printf("cost %.10g: %s\n", network_cost(ua, flows), duty_log.c_str());
#ifdef MODE_REV
  __enzyme_autodiff((void *)network_cost, enzyme_dup, ua, dua, enzyme_dup, flows, dflows);
  for (int k = 0; k < 4; ++k) ad[k] = dua[k];
  ad[4] = dflows[0], ad[5] = dflows[1];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; ++k) {
    double *seed = k < 4 ? &dua[k] : &dflows[k - 4];
    *seed = 1.0;
    ad[k] = __enzyme_fwddiff((void *)network_cost, enzyme_dup, ua, dua, enzyme_dup, flows, dflows);
    *seed = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

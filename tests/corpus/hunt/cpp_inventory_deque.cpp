#include "hunt.h"
/* Periodic-review inventory with lead times: replenishment orders in transit kept in a
   std::deque<Order> (push_back when placed, pop_front when they arrive), a Holt (level + trend) demand
   forecaster as a small class, an order-up-to policy whose target is the forecast over the protection
   interval plus a safety stock, customers served first-come from a std::deque<Backorder> of unfilled demand,
   holding/backlog/ordering costs, std::optional<int> for the first stock-out period, std::minmax_element of
   the on-hand history for a log line, exceptions for a bad configuration.
   Inputs: forecast smoothing alpha and beta, safety factor, initial stock, holding and backlog costs. */
#include <algorithm>
#include <cmath>
#include <deque>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

struct Order {
  int due;
  double qty;
};

struct Backorder {
  int since;
  double qty;
};

struct CostRates {
  double holding, backlog, per_order, per_unit;
};

class HoltForecaster {
 public:
  HoltForecaster(double alpha, double beta, double level0) : alpha_(alpha), beta_(beta), level_(level0), trend_(0.0) {
    if (alpha <= 0 || alpha >= 1 || beta <= 0 || beta >= 1) throw std::domain_error("smoothing constants outside (0,1)");
  }
  void observe(double demand) {
    const double prev = level_;
    level_ = alpha_ * demand + (1 - alpha_) * (level_ + trend_);
    trend_ = beta_ * (level_ - prev) + (1 - beta_) * trend_;
    error_ = 0.9 * error_ + 0.1 * std::fabs(demand - prev);
  }
  double forecast(int ahead) const { return level_ + ahead * trend_; }
  double mad() const { return error_; }

 private:
  double alpha_, beta_, level_, trend_;
  double error_ = 2.0;
};

static double demand_at(int t) {
  return 20.0 + 0.15 * t + 6.0 * std::sin(0.45 * t) + 3.0 * std::cos(1.7 * t + 0.4);
}

static std::string report;

extern "C" double inventory_cost(const double *p, int periods, int lead_time) {
  if (lead_time < 1) throw std::invalid_argument("lead time must be >= 1, got " + std::to_string(lead_time));
  const double alpha = p[0], beta = p[1], safety = p[2], stock0 = p[3];
  const CostRates rates{p[4], p[5], 15.0, 0.8};
  HoltForecaster fc(alpha, beta, demand_at(0));
  std::deque<Order> pipeline;
  std::deque<Backorder> waiting;
  double on_hand = stock0, cost = 0.0;
  std::optional<int> first_stockout;
  std::vector<double> history;
  for (int t = 0; t < periods; ++t) {
    while (!pipeline.empty() && pipeline.front().due <= t) {
      on_hand += pipeline.front().qty;
      pipeline.pop_front();
    }
    // serve the oldest backorders first
    while (!waiting.empty() && on_hand > 0) {
      Backorder &b = waiting.front();
      const double served = std::min(b.qty, on_hand);
      on_hand -= served;
      b.qty -= served;
      if (b.qty <= 1e-12) waiting.pop_front();
      else break;
    }
    const double d = demand_at(t);
    const double sold = std::min(d, std::max(on_hand, 0.0));
    on_hand -= sold;
    if (d - sold > 0) {
      waiting.push_back({t, d - sold});
      if (!first_stockout) first_stockout = t;
    }
    fc.observe(d);
    double backlog = 0.0;
    for (const Backorder &b : waiting) backlog += b.qty * (1.0 + 0.1 * (t - b.since));
    double in_transit = 0.0;
    for (const auto &o : pipeline) in_transit += o.qty;
    const double target = fc.forecast(1) * (lead_time + 1) + safety * 1.25 * fc.mad() * std::sqrt(lead_time + 1.0);
    const double position = on_hand + in_transit - backlog;
    if (target > position) {
      const double q = target - position;
      pipeline.push_back({t + lead_time, q});
      cost += rates.per_order + rates.per_unit * q;
    }
    cost += rates.holding * on_hand + rates.backlog * backlog;
    history.push_back(on_hand);
  }
  const auto [lo, hi] = std::minmax_element(history.begin(), history.end());
  std::ostringstream os;
  os << "on hand in [" << *lo << ", " << *hi << "], first stock-out "
     << (first_stockout ? std::to_string(*first_stockout) : std::string("never"));
  report = os.str();
  return cost / periods;
}

int main() {
  double p[6] = {0.35, 0.15, 1.2, 30.0, 0.4, 3.0};
  const int periods = 60, lead = 3;
  enum { NP = 6 };
  double fd[NP], ad[NP], dp[NP] = {0};
  hunt_fd_step = 1e-6;
  for (int k = 0; k < NP; ++k) fd[k] = HUNT_FD(inventory_cost(p, periods, lead), p[k]);
  std::cout << "cost " << inventory_cost(p, periods, lead) << ": " << report << "\n";
#ifdef MODE_REV
  __enzyme_autodiff((void *)inventory_cost, enzyme_dup, p, dp, enzyme_const, periods, enzyme_const, lead);
  for (int k = 0; k < NP; ++k) ad[k] = dp[k];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; ++k) {
    dp[k] = 1.0;
    ad[k] = __enzyme_fwddiff((void *)inventory_cost, enzyme_dup, p, dp, enzyme_const, periods, enzyme_const, lead);
    dp[k] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

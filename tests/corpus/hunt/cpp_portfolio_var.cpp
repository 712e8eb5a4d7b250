#include "hunt.h"
/* Portfolio market risk by Monte Carlo: asset descriptions in a std::vector<Asset> (std::string ticker,
   drift, volatility), a correlation matrix as std::vector<std::vector<double>>, covariance and its
   Cholesky factor in a small `SymMatrix` class (throws std::domain_error if not positive definite),
   scenarios from a fixed table of standard normals (Box-Muller on an LCG in the setup, not
   differentiated), portfolio losses in a std::vector<double>, risk measures behind an abstract
   `RiskMeasure` with virtual operator() (historical VaR via std::nth_element on a copy, expected
   shortfall via std::sort with std::greater and std::accumulate over the tail, variance), summed over a
   std::vector<std::unique_ptr<RiskMeasure>> with weights, std::minmax_element for a log line.
   Inputs: the five portfolio weights and the five volatilities. */
#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

struct Asset {
  std::string ticker;
  double drift, vol;
};

class SymMatrix {
 public:
  explicit SymMatrix(std::size_t n) : n_(n), a_(n * n, 0.0) {}
  double &operator()(std::size_t i, std::size_t j) { return a_[i * n_ + j]; }
  double operator()(std::size_t i, std::size_t j) const { return a_[i * n_ + j]; }
  std::size_t size() const { return n_; }
  SymMatrix cholesky() const {
    SymMatrix L(n_);
    for (std::size_t j = 0; j < n_; ++j) {
      double d = (*this)(j, j);
      for (std::size_t k = 0; k < j; ++k) d -= L(j, k) * L(j, k);
      if (d <= 0.0) throw std::domain_error("covariance not positive definite at row " + std::to_string(j));
      L(j, j) = std::sqrt(d);
      for (std::size_t i = j + 1; i < n_; ++i) {
        double s = (*this)(i, j);
        for (std::size_t k = 0; k < j; ++k) s -= L(i, k) * L(j, k);
        L(i, j) = s / L(j, j);
      }
    }
    return L;
  }

 private:
  std::size_t n_;
  std::vector<double> a_;
};

class RiskMeasure {
 public:
  virtual ~RiskMeasure() = default;
  virtual double operator()(const std::vector<double> &losses) const = 0;
  virtual std::string name() const = 0;
};

class ValueAtRisk : public RiskMeasure {
 public:
  explicit ValueAtRisk(double level) : level_(level) {}
  double operator()(const std::vector<double> &losses) const override {
    std::vector<double> copy(losses);
    const auto k = static_cast<std::ptrdiff_t>(level_ * (copy.size() - 1));
    std::nth_element(copy.begin(), copy.begin() + k, copy.end());
    return copy[k];
  }
  std::string name() const override { return "VaR" + std::to_string(int(100 * level_)); }

 private:
  double level_;
};

class ExpectedShortfall : public RiskMeasure {
 public:
  explicit ExpectedShortfall(double level) : level_(level) {}
  double operator()(const std::vector<double> &losses) const override {
    std::vector<double> sorted(losses);
    std::sort(sorted.begin(), sorted.end(), std::greater<double>());
    const std::size_t tail = std::max<std::size_t>(1, static_cast<std::size_t>((1.0 - level_) * sorted.size()));
    return std::accumulate(sorted.begin(), sorted.begin() + tail, 0.0) / tail;
  }
  std::string name() const override { return "ES"; }

 private:
  double level_;
};

class Variance : public RiskMeasure {
 public:
  double operator()(const std::vector<double> &losses) const override {
    const double mean = std::accumulate(losses.begin(), losses.end(), 0.0) / losses.size();
    double s = 0.0;
    for (double l : losses) s += (l - mean) * (l - mean);
    return s / (losses.size() - 1);
  }
  std::string name() const override { return "var"; }
};

static std::vector<double> normal_table(std::size_t n) {
  std::vector<double> z(n);
  unsigned long long s = 0x9E3779B97F4A7C15ull;
  auto u01 = [&s]() {
    s ^= s << 13; s ^= s >> 7; s ^= s << 17;
    return ((s >> 11) + 0.5) * (1.0 / 9007199254740992.0);
  };
  for (std::size_t i = 0; i + 1 < n; i += 2) {
    const double r = std::sqrt(-2.0 * std::log(u01())), a = 2.0 * M_PI * u01();
    z[i] = r * std::cos(a);
    z[i + 1] = r * std::sin(a);
  }
  return z;
}

static const std::size_t NA = 5, NS = 400;
static std::vector<double> shocks;  // NS x NA standard normals, filled once by main
static std::string risk_log;

extern "C" double portfolio_risk(const double *weights, const double *vols) {
  std::vector<Asset> assets{{"EQ-US", 0.06, vols[0]}, {"EQ-EU", 0.05, vols[1]}, {"BOND", 0.02, vols[2]},
                            {"GOLD", 0.03, vols[3]}, {"REIT", 0.045, vols[4]}};
  const std::vector<std::vector<double>> corr{{1.0, 0.7, -0.2, 0.05, 0.5},
                                              {0.7, 1.0, -0.15, 0.1, 0.45},
                                              {-0.2, -0.15, 1.0, 0.2, 0.1},
                                              {0.05, 0.1, 0.2, 1.0, 0.0},
                                              {0.5, 0.45, 0.1, 0.0, 1.0}};
  SymMatrix cov(NA);
  for (std::size_t i = 0; i < NA; ++i)
    for (std::size_t j = 0; j < NA; ++j) cov(i, j) = corr[i][j] * assets[i].vol * assets[j].vol;
  const SymMatrix L = cov.cholesky();
  const double horizon = 10.0 / 252.0;
  std::vector<double> losses(NS);
  for (std::size_t s = 0; s < NS; ++s) {
    double pnl = 0.0;
    for (std::size_t i = 0; i < NA; ++i) {
      double shock = 0.0;
      for (std::size_t k = 0; k <= i; ++k) shock += L(i, k) * shocks[s * NA + k];
      pnl += weights[i] * (assets[i].drift * horizon + std::sqrt(horizon) * shock);
    }
    losses[s] = -pnl;
  }
  std::vector<std::unique_ptr<RiskMeasure>> measures;
  measures.push_back(std::make_unique<ValueAtRisk>(0.95));
  measures.push_back(std::make_unique<ExpectedShortfall>(0.975));
  measures.push_back(std::make_unique<Variance>());
  const double mix[3] = {1.0, 0.5, 20.0};
  double risk = 0.0;
  std::ostringstream os;
  for (std::size_t m = 0; m < measures.size(); ++m) {
    const double v = (*measures[m])(losses);
    risk += mix[m] * v;
    os << measures[m]->name() << "=" << v << " ";
  }
  const auto [best, worst] = std::minmax_element(losses.begin(), losses.end());
  os << "range [" << *best << ", " << *worst << "]";
  risk_log = os.str();
  const double budget = std::accumulate(weights, weights + NA, 0.0);
  return risk + 0.1 * (budget - 1.0) * (budget - 1.0);
}

int main() {
  shocks = normal_table(NS * NA);
  double w[5] = {0.3, 0.2, 0.25, 0.1, 0.15}, vol[5] = {0.18, 0.2, 0.06, 0.15, 0.22};
  enum { NP = 10 };
  double *prim[NP];
  for (int i = 0; i < 5; ++i) prim[i] = &w[i], prim[5 + i] = &vol[i];
  hunt_fd_step = 1e-7;  // VaR is an order statistic: keep the stencil inside one ordering
  double fd[NP], ad[NP], dw[5] = {0}, dvol[5] = {0};
  for (int k = 0; k < NP; ++k) fd[k] = HUNT_FD(portfolio_risk(w, vol), *prim[k]);
  printf("risk %.10g: %s\n", portfolio_risk(w, vol), risk_log.c_str());
#ifdef MODE_REV
  __enzyme_autodiff((void *)portfolio_risk, enzyme_dup, w, dw, enzyme_dup, vol, dvol);
  for (int i = 0; i < 5; ++i) ad[i] = dw[i], ad[5 + i] = dvol[i];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; ++k) {
    double *seed = k < 5 ? &dw[k] : &dvol[k - 5];
    *seed = 1.0;
    ad[k] = __enzyme_fwddiff((void *)portfolio_risk, enzyme_dup, w, dw, enzyme_dup, vol, dvol);
    *seed = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

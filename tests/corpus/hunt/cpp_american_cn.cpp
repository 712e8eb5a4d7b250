#include "hunt.h"
/* American option pricing by Crank-Nicolson finite differences in a small quant-library class hierarchy:
   an abstract `Payoff` with virtual `operator()` (put, call, a capped "collar" subclass of the put that
   calls the base version), an abstract `FDScheme` with virtual `theta()` implemented by Crank-Nicolson
   and a Rannacher-smoothed subclass (implicit Euler for the first steps), a `Grid` struct in log-spot
   built in the constructor, a `TridiagonalSystem` held in `std::vector`s solved by the Thomas algorithm,
   early exercise by `std::max` with the payoff after every step (explicit projection), a
   `std::unique_ptr<Payoff>` owned by the pricer, and linear interpolation at the spot.  Objective: a
   small book of options (put, call, collar) priced with a fixed grid.  Inputs: spot, volatility, rate,
   dividend yield, strike. */
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

class Payoff {
 public:
  explicit Payoff(double strike) : strike_(strike) {}
  virtual ~Payoff() = default;
  virtual double operator()(double spot) const = 0;
  virtual std::string name() const = 0;
  double strike() const { return strike_; }

 protected:
  double strike_;
};

class PutPayoff : public Payoff {
 public:
  using Payoff::Payoff;
  double operator()(double s) const override { return std::max(strike_ - s, 0.0); }
  std::string name() const override { return "put"; }
};

class CallPayoff : public Payoff {
 public:
  using Payoff::Payoff;
  double operator()(double s) const override { return std::max(s - strike_, 0.0); }
  std::string name() const override { return "call"; }
};

class CappedPutPayoff : public PutPayoff {
 public:
  CappedPutPayoff(double strike, double cap) : PutPayoff(strike), cap_(cap) {}
  double operator()(double s) const override { return std::min(PutPayoff::operator()(s), cap_); }
  std::string name() const override { return "capped put"; }

 private:
  double cap_;
};

struct MarketData {
  double spot, vol, rate, div;
};

class FDScheme {
 public:
  virtual ~FDScheme() = default;
  virtual double theta(int step) const = 0;  // 1 = implicit Euler, 0.5 = Crank-Nicolson
};

class CrankNicolson : public FDScheme {
 public:
  double theta(int) const override { return 0.5; }
};

class Rannacher : public CrankNicolson {
 public:
  explicit Rannacher(int smoothing_steps) : smoothing_(smoothing_steps) {}
  double theta(int step) const override { return step < smoothing_ ? 1.0 : CrankNicolson::theta(step); }

 private:
  int smoothing_;
};

struct Grid {
  std::vector<double> x, s;
  double dx;
  Grid(double spot, double vol, double maturity, int n) : x(n), s(n) {
    double half_width = 5.0 * vol * std::sqrt(maturity);
    dx = 2 * half_width / (n - 1);
    for (int i = 0; i < n; ++i) {
      x[i] = std::log(spot) - half_width + i * dx;
      s[i] = std::exp(x[i]);
    }
  }
};

struct TridiagonalSystem {
  std::vector<double> lower, diag, upper, rhs;
  explicit TridiagonalSystem(int n) : lower(n), diag(n), upper(n), rhs(n) {}
  std::vector<double> solve() const {
    const int n = static_cast<int>(diag.size());
    std::vector<double> c(n), d(n), out(n);
    c[0] = upper[0] / diag[0];
    d[0] = rhs[0] / diag[0];
    for (int i = 1; i < n; ++i) {
      double m = diag[i] - lower[i] * c[i - 1];
      c[i] = upper[i] / m;
      d[i] = (rhs[i] - lower[i] * d[i - 1]) / m;
    }
    out[n - 1] = d[n - 1];
    for (int i = n - 2; i >= 0; --i) out[i] = d[i] - c[i] * out[i + 1];
    return out;
  }
};

class AmericanPricer {
 public:
  AmericanPricer(std::unique_ptr<Payoff> payoff, const FDScheme &scheme, int nx, int nt)
      : payoff_(std::move(payoff)), scheme_(scheme), nx_(nx), nt_(nt) {}

  double price(const MarketData &m, double maturity) const {
    // spatial grid centred on a fixed reference so grid nodes do not move with the spot
    Grid g(payoff_->strike(), m.vol, maturity, nx_);
    const double dt = maturity / nt_, sig2 = m.vol * m.vol, mu = m.rate - m.div - 0.5 * sig2;
    const double a = 0.5 * sig2 / (g.dx * g.dx), b = 0.5 * mu / g.dx;
    const double lo = a - b, up = a + b, mid = -2 * a - m.rate;  // L v = lo v[i-1] + mid v[i] + up v[i+1]
    std::vector<double> v(nx_), exercise(nx_);
    for (int i = 0; i < nx_; ++i) exercise[i] = v[i] = (*payoff_)(g.s[i]);
    TridiagonalSystem sys(nx_);
    for (int step = 0; step < nt_; ++step) {
      const double th = scheme_.theta(step);
      for (int i = 1; i < nx_ - 1; ++i) {
        sys.lower[i] = -th * dt * lo;
        sys.diag[i] = 1 - th * dt * mid;
        sys.upper[i] = -th * dt * up;
        sys.rhs[i] = v[i] + (1 - th) * dt * (lo * v[i - 1] + mid * v[i] + up * v[i + 1]);
      }
      sys.diag[0] = sys.diag[nx_ - 1] = 1;  // Dirichlet: the intrinsic value at the far ends
      sys.upper[0] = sys.lower[nx_ - 1] = 0;
      sys.rhs[0] = exercise[0];
      sys.rhs[nx_ - 1] = exercise[nx_ - 1];
      v = sys.solve();
      for (int i = 0; i < nx_; ++i) v[i] = std::max(v[i], exercise[i]);  // early exercise
    }
    // linear interpolation in log-spot
    const double xs = std::log(m.spot);
    auto it = std::upper_bound(g.x.begin(), g.x.end(), xs);
    int j = static_cast<int>(it - g.x.begin()) - 1;
    j = std::clamp(j, 0, nx_ - 2);
    double w = (xs - g.x[j]) / g.dx;
    return (1 - w) * v[j] + w * v[j + 1];
  }

 private:
  std::unique_ptr<Payoff> payoff_;
  const FDScheme &scheme_;
  int nx_, nt_;
};

extern "C" double book_value(const double *mkt, double strike) {
  MarketData m{mkt[0], mkt[1], mkt[2], mkt[3]};
  Rannacher scheme(4);
  std::vector<std::unique_ptr<AmericanPricer>> book;
  book.push_back(std::make_unique<AmericanPricer>(std::make_unique<PutPayoff>(strike), scheme, 161, 60));
  book.push_back(std::make_unique<AmericanPricer>(std::make_unique<CallPayoff>(strike * 1.1), scheme, 161, 60));
  book.push_back(std::make_unique<AmericanPricer>(std::make_unique<CappedPutPayoff>(strike * 0.95, 12.0), scheme, 161, 60));
  const double weights[] = {1.0, -0.5, 2.0};
  double total = 0;
  for (size_t k = 0; k < book.size(); ++k) total += weights[k] * book[k]->price(m, 0.75);
  return total;
}

static double mkt[4] = {97.0, 0.28, 0.05, 0.02};
int main() {
  double strike = 100.0, fd[5], ad[5];
  hunt_fd_step = 1e-6;  // the exercise boundary moves across grid nodes
  printf("book %.12g\n", book_value(mkt, strike));
  for (int k = 0; k < 4; ++k) fd[k] = HUNT_FD(book_value(mkt, strike), mkt[k]);
  fd[4] = HUNT_FD(book_value(mkt, strike), strike);
#ifdef MODE_REV
  double dm[4] = {0};
  ad[4] = __enzyme_autodiff((void *)book_value, enzyme_dup, mkt, dm, enzyme_out, strike);
  for (int k = 0; k < 4; ++k) ad[k] = dm[k];
#endif
#ifdef MODE_FWD
  for (int k = 0; k < 5; ++k) {
    double dm[4] = {0}, ds = k == 4 ? 1.0 : 0.0;
    if (k < 4) dm[k] = 1;
    ad[k] = __enzyme_fwddiff((void *)book_value, enzyme_dup, mkt, dm, enzyme_dup, strike, ds);
  }
#endif
  hunt_check_vec("grad", ad, fd, 5);
  return hunt_finish();
}

#include "check.h"
// Pointers to active memory moved by libstdc++ at -O0 as an i64 (memcpy of 8 bytes): std::unique_ptr's tuple (a
// reserved std::vector<std::unique_ptr<Base>>), a std::pair and a std::optional of pointers, and the [&net] closure
// std::function's _M_create stores in its _Any_data (its call operator reads the word as a pointer).  The shadow of
// each word must move along.
#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

class Term {
 public:
  virtual ~Term() = default;
  virtual double eval(double x) const = 0;
};

class Scaled : public Term {
 public:
  explicit Scaled(double k) : k_(k) {}
  double eval(double x) const override { return k_ * std::sin(x); }

 private:
  double k_;
};

class Shifted : public Term {
 public:
  Shifted(double a, double b) : a_(a), b_(b) {}
  double eval(double x) const override { return (x - a_) * (x - a_) * b_; }

 private:
  double a_, b_;
};

struct Params {
  std::vector<double> w;
  double operator()(double x) const { return w[0] * x * x + w[1] * x; }
};

static double apply(const std::function<double(double)> &f, double x) { return f(x) + 0.5 * f(0.5 * x); }

extern "C" double objective(const double *p) {
  std::vector<std::unique_ptr<Term>> owned;
  owned.reserve(4);
  owned.push_back(std::make_unique<Scaled>(p[0]));
  owned.push_back(std::make_unique<Shifted>(p[1], p[2]));
  owned.push_back(std::make_unique<Scaled>(p[1] * p[2]));
  std::pair<const double *, const double *> ends = std::make_pair(p + 3, p + 4);
  std::pair<const double *, const double *> moved = std::move(ends);
  std::optional<const double *> maybe = p + 5;
  std::optional<const double *> taken = std::move(maybe);
  Params net{{p[3], p[4]}};
  const std::function<double(double)> field = [&net](double x) { return net(x); };
  double s = 0.0;
  double x = 0.7;
  for (const auto &t : owned) s += t->eval(x);
  s += *moved.first * *moved.second + **taken;
  s += apply(field, *moved.second);
  return s;
}

int main() {
  enum { NP = 6 };
  double p[NP] = {0.8, -0.3, 1.4, 0.6, -1.1, 0.25}, dp[NP] = {0};
  __enzyme_autodiff((void *)objective, p, dp);
  for (int k = 0; k < NP; ++k) {
    check("moved pointers reverse vs central", dp[k], CENTRAL(objective(p), p[k], p[k]), 1e-6);
    double t[NP] = {0};
    t[k] = 1.0;
    check("moved pointers forward vs reverse", __enzyme_fwddiff((void *)objective, p, t), dp[k], 1e-10);
  }
  return finish();
}

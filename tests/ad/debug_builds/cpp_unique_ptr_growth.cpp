#include "check.h"
// std::unique_ptr<Base>s moved from a std::list into a growing std::vector at -O0: libstdc++ moves each
// unique_ptr's tuple as an i64 (memcpy of 8 bytes) that type analysis sees as a pointer in some calling contexts
// and as Anything in others (the relocated elements); its shadow must move along.  (At -O1 and above the inlined
// relocation loop is still refused: its words are Anything in every context.)
#include <cmath>
#include <list>
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

extern "C" double objective(const double *p) {
  std::list<std::unique_ptr<Term>> terms;
  terms.push_back(std::make_unique<Scaled>(p[0]));
  terms.push_back(std::make_unique<Shifted>(p[1], p[2]));
  std::vector<std::unique_ptr<Term>> owned;
  for (auto &t : terms) owned.push_back(std::move(t));
  owned.push_back(std::make_unique<Scaled>(p[1] * p[2]));
  std::pair<const double *, const double *> ends = std::make_pair(p + 3, p + 4);
  std::pair<const double *, const double *> moved = std::move(ends);
  std::optional<const double *> maybe = p + 5;
  std::optional<const double *> taken = std::move(maybe);
  Params net{{p[3], p[4]}};
  double s = 0.0;
  double x = 0.7;
  for (const auto &t : owned) s += t->eval(x);
  s += *moved.first * *moved.second + **taken;
  s += net(*moved.second);
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

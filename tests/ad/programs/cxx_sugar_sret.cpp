// Forward mode through the C++ interface on functions that return a struct through a hidden pointer (sret):
// a std::vector built from the input and a plain aggregate of five doubles.  enzyme::Duplicated<R> gives the
// result and its tangent, enzyme::DuplicatedNoNeed<R> the tangent alone; checked against central differences.
#include "check.h"

#include <enzyme/enzyme>
#include <vector>

static std::vector<double> features(const std::vector<double> &u) {
  std::vector<double> out(3);
  out[0] = u[0] * u[1];
  out[1] = sin(u[1]) + u[0];
  out[2] = exp(-u[0]) * u[1] * u[1];
  return out;
}

struct Stress {
  double s[5];
};

static Stress stress(double e, double nu) {
  Stress r;
  for (int i = 0; i < 5; i++) r.s[i] = e * (i + 1) / (1 + nu * nu * (i + 1));
  return r;
}

int main() {
  std::vector<double> u{0.7, -1.3}, du{0.4, 1.1};
  auto fd = [&](int k) {  // central difference of features[k] along du
    double h = 1e-6;
    std::vector<double> up{u[0] + h * du[0], u[1] + h * du[1]}, dn{u[0] - h * du[0], u[1] - h * du[1]};
    return (features(up)[k] - features(dn)[k]) / (2 * h);
  };
  auto both = enzyme::autodiff<enzyme::Forward, enzyme::Duplicated<std::vector<double>>>(
      features, enzyme::Duplicated<const std::vector<double> &>(u, du));
  std::vector<double> primal = features(u);
  for (int k = 0; k < 3; k++) {
    check("vector result", enzyme::get<0>(both)[k], primal[k], 1e-15);
    check("vector tangent", enzyme::get<1>(both)[k], fd(k), 1e-6);
  }
  auto only = enzyme::get<0>(enzyme::autodiff<enzyme::Forward, enzyme::DuplicatedNoNeed<std::vector<double>>>(
      features, enzyme::Duplicated<const std::vector<double> &>(u, du)));
  for (int k = 0; k < 3; k++) check("vector tangent alone", only[k], fd(k), 1e-6);

  double e = 2.5, nu = 0.3, p;
  auto ts = enzyme::autodiff<enzyme::Forward, enzyme::Duplicated<Stress>>(
      stress, enzyme::Duplicated<double>(e, 0.0), enzyme::Duplicated<double>(nu, 1.0));
  auto te = enzyme::get<0>(enzyme::autodiff<enzyme::Forward, enzyme::DuplicatedNoNeed<Stress>>(
      stress, enzyme::Duplicated<double>(e, 1.0), enzyme::Duplicated<double>(nu, 0.0)));
  for (int i = 0; i < 5; i++) {
    check("struct result", enzyme::get<0>(ts).s[i], stress(e, nu).s[i], 1e-15);
    check("struct tangent in nu", enzyme::get<1>(ts).s[i], CENTRAL(stress(e, p).s[i], p, nu), 1e-6);
    check("struct tangent in e", te.s[i], CENTRAL(stress(p, nu).s[i], p, e), 1e-6);
  }
  return finish();
}

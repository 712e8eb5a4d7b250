// The C++ interface <enzyme/enzyme> (enzyme::autodiff<Mode>(f, annotations...)) as an engineer would use it:
// a spring-chain energy over std::vector, a lambda capturing material constants, values by reference and
// pointer, and each mode's result tuple; every derivative is checked against central differences.
#include "check.h"

#include <enzyme/enzyme>
#include <vector>

static double spring_energy(const double *x, int n, double k) {
  double e = 0;
  for (int i = 0; i + 1 < n; i++) {
    double stretch = x[i + 1] - x[i] - 1.0;
    e += 0.5 * k * stretch * stretch;
  }
  return e;
}

static double arrhenius(double T, double Ea) { return exp(-Ea / (8.314 * T)); }

static double mean_sq(const std::vector<double> &v) {
  double s = 0;
  for (double x : v) s += x * x;
  return s / v.size();
}

static void rescale(double *v, int n, double a) {
  for (int i = 0; i < n; i++) v[i] = a * sin(v[i]);
}

int main() {
  // Reverse mode, two active scalars: tuple<tuple<dT, dEa>>.
  double T = 310.0, Ea = 5.2e4;
  auto r = enzyme::autodiff<enzyme::Reverse>(arrhenius, enzyme::Active{T}, enzyme::Active{Ea});
  check("dk/dT", enzyme::get<0>(enzyme::get<0>(r)), CENTRAL(arrhenius(T, Ea), T, T), 1e-6);
  check("dk/dEa", enzyme::get<1>(enzyme::get<0>(r)), CENTRAL(arrhenius(T, Ea), Ea, Ea), 1e-6);

  // ReverseWithPrimal: tuple<tuple<derivatives>, result>.
  auto rp = enzyme::autodiff<enzyme::ReverseWithPrimal>(arrhenius, enzyme::Active{T}, enzyme::Const{Ea});
  check("primal with gradient", enzyme::get<1>(rp), arrhenius(T, Ea), 1e-15);
  check("dk/dT with primal", enzyme::get<0>(enzyme::get<0>(rp)), enzyme::get<0>(enzyme::get<0>(r)), 1e-15);

  // Reverse mode through a pointer: the shadow receives the gradient.
  std::vector<double> x{0.0, 1.2, 1.9, 3.4}, dx(4, 0.0);
  enzyme::autodiff<enzyme::Reverse>(spring_energy, enzyme::Duplicated<const double *>{x.data(), dx.data()},
                                    enzyme::Const<int>{4}, enzyme::Const<double>{50.0});
  for (int i = 0; i < 4; i++) {
    double xi = x[i];
    check("dE/dx_i", dx[i], CENTRAL(spring_energy(x.data(), 4, 50.0), x[i], xi), 1e-6);
  }

  // A lambda capturing constants, differentiated in both modes.
  double k1 = 3.0, k2 = 0.25;
  auto model = [k1, k2](double a, double b) { return k1 * a * a * b + k2 * sin(a * b); };
  double a = 0.8, b = -1.3;
  double da = enzyme::get<0>(enzyme::get<0>(enzyme::autodiff<enzyme::Reverse>(model, enzyme::Active{a},
                                                                                 enzyme::Const{b})));
  check("lambda reverse", da, CENTRAL(model(a, b), a, a), 1e-6);
  auto fw = enzyme::autodiff<enzyme::Forward, enzyme::Duplicated<double>>(model, enzyme::Duplicated{a, 1.0},
                                                                            enzyme::Const{b});
  check("lambda forward value", enzyme::get<0>(fw), model(a, b), 1e-15);
  check("lambda forward tangent", enzyme::get<1>(fw), da, 1e-12);
  check("forward default tangent", enzyme::get<0>(enzyme::autodiff<enzyme::Forward>(
                                       model, enzyme::Duplicated{a, 0.0}, enzyme::Duplicated{b, 1.0})),
        CENTRAL(model(a, b), b, b), 1e-6);
  check("forward Const return", enzyme::get<0>(enzyme::autodiff<enzyme::Forward, enzyme::Const<double>>(
                                    model, enzyme::Duplicated{a, 1.0}, enzyme::Const{b})), model(a, b), 1e-15);

  // A const reference to a std::vector: Duplicated<const std::vector<double>&>.
  std::vector<double> v{0.5, -1.5, 2.0}, dv(3, 0.0);
  enzyme::autodiff<enzyme::Reverse>(mean_sq, enzyme::Duplicated<const std::vector<double> &>{v, dv});
  for (int i = 0; i < 3; i++) check("d mean_sq / dv_i", dv[i], 2.0 * v[i] / 3.0, 1e-14);

  // Forward mode of a function writing its output in place (returns nothing): tangents land in the shadow.
  std::vector<double> w{0.3, 1.1}, dw{1.0, -2.0};
  auto none = enzyme::autodiff<enzyme::Forward>(rescale, enzyme::Duplicated<double *>{w.data(), dw.data()},
                                                enzyme::Const<int>{2}, enzyme::Duplicated{4.0, 0.5});
  static_assert(std::tuple_size<decltype(none)>::value == 0, "a void function's forward result is empty");
  check("in-place tangent 0", dw[0], 0.5 * sin(0.3) + 4.0 * cos(0.3) * 1.0, 1e-14);
  check("in-place tangent 1", dw[1], 0.5 * sin(1.1) + 4.0 * cos(1.1) * -2.0, 1e-14);
  return finish();
}

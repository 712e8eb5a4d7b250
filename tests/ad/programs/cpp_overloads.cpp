#include "check.h"
// Overloaded functions, namespaces, static member functions, default arguments, and constexpr constants;
// the differentiated entry points are C++ (mangled) functions.
namespace phys {
constexpr double g = 9.81;
inline double kinetic(double m, double v) { return 0.5 * m * v * v; }
inline double kinetic(double v) { return kinetic(1.0, v); }
struct Units {
  static double to_km(double m, double factor = 1e-3) { return m * factor; }
};
}  // namespace phys
namespace {
double height(double v0, double t = 0.5) { return v0 * t - 0.5 * phys::g * t * t; }
}  // namespace
double total(double m, double v) { return phys::kinetic(m, v) + phys::kinetic(v) + phys::Units::to_km(height(v) * m) + height(v, 0.25); }

int main() {
  double m = 2.0, v = 3.0, w;
  double dm = 0.5 * v * v + 1e-3 * (v * 0.5 - 0.5 * phys::g * 0.25);
  double dv = m * v + v + 1e-3 * 0.5 * m + 0.25;
  check("d/dm reverse", __enzyme_autodiff((void *)total, m, enzyme_const, v), dm, 1e-12);
  check("d/dv reverse", __enzyme_autodiff((void *)total, enzyme_const, m, v), dv, 1e-12);
  check("forward", __enzyme_fwddiff((void *)total, m, 1.0, v, 2.0), dm + 2 * dv, 1e-12);
  check("d/dv central", CENTRAL(total(m, w), w, v), dv, 1e-6);
  return finish();
}

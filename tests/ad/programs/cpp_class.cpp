#include "check.h"
// A class with private state, const and non-const methods, a constructor, and a method that mutates members;
// differentiated through free functions that take the object by pointer.
class Spring {
 public:
  Spring(double k, double rest) : k_(k), rest_(rest), stretched_(0) {}
  double energy(double x) const { double d = x - rest_; return 0.5 * k_ * d * d; }
  void stretch(double by) { rest_ += by; stretched_++; }
  double stiffness() const { return k_; }
 private:
  double k_, rest_;
  int stretched_;
};
double total(Spring *s, double x) { s->stretch(0.1); return s->energy(x) + s->stiffness() * x; }

int main() {
  Spring s(2.5, 1.0), ds(0.0, 0.0);
  double x = 1.7;
  double dx = __enzyme_autodiff((void *)total, enzyme_dup, &s, &ds, x);
  /* rest becomes 1.1: E = k/2 (x - 1.1)^2 + k x */
  check("d/dx through methods", dx, 2.5 * (x - 1.1) + 2.5, 1e-12);
  Spring probe(2.5, 1.0);
  double *raw = reinterpret_cast<double *>(&ds);   // k_ and rest_ are the first two doubles
  check("d/dk (private member shadow)", raw[0], 0.5 * (x - 1.1) * (x - 1.1) + x, 1e-12);
  check("d/drest", raw[1], -2.5 * (x - 1.1), 1e-12);
  Spring t(2.5, 1.0), dt(0.0, 0.0);
  check("forward", __enzyme_fwddiff((void *)total, enzyme_dup, &t, &dt, x, 1.0), dx, 1e-12);
  double v;
  Spring u(2.5, 1.0);
  check("central", dx, CENTRAL(({ Spring w(2.5, 1.0); total(&w, v); }), v, x), 1e-6);
  (void)probe; (void)u;
  return finish();
}

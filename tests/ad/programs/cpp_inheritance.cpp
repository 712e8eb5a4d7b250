#include "check.h"
// Non-virtual inheritance (base fields and methods used from the derived class), CRTP static polymorphism,
// and a derived-to-base pointer conversion; no virtual calls (those are indirect calls).
struct Shape {
  double scale;
  double scaled(double a) const { return scale * a; }
};
struct Circle : Shape {
  double r;
  double area() const { return scaled(3.14159265358979 * r * r); }
};
template <typename D> struct Energy {
  double total(double x) const { return static_cast<const D *>(this)->potential(x) + 0.5 * x * x; }
};
struct Quartic : Energy<Quartic> {
  double a;
  double potential(double x) const { return a * x * x * x * x; }
};
double area_sum(Circle *c, int n) { double s = 0; for (int i = 0; i < n; i++) s += c[i].area(); Shape *b = c; return s + b->scale; }
double quartic_energy(const Quartic *q, double x) { return q->total(x); }

int main() {
  const double pi = 3.14159265358979;
  Circle c[2], dc[2];
  c[0].scale = 2.0; c[0].r = 1.5; c[1].scale = 0.5; c[1].r = 0.8;
  dc[0].scale = dc[0].r = dc[1].scale = dc[1].r = 0.0;
  __enzyme_autodiff((void *)area_sum, enzyme_dup, c, dc, enzyme_const, 2);
  check("d/dscale0 (+ base-pointer read)", dc[0].scale, pi * 1.5 * 1.5 + 1.0, 1e-12);
  check("d/dr0", dc[0].r, 2.0 * 2 * pi * 1.5, 1e-12);
  check("d/dscale1", dc[1].scale, pi * 0.8 * 0.8, 1e-12);
  check("d/dr1", dc[1].r, 0.5 * 2 * pi * 0.8, 1e-12);
  Quartic q;
  q.a = 0.3;
  double x = 1.2, v;
  double dx = __enzyme_autodiff((void *)quartic_energy, enzyme_const, &q, x);
  check("CRTP reverse", dx, 4 * 0.3 * x * x * x + x, 1e-12);
  check("CRTP forward", __enzyme_fwddiff((void *)quartic_energy, enzyme_const, &q, x, 1.0), dx, 1e-12);
  check("CRTP central", CENTRAL(quartic_energy(&q, v), v, x), dx, 1e-6);
  return finish();
}

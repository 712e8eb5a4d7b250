#include "check.h"
/* Virtual calls (C++ vtables): at -O0 they stay indirect, and the derivative dispatches on the object's
   dynamic type to the derivative of the override; optimized builds may devirtualize. */
struct Shape {
  double scale;
  explicit Shape(double s) : scale(s) {}
  virtual double area(double x) const = 0;
  virtual ~Shape() {}
};
struct Square : Shape {
  using Shape::Shape;
  double area(double x) const override { return scale * x * x; }
};
struct Disc : Shape {
  using Shape::Shape;
  double area(double r) const override { return scale * 3.141592653589793 * r * r; }
};
struct Wave : Shape {
  using Shape::Shape;
  double area(double x) const override { return scale * sin(x) * x; }
};

__attribute__((noinline)) double total(const Shape *const *shapes, int n, double x) {
  double s = 0;
  for (int i = 0; i < n; i++) s += (i + 1) * shapes[i]->area(x);
  return s;
}

double f(double x) {
  Square a(2.0);
  Disc b(0.5);
  Wave c(1.5);
  const Shape *shapes[3] = {&a, &b, &c};
  return total(shapes, 3, x);
}

int main(void) {
  double x = 1.3, v;
  double expected = 2.0 * 2 * x + 2 * 0.5 * 3.141592653589793 * 2 * x + 3 * 1.5 * (cos(x) * x + sin(x));
  check("reverse", __enzyme_autodiff((void *)f, x), expected, 1e-12);
  check("forward", __enzyme_fwddiff((void *)f, x, 1.0), expected, 1e-12);
  check("central", CENTRAL(f(v), v, x), expected, 1e-6);
  return finish();
}

// Copies of std::variant<Circle, Rect> (issue 11): a vector of variants grown by emplace_back (relocation
// copies whole 40-byte variants with memcpy), a variant copied into a local and out of the vector, and
// std::visit.  The union's bytes are doubles in every alternative; the index byte and tail padding hold none.
// Checked against the analytic gradient and central differences, reverse and forward.
#include "check.h"
#include <type_traits>
#include <variant>
#include <vector>

struct Circle { double cx, cy, r; };
struct Rect { double x0, y0, w, h; };
using Shape = std::variant<Circle, Rect>;

static double area(const Shape &s) {
  if (const Circle *c = std::get_if<Circle>(&s)) return 3.0 * c->r * c->r;
  const Rect &r = std::get<Rect>(s);
  return r.w * r.h;
}

extern "C" double total(const double *p, int copies) {
  std::vector<Shape> shapes;  // no reserve: growing copies the variants
  for (int k = 0; k < copies; ++k) {
    shapes.emplace_back(Circle{1.0 * k, 0.0, p[0] * (k + 1)});
    shapes.emplace_back(Rect{0.0, 1.0 * k, p[1], p[0] + k});
  }
  Shape first = shapes[0];  // a copy out of the vector
  double s = area(first);
  for (const Shape &sh : shapes)
    s += area(sh) * std::visit([](const auto &v) -> double {
      if constexpr (std::is_same_v<std::decay_t<decltype(v)>, Circle>) return v.cx + 1.0;
      else return v.y0 + 1.0;
    }, sh);
  return s;
}

int main() {
  const int copies = 3;
  double p[2] = {0.6, 1.7}, dp[2] = {0, 0};
  double e0 = 6 * p[0], e1 = 0;
  for (int k = 0; k < copies; ++k) {
    e0 += (k + 1) * (6 * p[0] * (k + 1) * (k + 1) + p[1]);
    e1 += (k + 1) * (p[0] + k);
  }
  double expected[2] = {e0, e1};
  __enzyme_autodiff((void *)total, enzyme_dup, p, dp, enzyme_const, copies);
  for (int q = 0; q < 2; ++q) {
    double t[2] = {0, 0};
    t[q] = 1.0;
    check(q ? "reverse d/dp1" : "reverse d/dp0", dp[q], expected[q], 1e-12);
    check(q ? "forward d/dp1" : "forward d/dp0",
          __enzyme_fwddiff((void *)total, enzyme_dup, p, t, enzyme_const, copies), expected[q], 1e-12);
    check(q ? "central d/dp1" : "central d/dp0", CENTRAL(total(p, copies), p[q], p[q]), expected[q], 1e-6);
  }
  return finish();
}

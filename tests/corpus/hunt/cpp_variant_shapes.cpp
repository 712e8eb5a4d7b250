#include "hunt.h"
/* Radiative view between a set of shapes held as std::variant<Circle, Rect, Ellipse> in a std::vector,
   properties computed with std::visit over an overloaded lambda set (area, perimeter, centroid distance),
   std::holds_alternative / std::get_if to treat circles specially.  Objective: a sum of shape-pair
   coupling terms  A_i A_j / (d_ij^2 + P_i P_j / 10).  Inputs: a radius, a rectangle's width, an ellipse's
   aspect ratio. */
#include <cmath>
#include <variant>
#include <vector>

struct Circle { double cx, cy, r; };
struct Rect { double x0, y0, w, h; };
struct Ellipse { double cx, cy, a, b; };
using Shape = std::variant<Circle, Rect, Ellipse>;

template <class... Ts> struct overloaded : Ts... { using Ts::operator()...; };
template <class... Ts> overloaded(Ts...) -> overloaded<Ts...>;

static double area(const Shape& s) {
  return std::visit(overloaded{[](const Circle& c) { return M_PI * c.r * c.r; },
                               [](const Rect& r) { return r.w * r.h; },
                               [](const Ellipse& e) { return M_PI * e.a * e.b; }}, s);
}

static double perimeter(const Shape& s) {
  return std::visit(overloaded{[](const Circle& c) { return 2.0 * M_PI * c.r; },
                               [](const Rect& r) { return 2.0 * (r.w + r.h); },
                               [](const Ellipse& e) {  // Ramanujan
                                 double h = (e.a - e.b) * (e.a - e.b) / ((e.a + e.b) * (e.a + e.b));
                                 return M_PI * (e.a + e.b) * (1.0 + 3.0 * h / (10.0 + std::sqrt(4.0 - 3.0 * h)));
                               }}, s);
}

static std::pair<double, double> centroid(const Shape& s) {
  if (const Circle* c = std::get_if<Circle>(&s)) return {c->cx, c->cy};
  if (std::holds_alternative<Rect>(s)) {
    const Rect& r = std::get<Rect>(s);
    return {r.x0 + 0.5 * r.w, r.y0 + 0.5 * r.h};
  }
  const Ellipse& e = std::get<Ellipse>(s);
  return {e.cx, e.cy};
}

extern "C" double coupling(const double* p, int copies) {
  std::vector<Shape> shapes;
  for (int k = 0; k < copies; ++k) {
    double off = 1.5 * k;
    shapes.emplace_back(Circle{off, 0.0, p[0]});
    shapes.emplace_back(Rect{off + 0.5, 1.0, p[1], 0.4 + 0.1 * k});
    shapes.emplace_back(Ellipse{off - 0.3, -1.2, 0.6, 0.6 * p[2]});
  }
  double total = 0.0;
  for (std::size_t i = 0; i < shapes.size(); ++i)
    for (std::size_t j = i + 1; j < shapes.size(); ++j) {
      auto [xi, yi] = centroid(shapes[i]);
      auto [xj, yj] = centroid(shapes[j]);
      double d2 = (xi - xj) * (xi - xj) + (yi - yj) * (yi - yj);
      double boost = std::holds_alternative<Circle>(shapes[i]) ? 1.5 : 1.0;
      total += boost * area(shapes[i]) * area(shapes[j]) / (d2 + perimeter(shapes[i]) * perimeter(shapes[j]) / 10.0);
    }
  return total;
}

static double p[3] = {0.35, 0.8, 0.5};

int main() {
  const int copies = 3;
  double fd[3], ad[3], dp[3] = {0};
  for (int q = 0; q < 3; ++q) fd[q] = HUNT_FD(coupling(p, copies), p[q]);
#ifdef MODE_REV
  __enzyme_autodiff((void*)coupling, enzyme_dup, p, dp, enzyme_const, copies);
  hunt_check_vec("grad", dp, fd, 3);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < 3; ++q) {
    dp[q] = 1.0;
    ad[q] = __enzyme_fwddiff((void*)coupling, enzyme_dup, p, dp, enzyme_const, copies);
    dp[q] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, 3);
#endif
  (void)ad;
  return hunt_finish();
}

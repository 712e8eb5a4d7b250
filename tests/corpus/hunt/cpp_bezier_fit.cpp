#include "hunt.h"
/* Curve fitting for a CAD sketch: a `Point2<T>` template with operator overloading, a cubic-per-segment
   composite Bezier curve evaluated by de Casteljau on a std::vector of control points (a recursive
   template helper), a uniform cubic B-spline through the same control polygon evaluated with a knot
   search by std::upper_bound, sample parameters by chord length (std::adjacent_difference, std::partial_sum,
   std::transform with a lambda normalizing to [0, 1]), squared distances reduced with std::inner_product,
   and a bending-energy penalty from second differences.  std::tuple return unpacked with structured
   bindings.  Inputs: the interior control points (x and y). */
#include <algorithm>
#include <cmath>
#include <functional>
#include <iostream>
#include <numeric>
#include <stdexcept>
#include <tuple>
#include <vector>

template <typename T>
struct Point2 {
  T x{}, y{};
  Point2 operator+(const Point2 &o) const { return {x + o.x, y + o.y}; }
  Point2 operator-(const Point2 &o) const { return {x - o.x, y - o.y}; }
  friend Point2 operator*(T s, const Point2 &p) { return {s * p.x, s * p.y}; }
  T norm2() const { return x * x + y * y; }
};
using P2 = Point2<double>;

template <typename T>
static Point2<T> lerp(const Point2<T> &a, const Point2<T> &b, T t) {
  return (1 - t) * a + t * b;
}

// de Casteljau on a copy of the control points of one segment
template <typename T>
static Point2<T> de_casteljau(std::vector<Point2<T>> pts, T t) {
  for (std::size_t level = pts.size() - 1; level > 0; --level)
    for (std::size_t i = 0; i < level; ++i) pts[i] = lerp(pts[i], pts[i + 1], t);
  return pts.front();
}

class CompositeBezier {
 public:
  explicit CompositeBezier(std::vector<P2> ctrl) : ctrl_(std::move(ctrl)) {
    if ((ctrl_.size() - 1) % 3 != 0) throw std::invalid_argument("composite cubic needs 3k+1 control points");
  }
  std::size_t segments() const { return (ctrl_.size() - 1) / 3; }
  P2 operator()(double u) const {  // u in [0, 1]
    const double s = std::clamp(u, 0.0, 1.0) * segments();
    const std::size_t seg = std::min<std::size_t>(static_cast<std::size_t>(s), segments() - 1);
    const std::vector<P2> local(ctrl_.begin() + 3 * seg, ctrl_.begin() + 3 * seg + 4);
    return de_casteljau(local, s - seg);
  }

 private:
  std::vector<P2> ctrl_;
};

class UniformBSpline {
 public:
  explicit UniformBSpline(const std::vector<P2> &ctrl) : ctrl_(ctrl) {
    for (std::size_t i = 0; i + 3 < ctrl.size() + 1; ++i) knots_.push_back(double(i) / (ctrl.size() - 3));
  }
  P2 operator()(double u) const {
    auto it = std::upper_bound(knots_.begin(), knots_.end(), u);
    std::size_t span = std::clamp<std::size_t>(it - knots_.begin(), 1, knots_.size() - 1) - 1;
    const double t = (u - knots_[span]) / (knots_[span + 1] - knots_[span]);
    const double t2 = t * t, t3 = t2 * t;
    const double b0 = (1 - t) * (1 - t) * (1 - t) / 6, b1 = (3 * t3 - 6 * t2 + 4) / 6;
    const double b2 = (-3 * t3 + 3 * t2 + 3 * t + 1) / 6, b3 = t3 / 6;
    return b0 * ctrl_[span] + b1 * ctrl_[span + 1] + b2 * ctrl_[span + 2] + b3 * ctrl_[span + 3];
  }

 private:
  const std::vector<P2> &ctrl_;
  std::vector<double> knots_;
};

static std::vector<P2> measured_profile() {
  std::vector<P2> pts;
  for (int i = 0; i <= 40; ++i) {
    const double s = i / 40.0;
    pts.push_back({3.0 * s + 0.1 * std::sin(9 * s), std::sin(2.5 * s) + 0.3 * s * s + 0.02 * std::cos(23 * s)});
  }
  return pts;
}

static std::vector<double> chord_parameters(const std::vector<P2> &pts) {
  std::vector<double> seg(pts.size());
  std::vector<double> xs(pts.size()), ys(pts.size());
  std::transform(pts.begin(), pts.end(), xs.begin(), [](const P2 &p) { return p.x; });
  std::transform(pts.begin(), pts.end(), ys.begin(), [](const P2 &p) { return p.y; });
  std::vector<double> dx(pts.size()), dy(pts.size());
  std::adjacent_difference(xs.begin(), xs.end(), dx.begin());
  std::adjacent_difference(ys.begin(), ys.end(), dy.begin());
  std::transform(dx.begin() + 1, dx.end(), dy.begin() + 1, seg.begin() + 1, [](double a, double b) { return std::hypot(a, b); });
  seg[0] = 0.0;
  std::partial_sum(seg.begin(), seg.end(), seg.begin());
  const double total = seg.back();
  std::transform(seg.begin(), seg.end(), seg.begin(), [total](double s) { return s / total; });
  return seg;
}

template <typename Curve>
static std::tuple<double, double> misfit(const Curve &curve, const std::vector<P2> &data, const std::vector<double> &u) {
  std::vector<double> r2(data.size());
  for (std::size_t i = 0; i < data.size(); ++i) r2[i] = (curve(u[i]) - data[i]).norm2();
  const std::vector<double> w(data.size(), 1.0);
  const double sum = std::inner_product(r2.begin(), r2.end(), w.begin(), 0.0);
  return {sum, *std::max_element(r2.begin(), r2.end())};
}

extern "C" double curve_fit_objective(const double *interior, int n_interior) {
  const std::vector<P2> data = measured_profile();
  std::vector<P2> ctrl{data.front()};
  for (int i = 0; i < n_interior; ++i) ctrl.push_back({interior[2 * i], interior[2 * i + 1]});
  ctrl.push_back(data.back());
  const std::vector<double> u = chord_parameters(data);
  const auto [bez_sum, bez_max] = misfit(CompositeBezier(ctrl), data, u);
  const auto [bsp_sum, bsp_max] = misfit(UniformBSpline(ctrl), data, u);
  double bending = 0.0;
  for (std::size_t i = 1; i + 1 < ctrl.size(); ++i) bending += (ctrl[i - 1] - 2.0 * ctrl[i] + ctrl[i + 1]).norm2();
  return bez_sum + 0.5 * bsp_sum + 0.1 * (bez_max + bsp_max) + 1e-3 * bending;
}

int main() {
  enum { NI = 5, NP = 2 * NI };
  double c[NP];
  for (int i = 0; i < NI; ++i) {
    const double s = (i + 1.0) / (NI + 1);
    c[2 * i] = 3.0 * s + 0.05 * std::cos(5.0 * i);
    c[2 * i + 1] = std::sin(2.5 * s) + 0.2 * s + 0.1 * std::sin(3.0 * i);
  }
  double fd[NP], ad[NP], dc[NP] = {0};
  for (int k = 0; k < NP; ++k) fd[k] = HUNT_FD(curve_fit_objective(c, NI), c[k]);
  std::cout << "objective " << curve_fit_objective(c, NI) << "\n";
#ifdef MODE_REV
  __enzyme_autodiff((void *)curve_fit_objective, enzyme_dup, c, dc, enzyme_const, (int)NI);
  for (int k = 0; k < NP; ++k) ad[k] = dc[k];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; ++k) {
    dc[k] = 1.0;
    ad[k] = __enzyme_fwddiff((void *)curve_fit_objective, enzyme_dup, c, dc, enzyme_const, (int)NI);
    dc[k] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

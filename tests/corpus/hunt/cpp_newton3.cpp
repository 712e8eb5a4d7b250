#include "hunt.h"
/* Chemical equilibrium of three coupled reactions solved by Newton's method on a 3x3 system: the state and
   Jacobian as std::array<double,3> and std::array<std::array<double,3>,3>, the linear solve by Cramer's rule
   in a function returning std::pair<std::array<double,3>, double> (solution and determinant) unpacked with
   structured bindings, a fixed number of damped iterations, then the extents summed into an objective.
   Inputs: the three equilibrium constants (as logs) and the feed amount. */
#include <array>
#include <cmath>
#include <utility>

using Vec3 = std::array<double, 3>;
using Mat3 = std::array<std::array<double, 3>, 3>;

static double det3(const Mat3& a) {
  return a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
         a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
}

static std::pair<Vec3, double> cramer(const Mat3& a, const Vec3& b) {
  double d = det3(a);
  Vec3 x{};
  for (int k = 0; k < 3; ++k) {
    Mat3 ak = a;
    for (int r = 0; r < 3; ++r) ak[r][k] = b[r];
    x[k] = det3(ak) / d;
  }
  return {x, d};
}

struct Reaction { std::array<double, 4> nu; };  // stoichiometry of species A, B, C, D
static const std::array<Reaction, 3> reactions = {{{{-1, -1, 1, 0}}, {{0, -1, -1, 1}}, {{-1, 0, 0, 1}}}};

static std::array<double, 4> amounts(const Vec3& xi, double feed) {
  std::array<double, 4> n = {feed, 1.5 * feed, 0.1, 0.1};
  for (int r = 0; r < 3; ++r)
    for (int s = 0; s < 4; ++s) n[s] += reactions[r].nu[s] * xi[r];
  return n;
}

/* residual: log K_r - sum nu log(x_s) for mole fractions x */
static Vec3 residual(const Vec3& xi, const double* lnK, double feed) {
  auto n = amounts(xi, feed);
  double total = n[0] + n[1] + n[2] + n[3];
  Vec3 f{};
  for (int r = 0; r < 3; ++r) {
    double s = lnK[r];
    for (int q = 0; q < 4; ++q) s -= reactions[r].nu[q] * std::log(n[q] / total);
    f[r] = s;
  }
  return f;
}

extern "C" double equilibrium(const double* p) {
  const double* lnK = p;
  const double feed = p[3];
  Vec3 xi = {0.2 * feed, 0.1 * feed, 0.05 * feed};
  for (int it = 0; it < 25; ++it) {
    Vec3 f = residual(xi, lnK, feed);
    auto n = amounts(xi, feed);
    double total = n[0] + n[1] + n[2] + n[3];
    Mat3 J{};
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) {
        double s = 0.0, dtot = 0.0;
        for (int q = 0; q < 4; ++q) dtot += reactions[c].nu[q];
        for (int q = 0; q < 4; ++q) s -= reactions[r].nu[q] * (reactions[c].nu[q] / n[q] - dtot / total);
        J[r][c] = s;
      }
    Vec3 rhs = {-f[0], -f[1], -f[2]};
    auto [step, d] = cramer(J, rhs);
    if (std::fabs(d) < 1e-300) break;
    double lam = 1.0;
    auto trial = amounts({xi[0] + step[0], xi[1] + step[1], xi[2] + step[2]}, feed);
    for (double v : trial)
      if (v <= 0.0) lam = 0.5;
    for (int k = 0; k < 3; ++k) xi[k] += lam * step[k];
  }
  auto n = amounts(xi, feed);
  const auto& [a, b, c, dd] = n;
  return c + 2.0 * dd + 0.1 * (a * b);
}

static double p[4] = {1.2, 0.5, -0.3, 1.0};

int main() {
  double fd[4], ad[4], dp[4] = {0};
  for (int q = 0; q < 4; ++q) fd[q] = HUNT_FD(equilibrium(p), p[q]);
#ifdef MODE_REV
  __enzyme_autodiff((void*)equilibrium, enzyme_dup, p, dp);
  hunt_check_vec("grad", dp, fd, 4);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < 4; ++q) {
    dp[q] = 1.0;
    ad[q] = __enzyme_fwddiff((void*)equilibrium, enzyme_dup, p, dp);
    dp[q] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, 4);
#endif
  (void)ad;
  return hunt_finish();
}

#include "hunt.h"
/* Six-axis robot arm: Denavit-Hartenberg links (a `DHLink` struct with a std::string name), a small `Mat4`
   class over std::array<double, 16> with operator* and operator(), an `Arm` class owning a
   std::vector<DHLink> that chains the link transforms, joint positions collected in a std::vector, and an
   inverse-kinematics objective: tool position and approach-axis residuals against a target, a soft
   obstacle-clearance penalty over every joint (std::inner_product on std::array), joint-limit penalty with
   std::clamp.  Input validation throws std::invalid_argument (never on this path).
   Inputs: the six joint angles and the six link lengths. */
#include <algorithm>
#include <array>
#include <cmath>
#include <iostream>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using Vec3 = std::array<double, 3>;

class Mat4 {
 public:
  Mat4() : m_{} {}
  static Mat4 identity() {
    Mat4 r;
    for (int i = 0; i < 4; ++i) r(i, i) = 1.0;
    return r;
  }
  double &operator()(int i, int j) { return m_[4 * i + j]; }
  double operator()(int i, int j) const { return m_[4 * i + j]; }
  Mat4 operator*(const Mat4 &o) const {
    Mat4 r;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        double s = 0.0;
        for (int k = 0; k < 4; ++k) s += (*this)(i, k) * o(k, j);
        r(i, j) = s;
      }
    return r;
  }
  Vec3 origin() const { return {m_[3], m_[7], m_[11]}; }
  Vec3 z_axis() const { return {m_[2], m_[6], m_[10]}; }

 private:
  std::array<double, 16> m_;
};

struct DHLink {
  std::string name;
  double a, alpha, d, offset;
  double q_min, q_max;

  Mat4 transform(double q) const {
    const double th = q + offset;
    const double ct = std::cos(th), st = std::sin(th), ca = std::cos(alpha), sa = std::sin(alpha);
    Mat4 T;
    T(0, 0) = ct; T(0, 1) = -st * ca; T(0, 2) = st * sa;  T(0, 3) = a * ct;
    T(1, 0) = st; T(1, 1) = ct * ca;  T(1, 2) = -ct * sa; T(1, 3) = a * st;
    T(2, 1) = sa; T(2, 2) = ca;       T(2, 3) = d;
    T(3, 3) = 1.0;
    return T;
  }
};

class Arm {
 public:
  explicit Arm(std::vector<DHLink> links) : links_(std::move(links)) {
    if (links_.empty()) throw std::invalid_argument("arm without links");
  }
  std::size_t dof() const { return links_.size(); }
  const DHLink &link(std::size_t i) const { return links_.at(i); }

  Mat4 forward(const double *q, std::vector<Vec3> *joints = nullptr) const {
    Mat4 T = Mat4::identity();
    if (joints) joints->clear();
    for (std::size_t i = 0; i < links_.size(); ++i) {
      T = T * links_[i].transform(q[i]);
      if (joints) joints->push_back(T.origin());
    }
    return T;
  }

 private:
  std::vector<DHLink> links_;
};

static Arm make_arm(const double *lengths, int n) {
  if (n != 6) throw std::invalid_argument("expected 6 links, got " + std::to_string(n));
  const double alphas[6] = {M_PI / 2, 0.0, M_PI / 2, -M_PI / 2, M_PI / 2, 0.0};
  const double offsets[6] = {0.0, -M_PI / 2, 0.0, 0.0, 0.0, 0.0};
  std::vector<DHLink> links;
  links.reserve(n);
  for (int i = 0; i < n; ++i) {
    // revolute joints: odd links carry an offset along z, even ones along x
    const bool along_z = (i == 0 || i == 3 || i == 5);
    links.push_back(DHLink{"joint" + std::to_string(i + 1), along_z ? 0.0 : lengths[i], alphas[i],
                           along_z ? lengths[i] : 0.0, offsets[i], -2.8, 2.8});
  }
  return Arm(std::move(links));
}

static double sq_dist(const Vec3 &a, const Vec3 &b) {
  Vec3 d;
  std::transform(a.begin(), a.end(), b.begin(), d.begin(), std::minus<double>());
  return std::inner_product(d.begin(), d.end(), d.begin(), 0.0);
}

static std::string last_report;

extern "C" double ik_objective(const double *q, const double *lengths, int n) {
  const Arm arm = make_arm(lengths, n);
  std::vector<Vec3> joints;
  const Mat4 tool = arm.forward(q, &joints);
  const Vec3 target{0.45, 0.20, 0.55};
  const Vec3 approach{0.0, 0.0, -1.0};
  const Vec3 z = tool.z_axis();
  const double pos_err = sq_dist(tool.origin(), target);
  const double dir_err = 1.0 - std::inner_product(z.begin(), z.end(), approach.begin(), 0.0);
  // soft clearance from a spherical obstacle, joints only
  const Vec3 obstacle{0.25, -0.1, 0.3};
  const double radius = 0.15;
  double clearance = 0.0;
  for (const Vec3 &p : joints) {
    const double r = std::sqrt(sq_dist(p, obstacle));
    clearance += std::exp(-8.0 * (r - radius));
  }
  double limits = 0.0;
  for (std::size_t i = 0; i < arm.dof(); ++i) {
    const DHLink &L = arm.link(i);
    const double inside = std::clamp(q[i], L.q_min + 0.3, L.q_max - 0.3);
    limits += (q[i] - inside) * (q[i] - inside);
  }
  std::ostringstream log;
  log << "pos_err=" << pos_err << " dir_err=" << dir_err << " joints=" << joints.size();
  last_report = log.str();
  return pos_err + 0.1 * dir_err + 0.01 * clearance + 10.0 * limits;
}

int main() {
  double q[6] = {0.3, -0.4, 0.9, 0.2, -0.7, 0.5};
  double len[6] = {0.33, 0.26, 0.015, 0.29, 0.0, 0.07};
  len[4] = 0.02;
  q[2] = 2.65;  // joint 3 beyond its soft limit: the penalty is active
  const int n = 6;
  enum { NP = 12 };
  double *prim[NP];
  for (int i = 0; i < 6; ++i) prim[i] = &q[i], prim[6 + i] = &len[i];
  double fd[NP], ad[NP], dq[6] = {0}, dl[6] = {0};
  for (int k = 0; k < NP; ++k) fd[k] = HUNT_FD(ik_objective(q, len, n), *prim[k]);
  std::cout << "objective " << ik_objective(q, len, n) << " (" << last_report << ")\n";
#ifdef MODE_REV
  __enzyme_autodiff((void *)ik_objective, enzyme_dup, q, dq, enzyme_dup, len, dl, enzyme_const, n);
  for (int i = 0; i < 6; ++i) ad[i] = dq[i], ad[6 + i] = dl[i];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; ++k) {
    double *seed = k < 6 ? &dq[k] : &dl[k - 6];
    *seed = 1.0;
    ad[k] = __enzyme_fwddiff((void *)ik_objective, enzyme_dup, q, dq, enzyme_dup, len, dl, enzyme_const, n);
    *seed = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

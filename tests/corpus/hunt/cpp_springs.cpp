#include "hunt.h"
/* Idiomatic C++17: a mass-spring network as a class holding std::vector<Vec3> and a vector of bonds,
   structured bindings, range-for, lambdas passed to std::accumulate / std::for_each, a templated
   small-vector type with operators, std::optional for an optional external field.  Objective: total
   potential energy after a few steps of damped relaxation (gradient descent with a fixed step). */
#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <optional>
#include <utility>
#include <vector>

extern "C" {
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);
}

template <typename T>
struct Vec3 {
  T x{}, y{}, z{};
  Vec3 operator+(const Vec3 &o) const { return {x + o.x, y + o.y, z + o.z}; }
  Vec3 operator-(const Vec3 &o) const { return {x - o.x, y - o.y, z - o.z}; }
  Vec3 operator*(T s) const { return {x * s, y * s, z * s}; }
  Vec3 &operator+=(const Vec3 &o) { x += o.x; y += o.y; z += o.z; return *this; }
  T dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
  T norm() const { return std::sqrt(dot(*this)); }
};
using V = Vec3<double>;

struct Bond {
  int i, j;
  double rest, stiffness;
};

class SpringNetwork {
 public:
  SpringNetwork(const double *coords, int n, std::vector<Bond> bonds, std::optional<V> field)
      : bonds_(std::move(bonds)), field_(field) {
    pos_.reserve(n);
    for (int k = 0; k < n; ++k) pos_.push_back(V{coords[3 * k], coords[3 * k + 1], coords[3 * k + 2]});
  }

  double energy() const {
    double e = std::accumulate(bonds_.begin(), bonds_.end(), 0.0, [&](double acc, const Bond &b) {
      double stretch = (pos_[b.j] - pos_[b.i]).norm() - b.rest;
      return acc + 0.5 * b.stiffness * stretch * stretch;
    });
    if (field_)
      for (const auto &p : pos_) e -= field_->dot(p);
    return e;
  }

  std::vector<V> gradient() const {
    std::vector<V> g(pos_.size());
    for (const auto &[i, j, rest, k] : bonds_) {
      V d = pos_[j] - pos_[i];
      double len = d.norm();
      V f = d * (k * (len - rest) / len);
      g[j] += f;
      g[i] += f * -1.0;
    }
    if (field_) std::for_each(g.begin(), g.end(), [this](V &gi) { gi += *field_ * -1.0; });
    return g;
  }

  void relax(double step, int iters) {
    for (int it = 0; it < iters; ++it) {
      auto g = gradient();
      for (std::size_t k = 0; k < pos_.size(); ++k) pos_[k] += g[k] * -step;
    }
  }

 private:
  std::vector<V> pos_;
  std::vector<Bond> bonds_;
  std::optional<V> field_;
};

static std::vector<Bond> chain_bonds(int n, const double *stiff) {
  std::vector<Bond> bonds;
  for (int k = 0; k + 1 < n; ++k) bonds.push_back({k, k + 1, 1.0, stiff[k]});
  for (int k = 0; k + 2 < n; ++k) bonds.push_back({k, k + 2, 1.8, 0.5 * stiff[k]});
  return bonds;
}

extern "C" double relaxed_energy(const double *coords, const double *stiff, int n, double step, int iters) {
  SpringNetwork net(coords, n, chain_bonds(n, stiff), V{0.0, 0.0, -0.1});
  net.relax(step, iters);
  return net.energy();
}

enum { N = 6, NP = 6 };
static double coords[3 * N], stiff[N];

int main() {
  for (int k = 0; k < N; ++k) {
    coords[3 * k] = 1.1 * k + 0.05 * std::sin(3.0 * k);
    coords[3 * k + 1] = 0.2 * std::cos(1.3 * k);
    coords[3 * k + 2] = 0.1 * k * k;
    stiff[k] = 2.0 + 0.3 * k;
  }
  double step = 0.05;
  int iters = 8;
  double *prim[NP] = {&coords[0], &coords[4], &coords[11], &coords[17], &stiff[0], &stiff[3]};
  double fd[NP + 1], ad[NP + 1];
  for (int q = 0; q < NP; q++) fd[q] = HUNT_FD(relaxed_energy(coords, stiff, N, step, iters), *prim[q]);
  fd[NP] = HUNT_FD(relaxed_energy(coords, stiff, N, step, iters), step);
  double dcoords[3 * N] = {0}, dstiff[N] = {0};
  double *shad[NP] = {&dcoords[0], &dcoords[4], &dcoords[11], &dcoords[17], &dstiff[0], &dstiff[3]};
#ifdef MODE_REV
  ad[NP] = __enzyme_autodiff((void *)relaxed_energy, enzyme_dup, coords, dcoords, enzyme_dup, stiff, dstiff,
                             enzyme_const, N, step, enzyme_const, iters);
  for (int q = 0; q < NP; q++) ad[q] = *shad[q];
  hunt_check_vec("grad", ad, fd, NP + 1);
#endif
#ifdef MODE_FWD
  for (int q = 0; q <= NP; q++) {
    if (q < NP) *shad[q] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)relaxed_energy, enzyme_dup, coords, dcoords, enzyme_dup, stiff, dstiff,
                             enzyme_const, N, step, q == NP ? 1.0 : 0.0, enzyme_const, iters);
    if (q < NP) *shad[q] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP + 1);
#endif
#ifdef MODE_BATCH
  double dcoords2[3 * N] = {0}, dstiff2[N] = {0};
  double *shad2[NP] = {&dcoords2[0], &dcoords2[4], &dcoords2[11], &dcoords2[17], &dstiff2[0], &dstiff2[3]};
  for (int q = 0; q < NP; q += 2) {
    *shad[q] = 1.0; *shad2[q + 1] = 1.0;
    v2 t = __enzyme_fwddiff_v2((void *)relaxed_energy, enzyme_width, 2, enzyme_dup, coords, dcoords, dcoords2,
                               enzyme_dup, stiff, dstiff, dstiff2, enzyme_const, N, step, 0.0, 0.0, enzyme_const,
                               iters);
    *shad[q] = 0.0; *shad2[q + 1] = 0.0;
    ad[q] = t.d[0]; ad[q + 1] = t.d[1];
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_SPLIT
  aug_t r = __enzyme_augmentfwd((void *)relaxed_energy, enzyme_dup, coords, dcoords, enzyme_dup, stiff, dstiff,
                                enzyme_const, N, step, enzyme_const, iters);
  hunt_check("primal", r.primal, relaxed_energy(coords, stiff, N, step, iters));
  ad[NP] = __enzyme_reverse((void *)relaxed_energy, enzyme_dup, coords, dcoords, enzyme_dup, stiff, dstiff,
                            enzyme_const, N, step, enzyme_const, iters, 1.0, r.tape);
  for (int q = 0; q < NP; q++) ad[q] = *shad[q];
  hunt_check_vec("grad", ad, fd, NP + 1);
#endif
  return hunt_finish();
}

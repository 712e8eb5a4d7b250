// std::vector of a struct mixing doubles and an int: push_back (reallocation relocates the elements with
// memmove), copy construction, assignment, and a std::optional of the struct (tail padding, a payload
// union).  At -O0 the copies are in libstdc++'s helpers (std::_Construct<Particle, Particle&>,
// std::__relocate_a_1<Particle, Particle>); after inlining they are memmoves of end - begin bytes.
// Derivatives against central differences, reverse and forward.
#include <optional>
#include <vector>
#include "check.h"

struct Particle { double x[2]; int id; double m; };

double energy(const double *p, int n) {
  std::vector<Particle> v;
  for (int i = 0; i < n; i++) v.push_back(Particle{{p[i], 0.5 * p[i]}, i, 1.0 + i});
  std::vector<Particle> w = v;
  std::vector<Particle> z;
  z = w;
  std::optional<Particle> best;
  double e = 0;
  for (const Particle &q : z) {
    e += q.m * q.x[0] * q.x[1] + 0.1 * q.id;
    if (!best || q.x[0] > best->x[0]) best = q;
  }
  return e + (best ? best->m * best->x[0] : 0.0);
}

struct V3 { double x, y, z; };

// A class holding a std::optional<V3> by value: copying it copies the payload, the engaged flag and the
// optional's tail padding (an [N x i8] array in the IR) in one memcpy.
class Field {
 public:
  explicit Field(std::optional<V3> f) : f_(f) {}
  double dot(const V3 &p) const { return f_ ? f_->x * p.x + f_->y * p.y + f_->z * p.z : 0.0; }

 private:
  std::optional<V3> f_;
};

__attribute__((noinline)) static Field make_field(std::optional<V3> f) { return Field(f); }

double field_energy(const double *p, int n) {
  Field field = make_field(V3{p[0], 2.0 * p[1], p[0] * p[2]});
  double e = 0;
  for (int i = 0; i < n; i++) e += field.dot(V3{p[i], 1.0, -p[i]});
  return e;
}

int main() {
  double p[4] = {0.3, 0.9, -0.4, 0.7}, d[4] = {0}, dp[4] = {0};
  __enzyme_autodiff((void *)energy, enzyme_dup, p, d, enzyme_const, 4);
  for (int k = 0; k < 4; k++) {
    double fd = CENTRAL(energy(p, 4), p[k], p[k]);
    char what[32];
    snprintf(what, sizeof what, "reverse d%d", k);
    check(what, d[k], fd, 1e-6);
    dp[k] = 1.0;
    snprintf(what, sizeof what, "forward d%d", k);
    check(what, __enzyme_fwddiff((void *)energy, enzyme_dup, p, dp, enzyme_const, 4), fd, 1e-6);
    dp[k] = 0.0;
  }
  for (int k = 0; k < 4; k++) {
    double g[4] = {0}, t[4] = {0};
    __enzyme_autodiff((void *)field_energy, enzyme_dup, p, g, enzyme_const, 4);
    double fd = CENTRAL(field_energy(p, 4), p[k], p[k]);
    char what[32];
    snprintf(what, sizeof what, "field reverse d%d", k);
    check(what, g[k], fd, 1e-6);
    t[k] = 1.0;
    snprintf(what, sizeof what, "field forward d%d", k);
    check(what, __enzyme_fwddiff((void *)field_energy, enzyme_dup, p, t, enzyme_const, 4), fd, 1e-6);
  }
  return finish();
}

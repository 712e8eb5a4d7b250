#include "hunt.h"
/* Hanging cloth by position-based dynamics: a `Vec3` class with operator overloading, particles in a
   std::vector<Particle> (position, previous position, inverse mass), constraints in a
   std::list<std::unique_ptr<Constraint>> behind an abstract base with virtual project() (distance springs
   along the structure and shear diagonals, pins at the top corners), Verlet steps with gravity, wind drag
   and damping, several projection sweeps per step, range-for over the list, a static instance counter.
   Objective: the mean height of the bottom row plus the kinetic energy at the end.
   Inputs: stiffness of structural and shear springs, wind speed, damping, gravity. */
#include <cmath>
#include <list>
#include <memory>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

struct Vec3 {
  double x = 0, y = 0, z = 0;
  Vec3() = default;
  Vec3(double x_, double y_, double z_) : x(x_), y(y_), z(z_) {}
  Vec3 operator+(const Vec3 &o) const { return {x + o.x, y + o.y, z + o.z}; }
  Vec3 operator-(const Vec3 &o) const { return {x - o.x, y - o.y, z - o.z}; }
  Vec3 operator*(double s) const { return {s * x, s * y, s * z}; }
  Vec3 &operator+=(const Vec3 &o) {
    x += o.x; y += o.y; z += o.z;
    return *this;
  }
  Vec3 &operator-=(const Vec3 &o) {
    x -= o.x; y -= o.y; z -= o.z;
    return *this;
  }
  double dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
  double norm() const { return std::sqrt(dot(*this)); }
};

struct Particle {
  Vec3 pos, prev;
  double inv_mass;
};

class Constraint {
 public:
  Constraint() { ++count; }
  virtual ~Constraint() = default;
  virtual void project(std::vector<Particle> &p) const = 0;
  virtual std::string kind() const = 0;
  static int count;
};
int Constraint::count = 0;

class DistanceConstraint : public Constraint {
 public:
  DistanceConstraint(int a, int b, double rest, double stiffness) : a_(a), b_(b), rest_(rest), k_(stiffness) {}
  void project(std::vector<Particle> &p) const override {
    Particle &pa = p[a_], &pb = p[b_];
    const double w = pa.inv_mass + pb.inv_mass;
    if (w == 0.0) return;
    const Vec3 d = pb.pos - pa.pos;
    const double len = d.norm();
    const Vec3 corr = d * (k_ * (len - rest_) / (len * w));
    pa.pos += corr * pa.inv_mass;
    pb.pos -= corr * pb.inv_mass;
  }
  std::string kind() const override { return "distance"; }

 private:
  int a_, b_;
  double rest_, k_;
};

class PinConstraint : public Constraint {
 public:
  PinConstraint(int i, const Vec3 &at) : i_(i), at_(at) {}
  void project(std::vector<Particle> &p) const override { p[i_].pos = at_; }
  std::string kind() const override { return "pin"; }

 private:
  int i_;
  Vec3 at_;
};

class Cloth {
 public:
  Cloth(int nx, int ny, double spacing, double k_struct, double k_shear) : nx_(nx), ny_(ny) {
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const Vec3 x0(i * spacing, 0.02 * std::sin(1.3 * i + 0.7 * j), -j * spacing);
        particles_.push_back({x0, x0, 1.0 / (0.05 + 0.01 * ((i + j) % 3))});
      }
    auto id = [nx](int i, int j) { return j * nx + i; };
    const double diag = spacing * std::sqrt(2.0);
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        if (i + 1 < nx) constraints_.push_back(std::make_unique<DistanceConstraint>(id(i, j), id(i + 1, j), spacing, k_struct));
        if (j + 1 < ny) constraints_.push_back(std::make_unique<DistanceConstraint>(id(i, j), id(i, j + 1), spacing, k_struct));
        if (i + 1 < nx && j + 1 < ny) {
          constraints_.push_back(std::make_unique<DistanceConstraint>(id(i, j), id(i + 1, j + 1), diag, k_shear));
          constraints_.push_back(std::make_unique<DistanceConstraint>(id(i + 1, j), id(i, j + 1), diag, k_shear));
        }
      }
    for (int i : {0, nx - 1}) {
      particles_[id(i, 0)].inv_mass = 0.0;
      constraints_.push_back(std::make_unique<PinConstraint>(id(i, 0), particles_[id(i, 0)].pos));
    }
  }

  void step(double dt, const Vec3 &gravity, const Vec3 &wind, double damping, int sweeps) {
    for (Particle &p : particles_) {
      if (p.inv_mass == 0.0) continue;
      const Vec3 vel = (p.pos - p.prev) * (1.0 / dt);
      const Vec3 drag = (wind - vel) * (0.8 * p.inv_mass);
      const Vec3 next = p.pos + (p.pos - p.prev) * (1.0 - damping) + (gravity + drag) * (dt * dt);
      p.prev = p.pos;
      p.pos = next;
    }
    for (int s = 0; s < sweeps; ++s)
      for (const auto &c : constraints_) c->project(particles_);
  }

  double bottom_height() const {
    double h = 0.0;
    for (int i = 0; i < nx_; ++i) h += particles_[(ny_ - 1) * nx_ + i].pos.z;
    return h / nx_;
  }
  double kinetic(double dt) const {
    return std::accumulate(particles_.begin(), particles_.end(), 0.0, [dt](double e, const Particle &p) {
      if (p.inv_mass == 0.0) return e;
      const Vec3 v = (p.pos - p.prev) * (1.0 / dt);
      return e + 0.5 * v.dot(v) / p.inv_mass;
    });
  }
  std::size_t constraint_count() const { return constraints_.size(); }
  std::string first_kind() const { return constraints_.front()->kind(); }

 private:
  int nx_, ny_;
  std::vector<Particle> particles_;
  std::list<std::unique_ptr<Constraint>> constraints_;
};

static std::string info;

extern "C" double cloth_objective(const double *p, int steps) {
  Cloth cloth(6, 5, 0.1, p[0], p[1]);
  const Vec3 gravity(0.0, 0.0, -p[4]);
  const Vec3 wind(0.0, p[2], 0.3 * p[2]);
  const double dt = 1.0 / 120.0;
  for (int s = 0; s < steps; ++s) cloth.step(dt, gravity, wind, p[3], 6);
  std::ostringstream os;
  os << cloth.constraint_count() << " constraints (first: " << cloth.first_kind() << ")";
  info = os.str();
  return cloth.bottom_height() + 0.01 * cloth.kinetic(dt);
}

int main() {
  double p[5] = {0.8, 0.35, 1.5, 0.02, 9.81};
  const int steps = 90;
  enum { NP = 5 };
  double fd[NP], ad[NP], dp[NP] = {0};
  for (int k = 0; k < NP; ++k) fd[k] = HUNT_FD(cloth_objective(p, steps), p[k]);
  printf("objective %.10g, %s\n", cloth_objective(p, steps), info.c_str());
#ifdef MODE_REV
  __enzyme_autodiff((void *)cloth_objective, enzyme_dup, p, dp, enzyme_const, steps);
  for (int k = 0; k < NP; ++k) ad[k] = dp[k];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; ++k) {
    dp[k] = 1.0;
    ad[k] = __enzyme_fwddiff((void *)cloth_objective, enzyme_dup, p, dp, enzyme_const, steps);
    dp[k] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

#include "hunt.h"
/* Agent-based foraging model with selection, the way an ecologist writes one in C++: `struct Agent`
   (position, energy, age, lineage id) in a `std::vector<Agent>`, a `ResourceField` class of Gaussian food
   patches that agents deplete (patch stock in a `std::vector<Patch>`), movement up the local food
   gradient at a speed set by a trait plus a deterministic "wander" from a small LCG, metabolic cost
   growing with speed squared, every tenth step a selection event: `std::sort` of the population by energy
   (descending, a lambda comparator), the weakest quarter replaced by offspring of the strongest quarter
   (copies with energy split and a position offset), `std::accumulate` of energy with a lambda,
   `std::max_element` for the champion, and a `std::count_if` census.  Objective: mean energy plus the
   champion's energy at the end.  Inputs: speed trait, metabolic rate, patch width, regrowth rate. */
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

struct Agent {
  double x, y, energy;
  int age = 0;
  int lineage = 0;
};

struct Patch {
  double cx, cy, stock;
};

struct ModelParams {
  double speed, metabolism, patch_width, regrowth;
};

class ResourceField {
 public:
  ResourceField(double width, double regrowth) : width_(width), regrowth_(regrowth) {
    const double centres[][2] = {{2.0, 3.0}, {7.5, 1.5}, {5.0, 8.0}, {8.5, 7.0}};
    for (const auto &c : centres) patches_.push_back({c[0], c[1], 1.0});
  }
  double density(double x, double y) const {
    double d = 0;
    for (const Patch &p : patches_) d += p.stock * kernel(x - p.cx, y - p.cy);
    return d;
  }
  void gradient(double x, double y, double &gx, double &gy) const {
    gx = gy = 0;
    for (const Patch &p : patches_) {
      double k = p.stock * kernel(x - p.cx, y - p.cy), inv = 1.0 / (width_ * width_);
      gx -= k * (x - p.cx) * inv;
      gy -= k * (y - p.cy) * inv;
    }
  }
  /* an agent at (x, y) eats `amount`; each patch loses its share */
  void consume(double x, double y, double amount) {
    double total = density(x, y) + 1e-12;
    for (Patch &p : patches_) p.stock -= amount * p.stock * kernel(x - p.cx, y - p.cy) / total;
  }
  void regrow(double dt) {
    for (Patch &p : patches_) p.stock += dt * regrowth_ * p.stock * (1 - p.stock);
  }

 private:
  double kernel(double dx, double dy) const { return std::exp(-(dx * dx + dy * dy) / (2 * width_ * width_)); }
  double width_, regrowth_;
  std::vector<Patch> patches_;
};

class Lcg {
 public:
  explicit Lcg(std::uint64_t seed) : state_(seed) {}
  double uniform() {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state_ >> 11) / 9007199254740992.0;
  }

 private:
  std::uint64_t state_;
};

extern "C" double forage(const ModelParams *mp, int n_agents, int n_steps) {
  ResourceField field(mp->patch_width, mp->regrowth);
  Lcg rng(12345);
  std::vector<Agent> pop;
  for (int i = 0; i < n_agents; ++i) pop.push_back({10.0 * rng.uniform(), 10.0 * rng.uniform(), 1.0, 0, i});
  const double dt = 0.1;
  for (int step = 1; step <= n_steps; ++step) {
    for (Agent &a : pop) {
      double gx, gy;
      field.gradient(a.x, a.y, gx, gy);
      double g = std::sqrt(gx * gx + gy * gy + 1e-8);
      double wander = 2 * M_PI * rng.uniform();
      a.x += dt * (mp->speed * gx / g + 0.3 * std::cos(wander));
      a.y += dt * (mp->speed * gy / g + 0.3 * std::sin(wander));
      a.x = std::clamp(a.x, 0.0, 10.0);
      a.y = std::clamp(a.y, 0.0, 10.0);
      double intake = 0.5 * dt * field.density(a.x, a.y);
      field.consume(a.x, a.y, 0.02 * intake);
      a.energy += intake - dt * mp->metabolism * (0.2 + mp->speed * mp->speed);
      ++a.age;
    }
    field.regrow(dt);
    if (step % 10 == 0) {
      std::sort(pop.begin(), pop.end(), [](const Agent &l, const Agent &r) { return l.energy > r.energy; });
      const size_t quarter = pop.size() / 4;
      for (size_t k = 0; k < quarter; ++k) {
        Agent &parent = pop[k];
        Agent child = parent;
        parent.energy *= 0.6;
        child.energy = parent.energy * 0.5;
        child.x = std::clamp(child.x + 0.25, 0.0, 10.0);
        child.age = 0;
        pop[pop.size() - 1 - k] = child;
      }
    }
  }
  double total = std::accumulate(pop.begin(), pop.end(), 0.0, [](double s, const Agent &a) { return s + a.energy; });
  auto best = std::max_element(pop.begin(), pop.end(), [](const Agent &l, const Agent &r) { return l.energy < r.energy; });
  long alive = std::count_if(pop.begin(), pop.end(), [](const Agent &a) { return a.energy > 0; });
  return total / pop.size() + best->energy + 0.0 * alive;
}

static ModelParams params = {0.8, 0.15, 1.6, 0.4};
int main() {
  const int N = 24, STEPS = 60;
  double fd[4], ad[4];
  hunt_fd_step = 1e-6;  // the selection order is piecewise constant
  printf("forage %.12g\n", forage(&params, N, STEPS));
  fd[0] = HUNT_FD(forage(&params, N, STEPS), params.speed);
  fd[1] = HUNT_FD(forage(&params, N, STEPS), params.metabolism);
  fd[2] = HUNT_FD(forage(&params, N, STEPS), params.patch_width);
  fd[3] = HUNT_FD(forage(&params, N, STEPS), params.regrowth);
#ifdef MODE_REV
  ModelParams d{0, 0, 0, 0};
  __enzyme_autodiff((void *)forage, enzyme_dup, &params, &d, enzyme_const, N, enzyme_const, STEPS);
  ad[0] = d.speed; ad[1] = d.metabolism; ad[2] = d.patch_width; ad[3] = d.regrowth;
#endif
#ifdef MODE_FWD
  ModelParams seeds[4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
  for (int k = 0; k < 4; ++k)
    ad[k] = __enzyme_fwddiff((void *)forage, enzyme_dup, &params, &seeds[k], enzyme_const, N, enzyme_const, STEPS);
#endif
  hunt_check_vec("grad", ad, fd, 4);
  return hunt_finish();
}

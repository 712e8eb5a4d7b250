#include "check.h"
#include <cmath>
#include <vector>
/* A particle system stored as std::vector<Particle> that grows with push_back (so the vector reallocates
   and copies the records, ints and doubles mixed); pair energy with a soft Lennard-Jones-like potential,
   then one explicit Euler step of the velocities.  Derivatives with respect to the initial positions. */
struct Particle {
  double x, y;
  double vx, vy;
  int species;
  double mass;
};

static double pair_energy(const Particle &a, const Particle &b) {
  double dx = a.x - b.x, dy = a.y - b.y;
  double r2 = dx * dx + dy * dy + 0.5;
  double eps = (a.species == b.species) ? 1.0 : 0.6;
  double inv6 = 1.0 / (r2 * r2 * r2);
  return eps * (inv6 * inv6 - inv6);
}

double system_energy(const double *pos, int n) {
  std::vector<Particle> ps;  // no reserve: push_back reallocates several times
  for (int i = 0; i < n; ++i) {
    Particle p;
    p.x = pos[2 * i];
    p.y = pos[2 * i + 1];
    p.vx = 0.1 * i;
    p.vy = -0.05 * i;
    p.species = i % 2;
    p.mass = 1.0 + 0.5 * p.species;
    ps.push_back(p);
  }
  double e = 0;
  for (size_t i = 0; i < ps.size(); ++i)
    for (size_t j = i + 1; j < ps.size(); ++j) e += pair_energy(ps[i], ps[j]);
  std::vector<Particle> moved = ps;  // copy of the whole vector
  for (Particle &p : moved) {
    p.x += 0.01 * p.vx / p.mass;
    p.y += 0.01 * p.vy / p.mass;
  }
  double kin = 0;
  for (const Particle &p : moved) kin += p.mass * (p.x * p.x + p.y * p.y);
  return e + 0.1 * kin;
}

int main() {
  const int n = 7;
  double pos[2 * n], dpos[2 * n];
  for (int i = 0; i < n; ++i) {
    pos[2 * i] = 1.3 * i + 0.2 * std::sin(i);
    pos[2 * i + 1] = 0.7 * (i % 3) + 0.1 * i;
    dpos[2 * i] = dpos[2 * i + 1] = 0;
  }
  __enzyme_autodiff((void *)system_energy, enzyme_dup, pos, dpos, enzyme_const, n);
  for (int k = 0; k < 2 * n; ++k) {
    double t[2 * n] = {0};
    t[k] = 1;
    check("forward", __enzyme_fwddiff((void *)system_energy, enzyme_dup, pos, t, enzyme_const, n), dpos[k], 1e-9);
    double q[2 * n];
    for (int i = 0; i < 2 * n; ++i) q[i] = pos[i];
    check("central", CENTRAL(system_energy(q, n), q[k], pos[k]), dpos[k], 1e-6);
  }
  return finish();
}

#include "hunt.h"
/* 1-D material point method for an elastic bar hitting nothing: particles (position, velocity, mass,
   volume, stress, deformation gradient) in a std::vector<Particle>, background grid nodes in a
   std::vector<Node> cleared each step with std::fill, linear hat shape functions, particle-to-grid transfer
   of mass and momentum, nodal force from stresses, grid update, grid-to-particle velocity (FLIP/PIC blend),
   deformation gradient update and a Neo-Hookean-like 1-D stress.  Objective: kinetic energy plus the mean
   particle position at the end.  Inputs: Young's modulus, initial velocity amplitude, FLIP fraction. */
#include <algorithm>
#include <cmath>
#include <vector>

struct Particle {
  double x, v, m, vol0, F, stress;
};
struct Node {
  double m = 0.0, mv = 0.0, f = 0.0, v = 0.0, vnew = 0.0;
};

extern "C" double mpm_bar(const double* p, int nsteps) {
  const double E = p[0], vamp = p[1], flip = p[2];
  const int ncell = 16;
  const double dx = 1.0 / ncell, dt = 0.2 * dx / std::sqrt(E);
  std::vector<Particle> parts;
  for (int c = 4; c < 12; ++c)
    for (int q = 0; q < 2; ++q) {
      double x = (c + 0.25 + 0.5 * q) * dx;
      parts.push_back({x, vamp * std::sin(M_PI * (x - 0.25) / 0.5), 0.5 * dx, 0.5 * dx, 1.0, 0.0});
    }
  std::vector<Node> grid(ncell + 1);
  for (int n = 0; n < nsteps; ++n) {
    std::fill(grid.begin(), grid.end(), Node{});
    for (const Particle& pt : parts) {
      int i = static_cast<int>(std::floor(pt.x / dx));
      double w1 = pt.x / dx - i, w0 = 1.0 - w1;
      double g = 1.0 / dx;
      double vol = pt.vol0 * pt.F;
      grid[i].m += w0 * pt.m;
      grid[i + 1].m += w1 * pt.m;
      grid[i].mv += w0 * pt.m * pt.v;
      grid[i + 1].mv += w1 * pt.m * pt.v;
      grid[i].f += vol * pt.stress * g;
      grid[i + 1].f -= vol * pt.stress * g;
    }
    for (Node& nd : grid) {
      if (nd.m > 1e-12) {
        nd.v = nd.mv / nd.m;
        nd.vnew = nd.v + dt * nd.f / nd.m;
      }
    }
    for (Particle& pt : parts) {
      int i = static_cast<int>(std::floor(pt.x / dx));
      double w1 = pt.x / dx - i, w0 = 1.0 - w1;
      double vpic = w0 * grid[i].vnew + w1 * grid[i + 1].vnew;
      double dv = w0 * (grid[i].vnew - grid[i].v) + w1 * (grid[i + 1].vnew - grid[i + 1].v);
      double grad_v = (grid[i + 1].vnew - grid[i].vnew) / dx;
      pt.v = flip * (pt.v + dv) + (1.0 - flip) * vpic;
      pt.x += dt * vpic;
      pt.F *= 1.0 + dt * grad_v;
      pt.stress = 0.5 * E * (pt.F - 1.0 / pt.F);
    }
  }
  double ke = 0.0, xm = 0.0;
  for (const auto& pt : parts) {
    ke += 0.5 * pt.m * pt.v * pt.v;
    xm += pt.x / parts.size();
  }
  return ke + xm;
}

static double p[3] = {4.0, 0.3, 0.9};

int main() {
  const int nsteps = 25;
  double fd[3], ad[3], dp[3] = {0};
  hunt_fd_step = 1e-6;
  for (int q = 0; q < 3; ++q) fd[q] = HUNT_FD(mpm_bar(p, nsteps), p[q]);
#ifdef MODE_REV
  __enzyme_autodiff((void*)mpm_bar, enzyme_dup, p, dp, enzyme_const, nsteps);
  hunt_check_vec("grad", dp, fd, 3);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < 3; ++q) {
    dp[q] = 1.0;
    ad[q] = __enzyme_fwddiff((void*)mpm_bar, enzyme_dup, p, dp, enzyme_const, nsteps);
    dp[q] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, 3);
#endif
  (void)ad;
  return hunt_finish();
}

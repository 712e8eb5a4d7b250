#include "hunt.h"
/* C++17 particle binning: a std::vector of particle structs sorted by cell index with std::sort and
   a lambda comparator, cell ranges found with std::lower_bound, per-cell densities in a std::map,
   std::unordered_map for a neighbour lookup, and a kernel-density energy.  Inputs: positions and
   weights. */
#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>
#include <vector>

extern "C" {
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);
}

struct Particle {
  int cell;
  double x, w;
};

extern "C" double binned_energy(const double *x, const double *w, int n, double cell_size) {
  std::vector<Particle> ps;
  ps.reserve(n);
  for (int i = 0; i < n; ++i) ps.push_back({static_cast<int>(std::floor(x[i] / cell_size)), x[i], w[i]});
  std::sort(ps.begin(), ps.end(), [](const Particle &a, const Particle &b) { return a.cell < b.cell; });
  std::map<int, double> density;
  for (const auto &p : ps) density[p.cell] += p.w;
  std::unordered_map<int, double> centre;
  for (const auto &[cell, rho] : density) centre[cell] = (cell + 0.5) * cell_size;
  double e = 0.0;
  for (const auto &p : ps) {
    auto first = std::lower_bound(ps.begin(), ps.end(), p.cell - 1,
                                  [](const Particle &q, int c) { return q.cell < c; });
    for (auto it = first; it != ps.end() && it->cell <= p.cell + 1; ++it) {
      double d = p.x - it->x;
      e += p.w * it->w * std::exp(-d * d / (cell_size * cell_size));
    }
    e += 0.1 * density[p.cell] * (p.x - centre[p.cell]) * (p.x - centre[p.cell]);
  }
  return e;
}

int main() {
  enum { N = 14, NP = 6 };
  double x[N], w[N], cell = 0.7;
  for (int i = 0; i < N; ++i) { x[i] = 5.0 * std::fabs(std::sin(1.9 * i + 0.3)); w[i] = 1.0 + 0.1 * i; }
  double *prim[NP] = {&x[0], &x[5], &x[11], &w[1], &w[6], &w[13]};
  double fd[NP], ad[NP];
  hunt_fd_step = 1e-7; /* cell membership */
  for (int q = 0; q < NP; q++) fd[q] = HUNT_FD(binned_energy(x, w, N, cell), *prim[q]);
  double dx[N] = {0}, dw[N] = {0};
  double *shad[NP] = {&dx[0], &dx[5], &dx[11], &dw[1], &dw[6], &dw[13]};
#ifdef MODE_REV
  __enzyme_autodiff((void *)binned_energy, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_const, N, enzyme_const, cell);
  for (int q = 0; q < NP; q++) ad[q] = *shad[q];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < NP; q++) {
    *shad[q] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)binned_energy, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_const, N, enzyme_const,
                             cell);
    *shad[q] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_BATCH
  double dx2[N] = {0}, dw2[N] = {0};
  dx[5] = 1.0; dw2[6] = 1.0;
  v2 t = __enzyme_fwddiff_v2((void *)binned_energy, enzyme_width, 2, enzyme_dup, x, dx, dx2, enzyme_dup, w, dw, dw2,
                             enzyme_const, N, enzyme_const, cell);
  ad[0] = t.d[0]; ad[1] = t.d[1];
  double fd2[2] = {fd[1], fd[4]};
  hunt_check_vec("batch", ad, fd2, 2);
#endif
#ifdef MODE_SPLIT
  aug_t r = __enzyme_augmentfwd((void *)binned_energy, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_const, N,
                                enzyme_const, cell);
  hunt_check("primal", r.primal, binned_energy(x, w, N, cell));
  __enzyme_reverse((void *)binned_energy, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_const, N, enzyme_const, cell,
                   1.0, r.tape);
  for (int q = 0; q < NP; q++) ad[q] = *shad[q];
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

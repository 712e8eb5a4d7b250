#include "check.h"
// std::list of springs: push_back/emplace_front (libstdc++ links nodes with _List_node_base::_M_hook, out of
// line), erase (_M_unhook), splice (_M_transfer) and reverse (_M_reverse); the shadow list is relinked by the
// same calls on the shadow nodes.
#include <list>

struct Spring {
  int a, b;
  double k, rest;
};

extern "C" double chain_energy(const double *pos, const double *stiff, int n) {
  std::list<Spring> springs, extra;
  for (int i = 0; i + 1 < n; ++i) springs.push_back({i, i + 1, stiff[i], 1.0});
  extra.emplace_front(Spring{0, n - 1, stiff[n - 1], 0.5 * n});
  springs.erase(std::next(springs.begin()));  // drop the second spring
  springs.splice(springs.begin(), extra);
  springs.reverse();
  double e = 0, w = 1.0;
  for (const Spring &s : springs) {
    const double d = pos[s.b] - pos[s.a] - s.rest;
    e += w * 0.5 * s.k * d * d;
    w += 0.25;  // order-dependent weights: the relinking matters
  }
  return e;
}

int main() {
  enum { N = 5 };
  double pos[N] = {0.0, 1.2, 1.9, 3.3, 4.1}, k[N] = {1.0, 2.0, 0.5, 1.5, 0.8};
  double dpos[N] = {0}, dk[N] = {0};
  __enzyme_autodiff((void *)chain_energy, pos, dpos, k, dk, enzyme_const, (int)N);
  for (int i = 0; i < N; ++i) {
    check("list positions reverse vs central", dpos[i], CENTRAL(chain_energy(pos, k, N), pos[i], pos[i]), 1e-6);
    check("list stiffness reverse vs central", dk[i], CENTRAL(chain_energy(pos, k, N), k[i], k[i]), 1e-6);
    double tp[N] = {0}, tk[N] = {0};
    tp[i] = 1.0;
    check("list forward vs reverse", __enzyme_fwddiff((void *)chain_energy, pos, tp, k, tk, enzyme_const, (int)N),
          dpos[i], 1e-10);
  }
  return finish();
}

#include "check.h"
#include <unordered_map>
#include <vector>
/* A graph's adjacency in a std::unordered_map<int, std::vector<...>> built from a static const edge table:
   operator[] wraps the key (a reference into the read-only table) in std::tuple<const int&>, whose shadow the
   derivative fills, and the pair it constructs reads the key through that shadow.  Forward mode at -O0 followed a
   null shadow there; a pointer into read-only integer data is its own shadow.  Reverse against forward mode and
   central differences. */
struct Edge {
  int a, b;
};
static const Edge EDGES[] = {{0, 1}, {1, 2}, {2, 0}, {2, 3}, {3, 1}};
static const int NE = sizeof(EDGES) / sizeof(EDGES[0]);

double energy(const double *w, const double *u) {
  std::unordered_map<int, std::vector<std::pair<int, double>>> adj;
  for (int e = 0; e < NE; ++e) {
    adj[EDGES[e].a].push_back({EDGES[e].b, w[e] * w[e]});
    adj[EDGES[e].b].push_back({EDGES[e].a, w[e]});
  }
  double s = 0;
  for (const auto &[node, nbrs] : adj)
    for (const auto &[j, g] : nbrs) s += g * (u[node] - u[j]) * (u[node] - u[j]) + 0.1 * g * u[node];
  return s;
}

int main() {
  double w[NE] = {0.5, -0.3, 1.2, 0.8, -0.7}, u[4] = {1.0, -0.5, 0.25, 2.0};
  double dw[NE] = {0}, du[4] = {0};
  __enzyme_autodiff((void *)energy, enzyme_dup, w, dw, enzyme_dup, u, du);
  for (int i = 0; i < NE; ++i) {
    double t[NE] = {0}, z[4] = {0};
    t[i] = 1;
    check("forward w", __enzyme_fwddiff((void *)energy, enzyme_dup, w, t, enzyme_dup, u, z), dw[i], 1e-10);
    double q[NE] = {0.5, -0.3, 1.2, 0.8, -0.7};
    check("central w", CENTRAL(energy(q, u), q[i], w[i]), dw[i], 1e-6);
  }
  for (int i = 0; i < 4; ++i) {
    double t[NE] = {0}, z[4] = {0};
    z[i] = 1;
    check("forward u", __enzyme_fwddiff((void *)energy, enzyme_dup, w, t, enzyme_dup, u, z), du[i], 1e-10);
    double q[4] = {1.0, -0.5, 0.25, 2.0};
    check("central u", CENTRAL(energy(w, q), q[i], u[i]), du[i], 1e-6);
  }
  return finish();
}

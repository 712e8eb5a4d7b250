#include "hunt.h"
/* Heat diffusion on a weighted sensor network: the adjacency as std::unordered_map<int,
   std::vector<std::pair<int, double>>> built from an edge list (range-for with structured bindings),
   conductances from the active edge weights, the graph Laplacian applied matrix-free, implicit Euler
   steps solved by Jacobi iterations to a tolerance, node names kept in a std::vector<std::string> for
   a log line written with snprintf.  Objective: the mean squared temperature at the monitored nodes.
   Inputs: the edge weights and the initial temperatures. */
#include <cmath>
#include <cstdio>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

struct Edge {
  int a, b;
};

static const Edge EDGES[] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {1, 4}, {4, 5}, {5, 2}, {5, 6}, {6, 7}, {7, 4}, {3, 6}};
constexpr int NE = sizeof(EDGES) / sizeof(EDGES[0]);
constexpr int NV = 8;

using Adjacency = std::unordered_map<int, std::vector<std::pair<int, double>>>;

static Adjacency build_adjacency(const double *w) {
  Adjacency adj;
  for (int e = 0; e < NE; ++e) {
    const double g = std::exp(w[e]);  // conductance from a log-weight
    adj[EDGES[e].a].push_back({EDGES[e].b, g});
    adj[EDGES[e].b].push_back({EDGES[e].a, g});
  }
  return adj;
}

static void apply_laplacian(const Adjacency &adj, const std::vector<double> &u, std::vector<double> &out) {
  for (int i = 0; i < NV; ++i) out[i] = 0.0;
  for (const auto &[node, nbrs] : adj)
    for (const auto &[j, g] : nbrs) out[node] += g * (u[node] - u[j]);
}

extern "C" double network_objective(const double *w, const double *u0, int nsteps) {
  const Adjacency adj = build_adjacency(w);
  std::vector<std::string> names;
  for (int i = 0; i < NV; ++i) names.push_back("sensor-" + std::to_string(i));
  std::vector<double> u(u0, u0 + NV), next(u), Lu(NV);
  const double dt = 0.05;
  char line[128];
  for (int s = 0; s < nsteps; ++s) {
    // (I + dt L) u_next = u by Jacobi: u_next_i = (u_i + dt sum_j g_ij u_next_j) / (1 + dt sum_j g_ij)
    for (int it = 0; it < 200; ++it) {
      double change = 0;
      std::vector<double> trial(NV);
      for (int i = 0; i < NV; ++i) {
        double num = u[i], den = 1.0;
        auto found = adj.find(i);
        if (found != adj.end())
          for (const auto &[j, g] : found->second) {
            num += dt * g * next[j];
            den += dt * g;
          }
        trial[i] = num / den;
        change = std::fmax(change, std::fabs(trial[i] - next[i]));
      }
      next.swap(trial);
      if (change < 1e-14) break;
    }
    u = next;
    apply_laplacian(adj, u, Lu);
    std::snprintf(line, sizeof line, "%s: T=%.4f flux=%.4e", names[s % NV].c_str(), u[s % NV], Lu[s % NV]);
  }
  std::puts(line);
  const int monitored[] = {2, 5, 7};
  double obj = 0;
  for (int m : monitored) obj += u[m] * u[m];
  return obj / 3.0;
}

int main() {
  double w[NE], u0[NV];
  for (int e = 0; e < NE; ++e) w[e] = 0.3 * std::sin(1.1 * e) - 0.2;
  for (int i = 0; i < NV; ++i) u0[i] = 20.0 + 5.0 * std::cos(0.9 * i) + (i == 0 ? 30.0 : 0.0);
  int nsteps = 10;
  enum { NP = NE + NV };
  double *prim[NP];
  for (int e = 0; e < NE; ++e) prim[e] = &w[e];
  for (int i = 0; i < NV; ++i) prim[NE + i] = &u0[i];
  double fd[NP], ad[NP], dw[NE] = {0}, du0[NV] = {0};
  double *shad[NP];
  for (int e = 0; e < NE; ++e) shad[e] = &dw[e];
  for (int i = 0; i < NV; ++i) shad[NE + i] = &du0[i];
  for (int k = 0; k < NP; ++k) fd[k] = HUNT_FD(network_objective(w, u0, nsteps), *prim[k]);
#ifdef MODE_REV
  __enzyme_autodiff((void *)network_objective, enzyme_dup, w, dw, enzyme_dup, u0, du0, enzyme_const, nsteps);
  for (int k = 0; k < NP; ++k) ad[k] = *shad[k];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; ++k) {
    *shad[k] = 1.0;
    ad[k] = __enzyme_fwddiff((void *)network_objective, enzyme_dup, w, dw, enzyme_dup, u0, du0, enzyme_const, nsteps);
    *shad[k] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

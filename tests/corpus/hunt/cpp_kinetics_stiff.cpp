#include "hunt.h"
/* Stiff gas-phase kinetics: a mechanism stored as a const struct-of-arrays table (reactant and product
   species indices, -1 for none; Arrhenius A, b, Ea), integrated by backward Euler with a Newton solve
   whose Jacobian is assembled analytically from the table and factored by Gaussian elimination with
   partial pivoting on a std::vector<double>.  Inputs: a log-multiplier per rate constant, the
   temperature and the initial composition. */
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <vector>

namespace chem {
constexpr int NS = 5, NR = 5;
constexpr double R_GAS = 8.314462618;

struct Mechanism {
  int reac[NR][2];
  int prod[NR][2];
  double A[NR];
  double b[NR];
  double Ea[NR];
};

// A + B -> C, C -> A + B, C + B -> D, D -> E, A + A -> E (concentrations in mol/m^3)
const Mechanism MECH = {
    {{0, 1}, {2, -1}, {2, 1}, {3, -1}, {0, 0}},
    {{2, -1}, {0, 1}, {3, -1}, {4, -1}, {4, -1}},
    {2.0e3, 5.0e6, 8.0e2, 3.0e5, 1.0e1},
    {0.5, 0.0, 0.3, 0.0, 0.8},
    {2.0e4, 6.0e4, 1.5e4, 4.5e4, 1.0e4},
};

struct State {
  std::vector<double> c;
  double T;
};

static void rate_constants(const double *logmult, double T, std::array<double, NR> &k) {
  for (int j = 0; j < NR; ++j)
    k[j] = MECH.A[j] * std::exp(logmult[j]) * std::pow(T, MECH.b[j]) * std::exp(-MECH.Ea[j] / (R_GAS * T));
}

static double rate_of(int j, const std::array<double, NR> &k, const std::vector<double> &c) {
  double r = k[j];
  for (int s : MECH.reac[j])
    if (s >= 0) r *= c[s];
  return r;
}

// d rate_j / d c_s (product rule over the reactant slots; A + A counts twice)
static double rate_deriv(int j, int s, const std::array<double, NR> &k, const std::vector<double> &c) {
  double d = 0.0;
  for (int m = 0; m < 2; ++m) {
    if (MECH.reac[j][m] != s) continue;
    double r = k[j];
    for (int o = 0; o < 2; ++o)
      if (o != m && MECH.reac[j][o] >= 0) r *= c[MECH.reac[j][o]];
    d += r;
  }
  return d;
}

static void production(const std::array<double, NR> &k, const std::vector<double> &c, std::vector<double> &w) {
  std::fill(w.begin(), w.end(), 0.0);
  for (int j = 0; j < NR; ++j) {
    double r = rate_of(j, k, c);
    for (int s : MECH.reac[j]) if (s >= 0) w[s] -= r;
    for (int s : MECH.prod[j]) if (s >= 0) w[s] += r;
  }
}

static void jacobian(const std::array<double, NR> &k, const std::vector<double> &c, std::vector<double> &J) {
  std::fill(J.begin(), J.end(), 0.0);
  for (int j = 0; j < NR; ++j)
    for (int s = 0; s < NS; ++s) {
      double d = rate_deriv(j, s, k, c);
      if (d == 0.0) continue;
      for (int q : MECH.reac[j]) if (q >= 0) J[q * NS + s] -= d;
      for (int q : MECH.prod[j]) if (q >= 0) J[q * NS + s] += d;
    }
}

// Solves A x = b in place (A row-major n x n), partial pivoting.
static void gauss_solve(std::vector<double> &A, std::vector<double> &b, int n) {
  for (int col = 0; col < n; ++col) {
    int piv = col;
    for (int r = col + 1; r < n; ++r)
      if (std::fabs(A[r * n + col]) > std::fabs(A[piv * n + col])) piv = r;
    if (piv != col) {
      for (int m = 0; m < n; ++m) std::swap(A[col * n + m], A[piv * n + m]);
      std::swap(b[col], b[piv]);
    }
    for (int r = col + 1; r < n; ++r) {
      double f = A[r * n + col] / A[col * n + col];
      for (int m = col; m < n; ++m) A[r * n + m] -= f * A[col * n + m];
      b[r] -= f * b[col];
    }
  }
  for (int r = n - 1; r >= 0; --r) {
    double s = b[r];
    for (int m = r + 1; m < n; ++m) s -= A[r * n + m] * b[m];
    b[r] = s / A[r * n + r];
  }
}

static int backward_euler_step(State &st, const std::array<double, NR> &k, double h) {
  std::vector<double> y = st.c, w(NS), J(NS * NS), rhs(NS);
  int it = 0;
  for (; it < 30; ++it) {
    production(k, y, w);
    jacobian(k, y, J);
    double norm = 0;
    for (int s = 0; s < NS; ++s) {
      rhs[s] = -(y[s] - st.c[s] - h * w[s]);
      norm = std::max(norm, std::fabs(rhs[s]));
    }
    if (norm < 1e-13) break;
    for (int a = 0; a < NS; ++a)
      for (int bb = 0; bb < NS; ++bb) J[a * NS + bb] = (a == bb ? 1.0 : 0.0) - h * J[a * NS + bb];
    gauss_solve(J, rhs, NS);
    for (int s = 0; s < NS; ++s) y[s] += rhs[s];
  }
  st.c = y;
  return it;
}
}  // namespace chem

extern "C" double kinetics_objective(const double *logmult, const double *c0, double T, int nsteps) {
  chem::State st{std::vector<double>(c0, c0 + chem::NS), T};
  std::array<double, chem::NR> k;
  chem::rate_constants(logmult, st.T, k);
  double h = 0.02, yield = 0;
  int newton_total = 0;
  for (int n = 0; n < nsteps; ++n) {
    newton_total += chem::backward_euler_step(st, k, h);
    yield += h * st.c[3];
  }
  double total = std::accumulate(st.c.begin(), st.c.end(), 0.0);
  if (newton_total > 30 * nsteps) std::printf("newton did not converge\n");
  return st.c[4] / total + 0.1 * yield;
}

int main() {
  double logmult[chem::NR] = {0.1, -0.2, 0.05, 0.0, -0.1};
  double c0[chem::NS] = {1.0, 0.8, 0.0, 0.0, 0.05};
  double T = 900.0;
  int nsteps = 40;
  enum { NP = chem::NR + chem::NS + 1 };
  double *prim[NP];
  for (int j = 0; j < chem::NR; ++j) prim[j] = &logmult[j];
  for (int s = 0; s < chem::NS; ++s) prim[chem::NR + s] = &c0[s];
  prim[NP - 1] = &T;
  double fd[NP], ad[NP];
  for (int q = 0; q < NP; ++q) fd[q] = HUNT_FD(kinetics_objective(logmult, c0, T, nsteps), *prim[q]);
  double dlm[chem::NR] = {0}, dc0[chem::NS] = {0};
#ifdef MODE_REV
  ad[NP - 1] = __enzyme_autodiff((void *)kinetics_objective, enzyme_dup, logmult, dlm, enzyme_dup, c0, dc0, T,
                                 enzyme_const, nsteps);
  for (int j = 0; j < chem::NR; ++j) ad[j] = dlm[j];
  for (int s = 0; s < chem::NS; ++s) ad[chem::NR + s] = dc0[s];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  double *shad[NP - 1];
  for (int j = 0; j < chem::NR; ++j) shad[j] = &dlm[j];
  for (int s = 0; s < chem::NS; ++s) shad[chem::NR + s] = &dc0[s];
  for (int q = 0; q < NP; ++q) {
    if (q < NP - 1) *shad[q] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)kinetics_objective, enzyme_dup, logmult, dlm, enzyme_dup, c0, dc0, T,
                             q == NP - 1 ? 1.0 : 0.0, enzyme_const, nsteps);
    if (q < NP - 1) *shad[q] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

#include "hunt.h"
/* Euler-Bernoulli cantilever by Hermite beam elements: elements as a std::vector of structs, the global
   stiffness as std::vector<std::vector<double>>, clamped end removed by dropping rows, Cholesky
   factorization into another vector-of-vectors, consistent load vector for a distributed load and a tip
   force.  Outputs tip deflection and compliance.  Inputs: bending stiffness per element, load. */
#include <cmath>
#include <numeric>
#include <vector>

struct Element {
  int n0, n1;
  double length;
  double EI;
};

using Matrix = std::vector<std::vector<double>>;

static Matrix element_stiffness(const Element &e) {
  const double L = e.length, c = e.EI / (L * L * L);
  Matrix k(4, std::vector<double>(4));
  const double base[4][4] = {{12, 6 * L, -12, 6 * L},
                             {6 * L, 4 * L * L, -6 * L, 2 * L * L},
                             {-12, -6 * L, 12, -6 * L},
                             {6 * L, 2 * L * L, -6 * L, 4 * L * L}};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) k[i][j] = c * base[i][j];
  return k;
}

static void cholesky_solve(const Matrix &A, std::vector<double> &b) {
  const std::size_t n = A.size();
  Matrix L(n, std::vector<double>(n, 0.0));
  for (std::size_t j = 0; j < n; ++j) {
    double d = A[j][j];
    for (std::size_t k = 0; k < j; ++k) d -= L[j][k] * L[j][k];
    L[j][j] = std::sqrt(d);
    for (std::size_t i = j + 1; i < n; ++i) {
      double s = A[i][j];
      for (std::size_t k = 0; k < j; ++k) s -= L[i][k] * L[j][k];
      L[i][j] = s / L[j][j];
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    double s = b[i];
    for (std::size_t k = 0; k < i; ++k) s -= L[i][k] * b[k];
    b[i] = s / L[i][i];
  }
  for (std::size_t i = n; i-- > 0;) {
    double s = b[i];
    for (std::size_t k = i + 1; k < n; ++k) s -= L[k][i] * b[k];
    b[i] = s / L[i][i];
  }
}

extern "C" double beam_response(const double *EI, double q, double tip_force, int nel, double span) {
  std::vector<Element> elems;
  elems.reserve(nel);
  for (int e = 0; e < nel; ++e) elems.push_back({e, e + 1, span / nel, EI[e]});
  const int ndof = 2 * (nel + 1);
  Matrix K(ndof, std::vector<double>(ndof, 0.0));
  std::vector<double> F(ndof, 0.0);
  for (const Element &e : elems) {
    Matrix ke = element_stiffness(e);
    const int dofs[4] = {2 * e.n0, 2 * e.n0 + 1, 2 * e.n1, 2 * e.n1 + 1};
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) K[dofs[i]][dofs[j]] += ke[i][j];
    const double L = e.length;
    const double fe[4] = {q * L / 2, q * L * L / 12, q * L / 2, -q * L * L / 12};
    for (int i = 0; i < 4; ++i) F[dofs[i]] += fe[i];
  }
  F[ndof - 2] += tip_force;
  // clamp node 0: keep the free block
  Matrix Kf(ndof - 2, std::vector<double>(ndof - 2));
  for (int i = 2; i < ndof; ++i)
    for (int j = 2; j < ndof; ++j) Kf[i - 2][j - 2] = K[i][j];
  std::vector<double> u(F.begin() + 2, F.end());
  const std::vector<double> load = u;
  cholesky_solve(Kf, u);
  const double compliance = std::inner_product(load.begin(), load.end(), u.begin(), 0.0);
  const double tip = u[u.size() - 2];
  return tip + 0.5 * compliance;
}

int main() {
  enum { NEL = 6 };
  double EI[NEL], q = 1.5, P = 2.0, span = 3.0;
  for (int e = 0; e < NEL; ++e) EI[e] = 10.0 * (1.0 - 0.08 * e);
  enum { NP = NEL + 2 };
  double *prim[NP];
  for (int e = 0; e < NEL; ++e) prim[e] = &EI[e];
  prim[NEL] = &q; prim[NEL + 1] = &P;
  double fd[NP], ad[NP], dEI[NEL] = {0};
  for (int k = 0; k < NP; ++k) fd[k] = HUNT_FD(beam_response(EI, q, P, NEL, span), *prim[k]);
#ifdef MODE_REV
  struct { double dq, dP; } g;
  __enzyme_autodiff((void *)beam_response, enzyme_dup, EI, dEI, enzyme_const, q, enzyme_const, P, enzyme_const,
                    NEL, enzyme_const, span);
  for (int e = 0; e < NEL; ++e) ad[e] = dEI[e];
  for (int e = 0; e < NEL; ++e) dEI[e] = 0;
  g.dq = __enzyme_autodiff((void *)beam_response, enzyme_const, EI, q, enzyme_const, P, enzyme_const, NEL,
                           enzyme_const, span);
  g.dP = __enzyme_autodiff((void *)beam_response, enzyme_const, EI, enzyme_const, q, P, enzyme_const, NEL,
                           enzyme_const, span);
  ad[NEL] = g.dq; ad[NEL + 1] = g.dP;
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; ++k) {
    if (k < NEL) dEI[k] = 1.0;
    ad[k] = __enzyme_fwddiff((void *)beam_response, enzyme_dup, EI, dEI, q, k == NEL ? 1.0 : 0.0, P,
                             k == NEL + 1 ? 1.0 : 0.0, enzyme_const, NEL, enzyme_const, span);
    if (k < NEL) dEI[k] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

#include "check.h"
#include <map>
#include <utility>
/* A sparse matrix assembled in a std::map keyed by (row, column), as quick research code often does: a 1-D
   diffusion operator with a variable coefficient, then the energy x^T A x.  The mapped values carry
   derivatives, and libstdc++ links and rebalances the map's nodes outside the program's bitcode: refused
   with a message that says so (tests/ad/test_cxx_programs.py). */
using SparseMatrix = std::map<std::pair<int, int>, double>;

static void assemble(SparseMatrix &A, const double *kappa, int n) {
  for (int i = 0; i < n; ++i) {
    double left = kappa[i], right = kappa[i + 1];
    A[{i, i}] += left + right;
    if (i > 0) A[{i, i - 1}] -= left;
    if (i + 1 < n) A[{i, i + 1}] -= right;
  }
}

double energy(const double *kappa, const double *x, int n) {
  SparseMatrix A;
  assemble(A, kappa, n);
  double e = 0;
  for (const auto &[ij, a] : A) e += x[ij.first] * a * x[ij.second];
  return e;
}

int main() {
  enum { N = 6 };
  double kappa[N + 1], dkappa[N + 1] = {0}, x[N];
  for (int i = 0; i <= N; ++i) kappa[i] = 1.0 + 0.2 * i;
  for (int i = 0; i < N; ++i) x[i] = std::sin(0.7 * i);
#ifdef FORWARD
  double t[N + 1] = {0};
  t[0] = 1;
  check("forward", __enzyme_fwddiff((void *)energy, enzyme_dup, kappa, t, enzyme_const, x, enzyme_const, N),
        CENTRAL(energy(kappa, x, N), kappa[0], kappa[0]), 1e-6);
#else
  __enzyme_autodiff((void *)energy, enzyme_dup, kappa, dkappa, enzyme_const, x, enzyme_const, N);
  check("reverse", dkappa[0], CENTRAL(energy(kappa, x, N), kappa[0], kappa[0]), 1e-6);
#endif
  return finish();
}

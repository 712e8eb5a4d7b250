#include "check.h"
#include <map>
#include <set>
#include <utility>
/* A sparse matrix assembled in a std::map keyed by (row, column), as quick research code often does: a 1-D
   diffusion operator with a variable coefficient, then the energy x^T A x.  The mapped values carry
   derivatives; libstdc++ links, rebalances and walks the map's nodes outside the program's bitcode
   (_Rb_tree_insert_and_rebalance, _Rb_tree_increment, ...), and pyenzyme makes the same calls on the shadow
   tree (rules/mirrored.py).  Entries below a threshold are erased (_Rb_tree_rebalance_for_erase), the energy
   sums the entries walking backwards (_Rb_tree_decrement), and a std::set of the touched rows decides which
   rows count twice. */
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
  for (auto it = A.begin(); it != A.end();) {  // drop the couplings of the rows with an odd index
    if (it->first.first != it->first.second && it->first.first % 2 == 1) it = A.erase(it);
    else ++it;
  }
  std::set<int> heavy;
  for (const auto &[ij, a] : A) if (a > 3.1) heavy.insert(ij.first);
  double e = 0;
  for (auto it = A.rbegin(); it != A.rend(); ++it) {
    double w = heavy.count(it->first.first) ? 2.0 : 1.0;
    e += w * x[it->first.first] * it->second * x[it->first.second];
  }
  return e;
}

int main() {
  enum { N = 9 };
  double kappa[N + 1], dkappa[N + 1] = {0}, x[N];
  for (int i = 0; i <= N; ++i) kappa[i] = 1.0 + 0.2 * i;
  for (int i = 0; i < N; ++i) x[i] = std::sin(0.7 * i + 0.2);
  __enzyme_autodiff((void *)energy, enzyme_dup, kappa, dkappa, enzyme_const, x, enzyme_const, N);
  for (int i = 0; i <= N; ++i) {
    double t[N + 1] = {0};
    t[i] = 1;
    check("forward", __enzyme_fwddiff((void *)energy, enzyme_dup, kappa, t, enzyme_const, x, enzyme_const, N),
          dkappa[i], 1e-10);
    double q[N + 1];
    for (int j = 0; j <= N; ++j) q[j] = kappa[j];
    check("central", CENTRAL(energy(q, x, N), q[i], kappa[i]), dkappa[i], 1e-6);
  }
  return finish();
}

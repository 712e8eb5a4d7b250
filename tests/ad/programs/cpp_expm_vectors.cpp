#include "check.h"
/* The matrix exponential of a C++ Matrix<T> class over std::vector<T> (scaling and squaring: frexp picks
   the squarings, a Taylor series stops at a tolerance), as the hunt corpus's cpp_expm.  Its vectors may
   be empty, so their end pointers merge addresses in heap blocks with ones computed from null (refused
   at -O1 before), and its series loop has an early exit (a tape-order bug at -O2 before). */
#include "../../corpus/hunt/expm_matrix.h"

enum { N = 4 };

int main() {
  double a[N * N], da[N * N] = {0};
  for (int i = 0; i < N * N; ++i) a[i] = 0.8 * std::sin(1.3 * i + 0.2);
  double t = 1.7;
  double dt = __enzyme_autodiff((void *)expm_objective, enzyme_dup, a, da, t, enzyme_const, N);
  /* frexp makes the number of squarings piecewise constant: a small step stays on one piece */
  for (int q = 0; q < N * N; q += 3) {
    double tan[N * N] = {0};
    tan[q] = 1.0;
    check("forward", __enzyme_fwddiff((void *)expm_objective, enzyme_dup, a, tan, t, 0.0, enzyme_const, N), da[q],
          1e-9);
    check("central", da[q], CENTRAL_H(expm_objective(a, t, N), a[q], a[q], 1e-7), 1e-5);
  }
  double none[N * N] = {0};
  check("d/dt forward", __enzyme_fwddiff((void *)expm_objective, enzyme_dup, a, none, t, 1.0, enzyme_const, N), dt,
        1e-9);
  return finish();
}

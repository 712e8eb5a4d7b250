#include "hunt.h"
/* C++17 dense linear algebra: a Matrix<T> class template over std::vector<T> with operator() and
   operator*, free function templates, and the matrix exponential by scaling and squaring (frexp picks
   the number of squarings, a Taylor series with a tolerance-based stop).  Objective: a weighted sum of
   expm(t A)'s entries.  Inputs: A and t. */
#include <cmath>
#include <cstddef>
#include <vector>

extern "C" {
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);
}

#include "expm_matrix.h"

enum { N = 4, NP = 6 };
static double A[N * N];

int main() {
  for (int i = 0; i < N * N; ++i) A[i] = 0.8 * std::sin(1.3 * i + 0.2);
  double t = 1.7;
  hunt_fd_step = 1e-6; /* frexp makes the number of squarings piecewise constant */
  double *prim[NP] = {&A[0], &A[3], &A[6], &A[9], &A[12], &A[15]};
  double fd[NP + 1], ad[NP + 1];
  for (int q = 0; q < NP; q++) fd[q] = HUNT_FD(expm_objective(A, t, N), *prim[q]);
  fd[NP] = HUNT_FD(expm_objective(A, t, N), t);
  double dA[N * N] = {0};
  double *shad[NP] = {&dA[0], &dA[3], &dA[6], &dA[9], &dA[12], &dA[15]};
#ifdef MODE_REV
  ad[NP] = __enzyme_autodiff((void *)expm_objective, enzyme_dup, A, dA, t, enzyme_const, N);
  for (int q = 0; q < NP; q++) ad[q] = *shad[q];
  hunt_check_vec("grad", ad, fd, NP + 1);
#endif
#ifdef MODE_FWD
  for (int q = 0; q <= NP; q++) {
    if (q < NP) *shad[q] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)expm_objective, enzyme_dup, A, dA, t, q == NP ? 1.0 : 0.0, enzyme_const, N);
    if (q < NP) *shad[q] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP + 1);
#endif
#ifdef MODE_BATCH
  double dA2[N * N] = {0};
  double *shad2[NP] = {&dA2[0], &dA2[3], &dA2[6], &dA2[9], &dA2[12], &dA2[15]};
  for (int q = 0; q < NP; q += 2) {
    *shad[q] = 1.0; *shad2[q + 1] = 1.0;
    v2 r = __enzyme_fwddiff_v2((void *)expm_objective, enzyme_width, 2, enzyme_dup, A, dA, dA2, t, 0.0, 0.0,
                               enzyme_const, N);
    *shad[q] = 0.0; *shad2[q + 1] = 0.0;
    ad[q] = r.d[0]; ad[q + 1] = r.d[1];
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_SPLIT
  aug_t r = __enzyme_augmentfwd((void *)expm_objective, enzyme_dup, A, dA, t, enzyme_const, N);
  hunt_check("primal", r.primal, expm_objective(A, t, N));
  ad[NP] = __enzyme_reverse((void *)expm_objective, enzyme_dup, A, dA, t, enzyme_const, N, 1.0, r.tape);
  for (int q = 0; q < NP; q++) ad[q] = *shad[q];
  hunt_check_vec("grad", ad, fd, NP + 1);
#endif
  return hunt_finish();
}

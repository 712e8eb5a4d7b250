#include "hunt.h"
/* C++ error handling inside differentiated code, as library code does it: input validation that throws
   std::invalid_argument (with a std::string message built from numbers), std::vector::at() bounds checks,
   a Gaussian elimination that throws std::runtime_error on a zero pivot, and RAII containers unwound by an
   exception.  The differentiated call does not throw here; main catches around the primal calls only.
   Inputs: the matrix entries and the right-hand side. */
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

extern "C" {
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);
}

static std::vector<double> solve(std::vector<double> a, std::vector<double> b, int n) {
  for (int k = 0; k < n; ++k) {
    double pivot = a.at(k * n + k);
    if (std::fabs(pivot) < 1e-14) throw std::runtime_error("zero pivot in row " + std::to_string(k));
    for (int i = k + 1; i < n; ++i) {
      double l = a.at(i * n + k) / pivot;
      for (int j = k; j < n; ++j) a.at(i * n + j) -= l * a.at(k * n + j);
      b.at(i) -= l * b.at(k);
    }
  }
  std::vector<double> x(n);
  for (int i = n - 1; i >= 0; --i) {
    double s = b.at(i);
    for (int j = i + 1; j < n; ++j) s -= a.at(i * n + j) * x.at(j);
    x.at(i) = s / a.at(i * n + i);
  }
  return x;
}

extern "C" double checked_solve(const double *A, const double *rhs, int n) {
  if (n <= 0) throw std::invalid_argument("n must be positive, got " + std::to_string(n));
  std::vector<double> a(A, A + n * n), b(rhs, rhs + n);
  for (double v : b)
    if (!std::isfinite(v)) throw std::invalid_argument("right-hand side not finite: " + std::to_string(v));
  std::vector<double> x = solve(a, b, n);
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += (i + 1.0) * x[i] * x[i];
  return s;
}

int main() {
  enum { N = 4, NP = 5 };
  double A[N * N], rhs[N];
  for (int i = 0; i < N; ++i) {
    for (int j = 0; j < N; ++j) A[i * N + j] = (i == j ? 4.0 : 0.0) + std::sin(1.0 + i + 2.0 * j);
    rhs[i] = std::cos(0.7 * i);
  }
  try {
    checked_solve(A, rhs, 0);
    return 3; /* must have thrown */
  } catch (const std::invalid_argument &) {
  }
  double *prim[NP] = {&A[0], &A[5], &A[11], &rhs[0], &rhs[3]};
  double fd[NP], ad[NP];
  for (int q = 0; q < NP; q++) fd[q] = HUNT_FD(checked_solve(A, rhs, N), *prim[q]);
  double dA[N * N] = {0}, drhs[N] = {0};
  double *shad[NP] = {&dA[0], &dA[5], &dA[11], &drhs[0], &drhs[3]};
#ifdef MODE_REV
  __enzyme_autodiff((void *)checked_solve, enzyme_dup, A, dA, enzyme_dup, rhs, drhs, enzyme_const, N);
  for (int q = 0; q < NP; q++) ad[q] = *shad[q];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < NP; q++) {
    *shad[q] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)checked_solve, enzyme_dup, A, dA, enzyme_dup, rhs, drhs, enzyme_const, N);
    *shad[q] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_BATCH
  double dA2[N * N] = {0}, drhs2[N] = {0};
  dA[5] = 1.0; drhs2[3] = 1.0;
  v2 t = __enzyme_fwddiff_v2((void *)checked_solve, enzyme_width, 2, enzyme_dup, A, dA, dA2, enzyme_dup, rhs, drhs,
                             drhs2, enzyme_const, N);
  ad[0] = t.d[0]; ad[1] = t.d[1];
  double fd2[2] = {fd[1], fd[4]};
  hunt_check_vec("batch", ad, fd2, 2);
#endif
#ifdef MODE_SPLIT
  aug_t r = __enzyme_augmentfwd((void *)checked_solve, enzyme_dup, A, dA, enzyme_dup, rhs, drhs, enzyme_const, N);
  hunt_check("primal", r.primal, checked_solve(A, rhs, N));
  __enzyme_reverse((void *)checked_solve, enzyme_dup, A, dA, enzyme_dup, rhs, drhs, enzyme_const, N, 1.0, r.tape);
  for (int q = 0; q < NP; q++) ad[q] = *shad[q];
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

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

template <typename T>
class Matrix {
 public:
  explicit Matrix(std::size_t n, T diag = T(0)) : n_(n), data_(n * n, T(0)) {
    for (std::size_t i = 0; i < n; ++i) (*this)(i, i) = diag;
  }
  T &operator()(std::size_t i, std::size_t j) { return data_[i * n_ + j]; }
  const T &operator()(std::size_t i, std::size_t j) const { return data_[i * n_ + j]; }
  std::size_t size() const { return n_; }
  Matrix &operator+=(const Matrix &o) {
    for (std::size_t k = 0; k < data_.size(); ++k) data_[k] += o.data_[k];
    return *this;
  }
  Matrix &operator*=(T s) {
    for (auto &v : data_) v *= s;
    return *this;
  }
  T norm_inf() const {
    T best = 0;
    for (std::size_t i = 0; i < n_; ++i) {
      T row = 0;
      for (std::size_t j = 0; j < n_; ++j) row += std::abs((*this)(i, j));
      if (row > best) best = row;
    }
    return best;
  }

 private:
  std::size_t n_;
  std::vector<T> data_;
};

template <typename T>
Matrix<T> operator*(const Matrix<T> &a, const Matrix<T> &b) {
  Matrix<T> c(a.size());
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t k = 0; k < a.size(); ++k)
      for (std::size_t j = 0; j < a.size(); ++j) c(i, j) += a(i, k) * b(k, j);
  return c;
}

template <typename T>
Matrix<T> expm(Matrix<T> a) {
  int exponent = 0;
  std::frexp(a.norm_inf(), &exponent);
  int squarings = exponent > 0 ? exponent + 1 : 0;
  a *= std::ldexp(T(1), -squarings);
  Matrix<T> result(a.size(), T(1)), term(a.size(), T(1));
  for (int k = 1; k < 30; ++k) {
    term = term * a;
    term *= T(1) / k;
    result += term;
    if (term.norm_inf() < T(1e-18)) break;
  }
  for (int s = 0; s < squarings; ++s) result = result * result;
  return result;
}

extern "C" double expm_objective(const double *a, double t, int n) {
  Matrix<double> m(n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) m(i, j) = t * a[i * n + j];
  Matrix<double> e = expm(m);
  double s = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) s += (1.0 + 0.1 * i - 0.05 * j) * e(i, j);
  return s;
}

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

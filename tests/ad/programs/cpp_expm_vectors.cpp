#include "check.h"
/* The matrix exponential of a C++ Matrix<T> class over std::vector<T> (scaling and squaring: frexp picks
   the squarings, a Taylor series stops at a tolerance), as the hunt corpus's cpp_expm.  Its vectors may
   be empty, so their end pointers merge addresses in heap blocks with ones computed from null (refused
   at -O1 before), and its series loop has an early exit (a tape-order bug at -O2 before). */
#include <cmath>
#include <cstddef>
#include <vector>

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

/* Matrix<T> over std::vector<T>, operator*, and expm by scaling and squaring, with the objective
   expm_objective: shared by the hunt corpus's cpp_expm.cpp and the suite's cpp_expm_vectors.cpp. */
#ifndef EXPM_MATRIX_H
#define EXPM_MATRIX_H
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

#endif

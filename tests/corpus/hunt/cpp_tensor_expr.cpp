#include "hunt.h"
/* Hyperelasticity with a small tensor library: a Tensor2 class over std::array<double, 9> with
   expression templates for +, - and scalar scaling (lazy expressions evaluated on assignment), plus
   eager matmul/transpose/det/inverse, used for a compressible Neo-Hookean strain energy and its first
   Piola stress summed over Gauss points of a hexahedral element with trilinear displacement.
   Inputs: nodal displacements (8 nodes x 3) and the Lame parameters. */
#include <array>
#include <cmath>
#include <cstddef>
#include <numeric>
#include <type_traits>

template <class E>
struct TExpr {
  double operator[](std::size_t i) const { return static_cast<const E &>(*this)[i]; }
};

struct Tensor2 : TExpr<Tensor2> {
  std::array<double, 9> a{};
  Tensor2() = default;
  template <class E>
  Tensor2(const TExpr<E> &e) {
    for (std::size_t i = 0; i < 9; ++i) a[i] = e[i];
  }
  static Tensor2 identity() {
    Tensor2 t;
    t(0, 0) = t(1, 1) = t(2, 2) = 1.0;
    return t;
  }
  double operator[](std::size_t i) const { return a[i]; }
  double &operator()(int i, int j) { return a[3 * i + j]; }
  double operator()(int i, int j) const { return a[3 * i + j]; }
  template <class E>
  Tensor2 &operator+=(const TExpr<E> &e) {
    for (std::size_t i = 0; i < 9; ++i) a[i] += e[i];
    return *this;
  }
};

template <class L, class R>
struct TSum : TExpr<TSum<L, R>> {
  const L &l; const R &r;
  TSum(const L &l_, const R &r_) : l(l_), r(r_) {}
  double operator[](std::size_t i) const { return l[i] + r[i]; }
};
template <class L, class R>
struct TDiff : TExpr<TDiff<L, R>> {
  const L &l; const R &r;
  TDiff(const L &l_, const R &r_) : l(l_), r(r_) {}
  double operator[](std::size_t i) const { return l[i] - r[i]; }
};
template <class E>
struct TScaled : TExpr<TScaled<E>> {
  double s; const E &e;
  TScaled(double s_, const E &e_) : s(s_), e(e_) {}
  double operator[](std::size_t i) const { return s * e[i]; }
};

template <class L, class R>
TSum<L, R> operator+(const TExpr<L> &l, const TExpr<R> &r) { return {static_cast<const L &>(l), static_cast<const R &>(r)}; }
template <class L, class R>
TDiff<L, R> operator-(const TExpr<L> &l, const TExpr<R> &r) { return {static_cast<const L &>(l), static_cast<const R &>(r)}; }
template <class E>
TScaled<E> operator*(double s, const TExpr<E> &e) { return {s, static_cast<const E &>(e)}; }

static Tensor2 transpose(const Tensor2 &A) {
  Tensor2 T;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) T(i, j) = A(j, i);
  return T;
}
static Tensor2 matmul(const Tensor2 &A, const Tensor2 &B) {
  Tensor2 C;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double s = 0;
      for (int k = 0; k < 3; ++k) s += A(i, k) * B(k, j);
      C(i, j) = s;
    }
  return C;
}
static double trace(const Tensor2 &A) { return A(0, 0) + A(1, 1) + A(2, 2); }
static double det(const Tensor2 &A) {
  return A(0, 0) * (A(1, 1) * A(2, 2) - A(1, 2) * A(2, 1)) - A(0, 1) * (A(1, 0) * A(2, 2) - A(1, 2) * A(2, 0)) +
         A(0, 2) * (A(1, 0) * A(2, 1) - A(1, 1) * A(2, 0));
}
static Tensor2 inverse_transpose(const Tensor2 &A) {
  const double J = det(A);
  Tensor2 cof;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      cof(i, j) = A(i1, j1) * A(i2, j2) - A(i1, j2) * A(i2, j1);
    }
  return (1.0 / J) * cof;
}

struct NeoHookean {
  double mu, lambda;
  double energy(const Tensor2 &F) const {
    const Tensor2 C = matmul(transpose(F), F);
    const double J = det(F), lnJ = std::log(J);
    return 0.5 * mu * (trace(C) - 3.0) - mu * lnJ + 0.5 * lambda * lnJ * lnJ;
  }
  Tensor2 piola(const Tensor2 &F) const {
    const Tensor2 Finv_T = inverse_transpose(F);
    const double lnJ = std::log(det(F));
    Tensor2 P = mu * F - mu * Finv_T;
    P += (lambda * lnJ) * Finv_T;
    return P;
  }
};

extern "C" double hex_energy(const double *u, double mu, double lambda) {
  static const double xi_node[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                                       {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};
  const double g = 1.0 / std::sqrt(3.0);
  const NeoHookean mat{mu, lambda};
  double W = 0, Pnorm = 0;
  for (int gp = 0; gp < 8; ++gp) {
    const double q[3] = {xi_node[gp][0] * g, xi_node[gp][1] * g, xi_node[gp][2] * g};
    Tensor2 H;  // displacement gradient on the unit cube [-1,1]^3 scaled to side 2 -> reference side 1
    for (int a = 0; a < 8; ++a) {
      double dN[3];
      for (int d = 0; d < 3; ++d) {
        double v = xi_node[a][d] * 0.125 * 2.0;
        for (int e = 0; e < 3; ++e)
          if (e != d) v *= 1.0 + xi_node[a][e] * q[e];
        dN[d] = v;
      }
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) H(i, j) += u[3 * a + i] * dN[j];
    }
    const Tensor2 F = Tensor2::identity() + H;
    W += 0.125 * mat.energy(F);
    const Tensor2 P = mat.piola(F);
    Pnorm += std::inner_product(P.a.begin(), P.a.end(), P.a.begin(), 0.0);
  }
  return W + 1e-3 * Pnorm;
}

int main() {
  double u[24], mu = 1.2, lambda = 3.5;
  for (int k = 0; k < 24; ++k) u[k] = 0.04 * std::sin(1.3 * k + 0.2) + (k % 3 == 0 ? 0.01 * (k / 3) : 0.0);
  enum { NP = 26 };
  double *prim[NP];
  for (int k = 0; k < 24; ++k) prim[k] = &u[k];
  prim[24] = &mu; prim[25] = &lambda;
  double fd[NP], ad[NP], du[24] = {0};
  for (int k = 0; k < NP; ++k) fd[k] = HUNT_FD(hex_energy(u, mu, lambda), *prim[k]);
#ifdef MODE_REV
  __enzyme_autodiff((void *)hex_energy, enzyme_dup, u, du, enzyme_const, mu, enzyme_const, lambda);
  for (int k = 0; k < 24; ++k) ad[k] = du[k];
  ad[24] = __enzyme_autodiff((void *)hex_energy, enzyme_const, u, mu, enzyme_const, lambda);
  ad[25] = __enzyme_autodiff((void *)hex_energy, enzyme_const, u, enzyme_const, mu, lambda);
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; ++k) {
    if (k < 24) du[k] = 1.0;
    ad[k] = __enzyme_fwddiff((void *)hex_energy, enzyme_dup, u, du, mu, k == 24 ? 1.0 : 0.0, lambda,
                             k == 25 ? 1.0 : 0.0);
    if (k < 24) du[k] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

#include "hunt.h"
/* P1 finite elements for -div(k grad u) = 1 on the unit square with u = 0 on the boundary: element
   stiffness as std::array<std::array<double,3>,3>, triplets (row, col, value) pushed into a COO
   std::vector, sorted with std::sort by (row, col), duplicates summed while converting to CSR, Dirichlet
   rows replaced by identity, Jacobi-preconditioned conjugate gradients for a fixed number of iterations.
   Structured bindings unpack the triplets and node coordinates.  Objective: the load-weighted mean of u
   (compliance).  Inputs: k = exp(c0 + c1 x + c2 y) coefficients. */
#include <algorithm>
#include <array>
#include <cmath>
#include <tuple>
#include <vector>

using Mat3 = std::array<std::array<double, 3>, 3>;
struct Triplet { int row, col; double val; };

static Mat3 element_stiffness(const std::array<std::pair<double, double>, 3>& xy, double k) {
  const auto& [x0, y0] = xy[0];
  const auto& [x1, y1] = xy[1];
  const auto& [x2, y2] = xy[2];
  double area = 0.5 * ((x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0));
  std::array<double, 3> b = {y1 - y2, y2 - y0, y0 - y1};
  std::array<double, 3> c = {x2 - x1, x0 - x2, x1 - x0};
  Mat3 K{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) K[i][j] = k * (b[i] * b[j] + c[i] * c[j]) / (4.0 * area);
  return K;
}

extern "C" double compliance(const double* c, int m) {
  const int nn = (m + 1) * (m + 1);
  const double h = 1.0 / m;
  auto node = [m](int i, int j) { return j * (m + 1) + i; };
  std::vector<Triplet> coo;
  std::vector<double> rhs(nn, 0.0);
  for (int j = 0; j < m; ++j)
    for (int i = 0; i < m; ++i) {
      std::array<std::array<int, 3>, 2> tris = {{{node(i, j), node(i + 1, j), node(i + 1, j + 1)},
                                                 {node(i, j), node(i + 1, j + 1), node(i, j + 1)}}};
      for (const auto& t : tris) {
        std::array<std::pair<double, double>, 3> xy;
        double xc = 0.0, yc = 0.0;
        for (int a = 0; a < 3; ++a) {
          xy[a] = {(t[a] % (m + 1)) * h, (t[a] / (m + 1)) * h};
          xc += xy[a].first / 3.0;
          yc += xy[a].second / 3.0;
        }
        double k = std::exp(c[0] + c[1] * xc + c[2] * yc);
        Mat3 K = element_stiffness(xy, k);
        for (int a = 0; a < 3; ++a) {
          rhs[t[a]] += h * h / 6.0;
          for (int b = 0; b < 3; ++b) coo.push_back({t[a], t[b], K[a][b]});
        }
      }
    }
  std::sort(coo.begin(), coo.end(), [](const Triplet& a, const Triplet& b) {
    return std::tie(a.row, a.col) < std::tie(b.row, b.col);
  });
  std::vector<int> rowptr(nn + 1, 0), col;
  std::vector<double> val;
  for (const auto& [r, cc, v] : coo) {
    if (!col.empty() && rowptr[r + 1] > 0 && col.back() == cc) {
      val.back() += v;
    } else {
      col.push_back(cc);
      val.push_back(v);
      rowptr[r + 1]++;
    }
  }
  for (int r = 0; r < nn; ++r) rowptr[r + 1] += rowptr[r];
  auto boundary = [m](int n) {
    int i = n % (m + 1), j = n / (m + 1);
    return i == 0 || j == 0 || i == m || j == m;
  };
  for (int r = 0; r < nn; ++r)
    if (boundary(r)) {
      for (int q = rowptr[r]; q < rowptr[r + 1]; ++q) val[q] = col[q] == r ? 1.0 : 0.0;
      rhs[r] = 0.0;
    } else {
      for (int q = rowptr[r]; q < rowptr[r + 1]; ++q)
        if (boundary(col[q])) val[q] = 0.0;
    }
  std::vector<double> diag(nn), u(nn, 0.0), res = rhs, z(nn), d(nn), Ad(nn);
  for (int r = 0; r < nn; ++r)
    for (int q = rowptr[r]; q < rowptr[r + 1]; ++q)
      if (col[q] == r) diag[r] = val[q];
  for (int r = 0; r < nn; ++r) z[r] = res[r] / diag[r];
  d = z;
  double rz = 0.0;
  for (int r = 0; r < nn; ++r) rz += res[r] * z[r];
  for (int it = 0; it < 30; ++it) {
    for (int r = 0; r < nn; ++r) {
      double s = 0.0;
      for (int q = rowptr[r]; q < rowptr[r + 1]; ++q) s += val[q] * d[col[q]];
      Ad[r] = s;
    }
    double dAd = 0.0;
    for (int r = 0; r < nn; ++r) dAd += d[r] * Ad[r];
    double alpha = rz / dAd;
    for (int r = 0; r < nn; ++r) {
      u[r] += alpha * d[r];
      res[r] -= alpha * Ad[r];
      z[r] = res[r] / diag[r];
    }
    double rz_new = 0.0;
    for (int r = 0; r < nn; ++r) rz_new += res[r] * z[r];
    if (rz_new < 1e-28) break;
    double beta = rz_new / rz;
    rz = rz_new;
    for (int r = 0; r < nn; ++r) d[r] = z[r] + beta * d[r];
  }
  double J = 0.0;
  for (int r = 0; r < nn; ++r) J += rhs[r] * u[r];
  return J;
}

static double c[3] = {0.1, 0.8, -0.5};

int main() {
  const int m = 6;
  double fd[3], ad[3], dc[3] = {0};
  for (int q = 0; q < 3; ++q) fd[q] = HUNT_FD(compliance(c, m), c[q]);
#ifdef MODE_REV
  __enzyme_autodiff((void*)compliance, enzyme_dup, c, dc, enzyme_const, m);
  hunt_check_vec("grad", dc, fd, 3);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < 3; ++q) {
    dc[q] = 1.0;
    ad[q] = __enzyme_fwddiff((void*)compliance, enzyme_dup, c, dc, enzyme_const, m);
    dc[q] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, 3);
#endif
  (void)ad;
  return hunt_finish();
}

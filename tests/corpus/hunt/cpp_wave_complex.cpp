#include "hunt.h"
#include <complex>
#include <vector>
/* 1-D time-dependent Schroedinger equation, Crank-Nicolson with a complex tridiagonal (Thomas) solve,
   written with std::complex<double> throughout: std::exp, std::polar, std::norm, std::conj, std::abs and
   complex operators, std::vector<std::complex<double>> buffers.  A Gaussian wave packet hits a barrier
   whose height and width are the parameters.  Objective: transmitted probability plus the real part of
   an overlap with a reference state. */
using cplx = std::complex<double>;

static void thomas(const std::vector<cplx> &a, const std::vector<cplx> &b, const std::vector<cplx> &c,
                   std::vector<cplx> &d) {
  size_t n = d.size();
  std::vector<cplx> cp(n);
  cp[0] = c[0] / b[0];
  d[0] = d[0] / b[0];
  for (size_t i = 1; i < n; i++) {
    cplx m = b[i] - a[i] * cp[i - 1];
    cp[i] = c[i] / m;
    d[i] = (d[i] - a[i] * d[i - 1]) / m;
  }
  for (size_t i = n - 1; i-- > 0;) d[i] -= cp[i] * d[i + 1];
}

extern "C" double transmission(double height, double width, double k0, int n, int steps) {
  const double L = 40.0, dx = L / (n + 1), dt = 0.05;
  std::vector<cplx> psi(n), a(n), b(n), c(n), rhs(n);
  std::vector<double> V(n);
  double norm = 0;
  for (int i = 0; i < n; i++) {
    double x = -L / 2 + (i + 1) * dx;
    psi[i] = std::exp(-(x + 8) * (x + 8) / 4.0) * std::polar(1.0, k0 * x);
    V[i] = height / (1 + std::exp((std::abs(x) - width) * 4.0));   /* smooth barrier */
    norm += std::norm(psi[i]) * dx;
  }
  for (auto &z : psi) z /= std::sqrt(norm);
  const cplx I(0, 1), r = I * dt / (4 * dx * dx);
  for (int i = 0; i < n; i++) {
    a[i] = -r;
    c[i] = -r;
    b[i] = 1.0 + 2.0 * r + I * dt / 2.0 * V[i];
  }
  for (int s = 0; s < steps; s++) {
    for (int i = 0; i < n; i++) {
      cplx left = i > 0 ? psi[i - 1] : 0.0, right = i < n - 1 ? psi[i + 1] : 0.0;
      rhs[i] = (1.0 - 2.0 * r - I * dt / 2.0 * V[i]) * psi[i] + r * (left + right);
    }
    thomas(a, b, c, rhs);
    psi.swap(rhs);
  }
  double transmitted = 0;
  cplx overlap = 0;
  for (int i = 0; i < n; i++) {
    double x = -L / 2 + (i + 1) * dx;
    if (x > width) transmitted += std::norm(psi[i]) * dx;
    overlap += std::conj(std::polar(std::exp(-(x - 6) * (x - 6) / 8.0), k0 * x)) * psi[i] * dx;
  }
  return transmitted + 0.3 * overlap.real() + 0.1 * std::abs(overlap);
}

enum { N = 200, STEPS = 40 };

int main(void) {
  double height = 1.5, width = 0.8, k0 = 1.8;
  double fd[3], ad[3];
  fd[0] = HUNT_FD(transmission(height, width, k0, N, STEPS), height);
  fd[1] = HUNT_FD(transmission(height, width, k0, N, STEPS), width);
  fd[2] = HUNT_FD(transmission(height, width, k0, N, STEPS), k0);
#ifdef MODE_FWD
  for (int k = 0; k < 3; k++)
    ad[k] = __enzyme_fwddiff((void *)transmission, height, k == 0 ? 1.0 : 0.0, width, k == 1 ? 1.0 : 0.0, k0,
                             k == 2 ? 1.0 : 0.0, enzyme_const, N, enzyme_const, STEPS);
#endif
#ifdef MODE_REV
  for (int k = 0; k < 3; k++) { /* one active argument at a time, the others constant */
    if (k == 0) ad[0] = __enzyme_autodiff((void *)transmission, height, enzyme_const, width, enzyme_const, k0,
                                          enzyme_const, N, enzyme_const, STEPS);
    if (k == 1) ad[1] = __enzyme_autodiff((void *)transmission, enzyme_const, height, width, enzyme_const, k0,
                                          enzyme_const, N, enzyme_const, STEPS);
    if (k == 2) ad[2] = __enzyme_autodiff((void *)transmission, enzyme_const, height, enzyme_const, width, k0,
                                          enzyme_const, N, enzyme_const, STEPS);
  }
#endif
  hunt_check_vec("grad", ad, fd, 3);
  return hunt_finish();
}

#include "check.h"
#include <complex>
#include <vector>
/* std::complex<double> in numerical C++: a discrete Fourier transform with twiddle factors
   std::polar / std::exp, the transition probability of a two-level quantum system under a
   time-dependent phase, and a Padé-style rational function with std::pow, std::sqrt, std::log. */
using cplx = std::complex<double>;

/* Spectral energy of a chirp signal x_n = sin(w n + c n^2), weighted by bin: d/dw, d/dc. */
double spectrum_energy(double w, double c) {
  const int N = 16;
  std::vector<cplx> x(N), X(N);
  for (int n = 0; n < N; n++) x[n] = cplx(std::sin(w * n + c * n * n), 0.0);
  for (int k = 0; k < N; k++) {
    cplx acc = 0.0;
    for (int n = 0; n < N; n++) acc += x[n] * std::exp(cplx(0.0, -2.0 * M_PI * k * n / N));
    X[k] = acc;
  }
  double e = 0;
  for (int k = 0; k < N; k++) e += (1.0 + 0.1 * k) * std::norm(X[k]) + 0.01 * std::abs(X[k]);
  return e / N;
}

/* Rabi-like amplitude: psi = cos(Omega t/2) - i (delta/Omega) sin(Omega t/2), with a phase
   exp(i delta t); probability of staying plus the phase angle of the amplitude. */
double two_level(double delta, double t) {
  double Omega = std::sqrt(1.0 + delta * delta);
  cplx psi = std::cos(cplx(Omega * t / 2, 0.0)) - cplx(0, delta / Omega) * std::sin(cplx(Omega * t / 2, 0.1 * t));
  psi *= std::exp(cplx(0.0, delta * t));
  return std::norm(psi) + 0.3 * std::arg(psi) + std::real(std::tanh(psi));
}

/* Rational response with complex powers and roots: a, b are the real and imaginary parts of s. */
double rational(double a, double b) {
  cplx s(a, b);
  cplx num = std::pow(s, cplx(1.5, 0.2)) + std::sqrt(s + 3.0);
  cplx den = 1.0 + std::log(s) * std::pow(s, 2.0);
  cplx h = num / den;
  return std::real(h) + 2.0 * std::imag(h) + std::abs(std::cosh(0.3 * s)) + std::real(std::sinh(s) / (s + 4.0));
}

struct Pair { double da, db; };

int main() {
  auto rev = (Pair (*)(void *, double, double))__enzyme_autodiff;
  double w = 0.7, c = 0.02, x;
  Pair g = rev((void *)spectrum_energy, w, c);
  check("dE/dw", g.da, CENTRAL(spectrum_energy(x, c), x, w), 1e-6);
  check("dE/dc", g.db, CENTRAL(spectrum_energy(w, x), x, c), 1e-6);
  check("forward dE/dc", __enzyme_fwddiff((void *)spectrum_energy, w, 0.0, c, 1.0), g.db, 1e-9);

  double delta = 0.4, t = 2.3;
  Pair q = rev((void *)two_level, delta, t);
  check("dP/ddelta", q.da, CENTRAL(two_level(x, t), x, delta), 1e-6);
  check("dP/dt", q.db, CENTRAL(two_level(delta, x), x, t), 1e-6);
  check("forward dP/ddelta", __enzyme_fwddiff((void *)two_level, delta, 1.0, t, 0.0), q.da, 1e-9);

  double pts[3][2] = {{0.8, 0.3}, {2.0, -1.1}, {-0.6, 0.9}};
  for (auto &p : pts) {
    Pair r = rev((void *)rational, p[0], p[1]);
    check("dH/da", r.da, CENTRAL(rational(x, p[1]), x, p[0]), 1e-6);
    check("dH/db", r.db, CENTRAL(rational(p[0], x), x, p[1]), 1e-6);
    check("forward dH/db", __enzyme_fwddiff((void *)rational, p[0], 0.0, p[1], 1.0), r.db, 1e-9);
  }
  return finish();
}

#include "hunt.h"
/* Orbit determination of a binary star / exoplanet host from astrometry, written with a small Eigen-style
   dense matrix class template `Mat<T, R, C>` over `std::array` (operator() access, `*` of conforming
   sizes, `transpose()`, `+=`, a `Vec<N>` alias, `ldlt_solve` member), Keplerian elements in a struct,
   Kepler's equation by Newton to a tolerance, the Thiele-Innes projection, a Gauss-Newton fit of
   (period-fixed) elements to the observed positions with the Jacobian by the chain rule through a
   central-difference helper templated on a lambda, step halving when the misfit grows, and a
   `std::vector<Observation>`.  Objective: predicted separation at a future epoch from the fitted orbit,
   differentiated with respect to the observed positions (the data sensitivity of the prediction). */
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

template <typename T, int R, int C>
class Mat {
 public:
  Mat() { data_.fill(T(0)); }
  T &operator()(int i, int j) { return data_[i * C + j]; }
  const T &operator()(int i, int j) const { return data_[i * C + j]; }
  Mat<T, C, R> transpose() const {
    Mat<T, C, R> t;
    for (int i = 0; i < R; ++i)
      for (int j = 0; j < C; ++j) t(j, i) = (*this)(i, j);
    return t;
  }
  Mat &operator+=(const Mat &o) {
    for (int k = 0; k < R * C; ++k) data_[k] += o.data_[k];
    return *this;
  }
  T squaredNorm() const {
    T s = 0;
    for (const T &v : data_) s += v * v;
    return s;
  }
  /* Solve this * x = b for a symmetric positive definite matrix by LDL^T. */
  Mat<T, R, 1> ldlt_solve(const Mat<T, R, 1> &b) const {
    static_assert(R == C, "square");
    Mat<T, R, R> L;
    std::array<T, R> D{};
    for (int j = 0; j < R; ++j) {
      T d = (*this)(j, j);
      for (int k = 0; k < j; ++k) d -= L(j, k) * L(j, k) * D[k];
      D[j] = d;
      L(j, j) = 1;
      for (int i = j + 1; i < R; ++i) {
        T s = (*this)(i, j);
        for (int k = 0; k < j; ++k) s -= L(i, k) * L(j, k) * D[k];
        L(i, j) = s / d;
      }
    }
    Mat<T, R, 1> y = b;
    for (int i = 0; i < R; ++i)
      for (int k = 0; k < i; ++k) y(i, 0) -= L(i, k) * y(k, 0);
    for (int i = 0; i < R; ++i) y(i, 0) /= D[i];
    for (int i = R - 1; i >= 0; --i)
      for (int k = i + 1; k < R; ++k) y(i, 0) -= L(k, i) * y(k, 0);
    return y;
  }

 private:
  std::array<T, R * C> data_;
};

template <typename T, int R, int K, int C>
Mat<T, R, C> operator*(const Mat<T, R, K> &a, const Mat<T, K, C> &b) {
  Mat<T, R, C> out;
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j) {
      T s = 0;
      for (int k = 0; k < K; ++k) s += a(i, k) * b(k, j);
      out(i, j) = s;
    }
  return out;
}

template <int N>
using Vec = Mat<double, N, 1>;

struct Elements {
  double a, e, inc, Omega, omega, tp;  // semi-major axis (arcsec), eccentricity, angles (rad), periastron epoch
};

struct Observation {
  double epoch, x, y;  // x = Dec offset, y = RA offset (arcsec)
};

static constexpr double kPeriod = 11.8;  // yr, from spectroscopy; held fixed

static double eccentric_anomaly(double M, double e) {
  double E = e < 0.8 ? M : M_PI;
  for (int it = 0; it < 50; ++it) {
    double dE = (E - e * std::sin(E) - M) / (1 - e * std::cos(E));
    E -= dE;
    if (std::fabs(dE) < 1e-14) break;
  }
  return E;
}

static std::array<double, 2> sky_position(const Elements &el, double t) {
  double M = 2 * M_PI * (t - el.tp) / kPeriod;
  double E = eccentric_anomaly(M, el.e);
  double X = std::cos(E) - el.e, Y = std::sqrt(1 - el.e * el.e) * std::sin(E);
  double cO = std::cos(el.Omega), sO = std::sin(el.Omega), co = std::cos(el.omega), so = std::sin(el.omega),
         ci = std::cos(el.inc);
  double A = el.a * (co * cO - so * sO * ci), B = el.a * (co * sO + so * cO * ci);
  double F = el.a * (-so * cO - co * sO * ci), G = el.a * (-so * sO + co * cO * ci);
  return {A * X + F * Y, B * X + G * Y};
}

static Elements apply(const Elements &el, const Vec<6> &d) {
  return {el.a + d(0, 0), el.e + d(1, 0), el.inc + d(2, 0), el.Omega + d(3, 0), el.omega + d(4, 0), el.tp + d(5, 0)};
}

static double component(const Elements &el, int k) {
  switch (k) {
    case 0: return el.a;
    case 1: return el.e;
    case 2: return el.inc;
    case 3: return el.Omega;
    case 4: return el.omega;
    default: return el.tp;
  }
}

template <typename F>
static std::array<double, 2> central_difference(F &&f, double h) {
  auto p = f(h), m = f(-h);
  return {(p[0] - m[0]) / (2 * h), (p[1] - m[1]) / (2 * h)};
}

static double misfit(const Elements &el, const std::vector<Observation> &obs) {
  double s = 0;
  for (const auto &o : obs) {
    auto p = sky_position(el, o.epoch);
    s += (o.x - p[0]) * (o.x - p[0]) + (o.y - p[1]) * (o.y - p[1]);
  }
  return s;
}

static Elements gauss_newton(Elements el, const std::vector<Observation> &obs) {
  double chi2 = misfit(el, obs);
  for (int iter = 0; iter < 40; ++iter) {
    Mat<double, 6, 6> JtJ;
    Vec<6> Jtr;
    for (const auto &o : obs) {
      auto p = sky_position(el, o.epoch);
      Mat<double, 2, 6> J;
      for (int k = 0; k < 6; ++k) {
        auto col = central_difference(
            [&](double h) {
              Vec<6> d;
              d(k, 0) = h;
              return sky_position(apply(el, d), o.epoch);
            },
            1e-5 * std::max(1.0, std::fabs(component(el, k))));
        J(0, k) = col[0];
        J(1, k) = col[1];
      }
      Vec<2> r;
      r(0, 0) = o.x - p[0];
      r(1, 0) = o.y - p[1];
      JtJ += J.transpose() * J;
      Jtr += J.transpose() * r;
    }
    Vec<6> step = JtJ.ldlt_solve(Jtr);
    double t = 1.0;
    Elements trial = el;
    double chi2_new = chi2;
    for (int halving = 0; halving < 20; ++halving) {
      Vec<6> scaled;
      for (int k = 0; k < 6; ++k) scaled(k, 0) = t * step(k, 0);
      trial = apply(el, scaled);
      chi2_new = misfit(trial, obs);
      if (chi2_new <= chi2) break;
      t *= 0.5;
    }
    el = trial;
    double done = step.squaredNorm() * t * t;
    chi2 = chi2_new;
    if (done < 1e-26) break;
  }
  return el;
}

extern "C" double predicted_separation(const double *xy, const double *epochs, int n, double t_future) {
  std::vector<Observation> obs;
  obs.reserve(n);
  for (int i = 0; i < n; ++i) obs.push_back({epochs[i], xy[2 * i], xy[2 * i + 1]});
  Elements guess{0.9, 0.35, 1.0, 0.6, 1.2, 2001.0};
  Elements fit = gauss_newton(guess, obs);
  auto p = sky_position(fit, t_future);
  return std::hypot(p[0], p[1]);
}

enum { NOBS = 12 };
static double xy[2 * NOBS], epochs[NOBS];
int main() {
  Elements truth{1.0, 0.42, 1.1, 0.7, 1.4, 2000.6};
  for (int i = 0; i < NOBS; ++i) {
    epochs[i] = 1995.0 + 1.1 * i;
    auto p = sky_position(truth, epochs[i]);
    xy[2 * i] = p[0] + 0.004 * std::sin(1.7 * i);
    xy[2 * i + 1] = p[1] + 0.004 * std::cos(2.3 * i);
  }
  const double tf = 2012.5;
  printf("separation %.12g\n", predicted_separation(xy, epochs, NOBS, tf));
  double fd[2 * NOBS], ad[2 * NOBS];
  hunt_fd_step = 1e-3;  // the fit's own Jacobian is a central difference
  for (int i = 0; i < 2 * NOBS; ++i) fd[i] = HUNT_FD(predicted_separation(xy, epochs, NOBS, tf), xy[i]);
#ifdef MODE_REV
  double dxy[2 * NOBS] = {0};
  __enzyme_autodiff((void *)predicted_separation, enzyme_dup, xy, dxy, enzyme_const, epochs, enzyme_const, (int)NOBS,
                    enzyme_const, tf);
  for (int i = 0; i < 2 * NOBS; ++i) ad[i] = dxy[i];
#endif
#ifdef MODE_FWD
  for (int i = 0; i < 2 * NOBS; ++i) {
    double dxy[2 * NOBS] = {0};
    dxy[i] = 1;
    ad[i] = __enzyme_fwddiff((void *)predicted_separation, enzyme_dup, xy, dxy, enzyme_const, epochs, enzyme_const,
                             (int)NOBS, enzyme_const, tf);
  }
#endif
  hunt_check_vec("grad", ad, fd, 2 * NOBS);
  return hunt_finish();
}

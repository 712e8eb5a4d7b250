#include "hunt.h"
/* Implied volatility surface: Black-Scholes prices with the normal CDF through std::erfc, implied
   volatility by safeguarded Newton (Brenner-Subrahmanyam start, bisection fallback when vega is tiny or a
   step leaves the bracket) to a tight tolerance for each quote in a std::vector of structs, then a
   quadratic smile fitted per expiry by normal equations.  Objective: the fitted at-the-money
   volatilities and curvatures.  Inputs: spot, rate and the quoted prices. */
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

struct Quote {
  double strike, expiry, price;
};

static double norm_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }
static double norm_pdf(double x) { return std::exp(-0.5 * x * x) / std::sqrt(2.0 * M_PI); }

static double bs_call(double S, double K, double T, double r, double sigma, double *vega) {
  const double sqT = std::sqrt(T);
  const double d1 = (std::log(S / K) + (r + 0.5 * sigma * sigma) * T) / (sigma * sqT);
  const double d2 = d1 - sigma * sqT;
  if (vega) *vega = S * norm_pdf(d1) * sqT;
  return S * norm_cdf(d1) - K * std::exp(-r * T) * norm_cdf(d2);
}

static double implied_vol(double S, double r, const Quote &q) {
  double lo = 1e-4, hi = 5.0;
  double sigma = std::sqrt(2 * M_PI / q.expiry) * q.price / S;
  sigma = std::clamp(sigma, 0.05, 2.0);
  for (int it = 0; it < 100; ++it) {
    double vega;
    const double diff = bs_call(S, q.strike, q.expiry, r, sigma, &vega) - q.price;
    if (std::fabs(diff) < 1e-13 * q.price) break;
    if (diff > 0) hi = sigma; else lo = sigma;
    double next = vega > 1e-10 ? sigma - diff / vega : 0.5 * (lo + hi);
    if (next <= lo || next >= hi) next = 0.5 * (lo + hi);
    sigma = next;
  }
  return sigma;
}

// least squares fit of iv = a + b m + c m^2 in log-moneyness m
static void fit_smile(const std::vector<double> &m, const std::vector<double> &iv, double coef[3]) {
  double A[3][3] = {{0}}, rhs[3] = {0};
  for (std::size_t i = 0; i < m.size(); ++i) {
    const double basis[3] = {1.0, m[i], m[i] * m[i]};
    for (int a = 0; a < 3; ++a) {
      rhs[a] += basis[a] * iv[i];
      for (int b = 0; b < 3; ++b) A[a][b] += basis[a] * basis[b];
    }
  }
  for (int c = 0; c < 3; ++c)
    for (int r = c + 1; r < 3; ++r) {
      const double f = A[r][c] / A[c][c];
      for (int k = c; k < 3; ++k) A[r][k] -= f * A[c][k];
      rhs[r] -= f * rhs[c];
    }
  for (int r = 2; r >= 0; --r) {
    double s = rhs[r];
    for (int k = r + 1; k < 3; ++k) s -= A[r][k] * coef[k];
    coef[r] = s / A[r][r];
  }
}

extern "C" double smile_objective(double S, double r, const double *prices, int nk) {
  const double expiries[2] = {0.25, 1.0};
  std::vector<Quote> quotes;
  for (int e = 0; e < 2; ++e)
    for (int k = 0; k < nk; ++k)
      quotes.push_back({80.0 + 40.0 * k / (nk - 1), expiries[e], prices[e * nk + k]});
  std::vector<double> ivs(quotes.size());
  std::transform(quotes.begin(), quotes.end(), ivs.begin(), [&](const Quote &q) { return implied_vol(S, r, q); });
  double out = 0;
  for (int e = 0; e < 2; ++e) {
    std::vector<double> m, iv;
    for (std::size_t i = 0; i < quotes.size(); ++i)
      if (quotes[i].expiry == expiries[e]) {
        m.push_back(std::log(quotes[i].strike / (S * std::exp(r * expiries[e]))));
        iv.push_back(ivs[i]);
      }
    double coef[3];
    fit_smile(m, iv, coef);
    out += coef[0] + 0.5 * coef[2];
  }
  const double mean_iv = std::accumulate(ivs.begin(), ivs.end(), 0.0) / ivs.size();
  return out + mean_iv;
}

int main() {
  enum { NK = 7 };
  double S = 100.0, r = 0.02, prices[2 * NK];
  const double T[2] = {0.25, 1.0};
  for (int e = 0; e < 2; ++e)
    for (int k = 0; k < NK; ++k) {
      double K = 80.0 + 40.0 * k / (NK - 1), m = std::log(K / S);
      double vol = 0.22 - 0.1 * m + 0.4 * m * m + 0.02 * e;
      prices[e * NK + k] = bs_call(S, K, T[e], r, vol, nullptr);
    }
  enum { NP = 2 + 2 * NK };
  double *prim[NP];
  prim[0] = &S; prim[1] = &r;
  for (int i = 0; i < 2 * NK; ++i) prim[2 + i] = &prices[i];
  double fd[NP], ad[NP], dp[2 * NK] = {0};
  hunt_fd_step = 1e-5;
  for (int k = 0; k < NP; ++k) fd[k] = HUNT_FD(smile_objective(S, r, prices, NK), *prim[k]);
#ifdef MODE_REV
  ad[0] = __enzyme_autodiff((void *)smile_objective, S, enzyme_const, r, enzyme_dup, prices, dp, enzyme_const, NK);
  for (int i = 0; i < 2 * NK; ++i) ad[2 + i] = dp[i];
  ad[1] = __enzyme_autodiff((void *)smile_objective, enzyme_const, S, r, enzyme_const, prices, enzyme_const, NK);
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; ++k) {
    if (k >= 2) dp[k - 2] = 1.0;
    ad[k] = __enzyme_fwddiff((void *)smile_objective, S, k == 0 ? 1.0 : 0.0, r, k == 1 ? 1.0 : 0.0, enzyme_dup, prices,
                             dp, enzyme_const, NK);
    if (k >= 2) dp[k - 2] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

/* The Gaussian mixture model objective of ADBench (Srajer, Kukelova, Fitzgibbon 2018), written the way its
   C reference is: d-dimensional points x[n][d], k components with weights alphas[k], means[k][d] and inverse
   covariance factors icf[k][d(d+1)/2] (log of the diagonal of Q, then its strictly lower triangle by columns),
   a log-sum-exp over components per point and a Wishart prior on the Q's. */
#include <math.h>
#include <stdlib.h>

#include "gmm.h"

static double arr_max(int n, const double *x) {
  double m = x[0];
  for (int i = 1; i < n; i++)
    if (m < x[i]) m = x[i];
  return m;
}

static double sqnorm(int n, const double *x) {
  double res = x[0] * x[0];
  for (int i = 1; i < n; i++) res += x[i] * x[i];
  return res;
}

static void subtract(int d, const double *x, const double *y, double *out) {
  for (int id = 0; id < d; id++) out[id] = x[id] - y[id];
}

static double log_sum_exp(int n, const double *x) {
  double mx = arr_max(n, x), semx = 0.0;
  for (int i = 0; i < n; i++) semx += exp(x[i] - mx);
  return log(semx) + mx;
}

static double log_gamma_distrib(double a, double p) {
  double out = 0.25 * p * (p - 1) * log(M_PI);
  for (int j = 1; j <= p; j++) out += lgamma(a + 0.5 * (1 - j));
  return out;
}

static void preprocess_qs(int d, int k, const double *icf, double *sum_qs, double *Qdiags) {
  int icf_sz = d * (d + 1) / 2;
  for (int ik = 0; ik < k; ik++) {
    sum_qs[ik] = 0.0;
    for (int id = 0; id < d; id++) {
      double q = icf[ik * icf_sz + id];
      sum_qs[ik] += q;
      Qdiags[ik * d + id] = exp(q);
    }
  }
}

/* out = Q x with Q lower triangular: diagonal Qdiag, strictly lower part ltri packed by columns. */
static void Qtimesx(int d, const double *Qdiag, const double *ltri, const double *x, double *out) {
  for (int id = 0; id < d; id++) out[id] = Qdiag[id] * x[id];
  int Lparamsidx = 0;
  for (int i = 0; i < d; i++)
    for (int j = i + 1; j < d; j++) {
      out[j] += ltri[Lparamsidx] * x[i];
      Lparamsidx++;
    }
}

static double log_wishart_prior(int p, int k, Wishart wishart, const double *sum_qs, const double *Qdiags,
                                 const double *icf) {
  int n = p + wishart.m + 1;
  int icf_sz = p * (p + 1) / 2;
  double C = n * p * (log(wishart.gamma) - 0.5 * log(2)) - log_gamma_distrib(0.5 * n, p);
  double out = 0;
  for (int ik = 0; ik < k; ik++) {
    double frobenius = sqnorm(p, &Qdiags[ik * p]) + sqnorm(icf_sz - p, &icf[ik * icf_sz + p]);
    out = out + 0.5 * wishart.gamma * wishart.gamma * frobenius - wishart.m * sum_qs[ik];
  }
  return out - k * C;
}

void gmm_objective(int d, int k, int n, const double *alphas, const double *means, const double *icf,
                   const double *x, Wishart wishart, double *err) {
  const double CONSTANT = -n * d * 0.5 * log(2 * M_PI);
  int icf_sz = d * (d + 1) / 2;
  double *Qdiags = malloc(d * k * sizeof(double));
  double *sum_qs = malloc(k * sizeof(double));
  double *xcentered = malloc(d * sizeof(double));
  double *Qxcentered = malloc(d * sizeof(double));
  double *main_term = malloc(k * sizeof(double));
  preprocess_qs(d, k, icf, sum_qs, Qdiags);
  double slse = 0.0;
  for (int ix = 0; ix < n; ix++) {
    for (int ik = 0; ik < k; ik++) {
      subtract(d, &x[ix * d], &means[ik * d], xcentered);
      Qtimesx(d, &Qdiags[ik * d], &icf[ik * icf_sz + d], xcentered, Qxcentered);
      main_term[ik] = alphas[ik] + sum_qs[ik] - 0.5 * sqnorm(d, Qxcentered);
    }
    slse = slse + log_sum_exp(k, main_term);
  }
  double lse_alphas = log_sum_exp(k, alphas);
  *err = CONSTANT + slse - n * lse_alphas;
  *err = *err + log_wishart_prior(d, k, wishart, sum_qs, Qdiags, icf);
  free(Qdiags);
  free(sum_qs);
  free(xcentered);
  free(Qxcentered);
  free(main_term);
}

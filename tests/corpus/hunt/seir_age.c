#include "hunt.h"
/* Age-structured SEIR epidemic fitted to weekly case counts, as an epidemiology group writes it: four age
   bands with a POLYMOD-like contact matrix in a `static const double[4][4]`, population shares, age-specific
   susceptibility, a school-closure intervention scaling the school-age block between two dates, a state
   struct of four arrays, RK4 with a helper that forms y + h k into a scratch state, weekly incidence
   accumulated from the E->I flow, and a Poisson deviance against observed counts (with a 0 log 0 guard).
   Inputs: R0, latent and infectious periods, reporting fraction, closure effect (dup array) and
   age-specific susceptibilities (dup array). */
#define NAGE 4
#define NWEEK 16
typedef struct { double S[NAGE], E[NAGE], I[NAGE], R[NAGE]; } seir_state;
typedef struct { double r0, latent_days, infectious_days, report, closure; } epi_params;

static const double CONTACTS[NAGE][NAGE] = {
    {7.5, 2.1, 3.0, 0.6}, {2.1, 11.0, 3.8, 0.7}, {3.0, 3.8, 6.2, 1.3}, {0.6, 0.7, 1.3, 2.4}};
static const double POP_SHARE[NAGE] = {0.18, 0.12, 0.52, 0.18};
static const double POPULATION = 2.0e6;

static double dominant_eigenvalue(const double m[NAGE][NAGE]) {
  double v[NAGE] = {1, 1, 1, 1}, lambda = 0;
  for (int it = 0; it < 200; it++) {
    double w[NAGE] = {0}, norm = 0;
    for (int i = 0; i < NAGE; i++)
      for (int j = 0; j < NAGE; j++) w[i] += m[i][j] * v[j];
    for (int i = 0; i < NAGE; i++) norm += w[i] * w[i];
    norm = sqrt(norm);
    double change = 0;
    for (int i = 0; i < NAGE; i++) {
      change += fabs(w[i] / norm - v[i]);
      v[i] = w[i] / norm;
    }
    lambda = norm;
    if (change < 1e-14) break;
  }
  return lambda;
}

static void derivatives(const seir_state *y, const double beta_eff[NAGE][NAGE], const epi_params *p,
                        seir_state *dy, double *new_cases) {
  double sigma = 1.0 / p->latent_days, gamma = 1.0 / p->infectious_days;
  for (int a = 0; a < NAGE; a++) {
    double force = 0;
    for (int b = 0; b < NAGE; b++) force += beta_eff[a][b] * y->I[b] / POP_SHARE[b];
    double infect = force * y->S[a];
    dy->S[a] = -infect;
    dy->E[a] = infect - sigma * y->E[a];
    dy->I[a] = sigma * y->E[a] - gamma * y->I[a];
    dy->R[a] = gamma * y->I[a];
    if (new_cases) new_cases[a] = sigma * y->E[a];
  }
}

static void axpy_state(seir_state *out, const seir_state *y, double h, const seir_state *k) {
  for (int a = 0; a < NAGE; a++) {
    out->S[a] = y->S[a] + h * k->S[a];
    out->E[a] = y->E[a] + h * k->E[a];
    out->I[a] = y->I[a] + h * k->I[a];
    out->R[a] = y->R[a] + h * k->R[a];
  }
}

double epidemic_deviance(const double *par, const double *susc, const double *observed) {
  epi_params p = {par[0], par[1], par[2], par[3], par[4]};
  /* next-generation scaling: beta so that the dominant eigenvalue gives R0 */
  double ngm[NAGE][NAGE], beta_eff[NAGE][NAGE];
  for (int a = 0; a < NAGE; a++)
    for (int b = 0; b < NAGE; b++) ngm[a][b] = susc[a] * CONTACTS[a][b] * POP_SHARE[a] / POP_SHARE[b] * p.infectious_days;
  double scale = p.r0 / dominant_eigenvalue((const double(*)[NAGE])ngm);
  seir_state y;
  memset(&y, 0, sizeof y);
  for (int a = 0; a < NAGE; a++) {
    y.S[a] = POP_SHARE[a];
    y.E[a] = a == 2 ? 5e-5 : 0.0;
  }
  const double h = 0.25;
  double deviance = 0;
  for (int week = 0; week < NWEEK; week++) {
    double cases[NAGE] = {0};
    int closed = week >= 4 && week < 9;
    for (int a = 0; a < NAGE; a++)
      for (int b = 0; b < NAGE; b++) {
        double c = CONTACTS[a][b];
        if (closed && (a == 1 || b == 1)) c *= p.closure;
        beta_eff[a][b] = scale * susc[a] * c * POP_SHARE[a];
      }
    for (int step = 0; step < 28; step++) {
      seir_state k1, k2, k3, k4, tmp;
      double c1[NAGE], c2[NAGE], c3[NAGE], c4[NAGE];
      derivatives(&y, (const double(*)[NAGE])beta_eff, &p, &k1, c1);
      axpy_state(&tmp, &y, h / 2, &k1);
      derivatives(&tmp, (const double(*)[NAGE])beta_eff, &p, &k2, c2);
      axpy_state(&tmp, &y, h / 2, &k2);
      derivatives(&tmp, (const double(*)[NAGE])beta_eff, &p, &k3, c3);
      axpy_state(&tmp, &y, h, &k3);
      derivatives(&tmp, (const double(*)[NAGE])beta_eff, &p, &k4, c4);
      for (int a = 0; a < NAGE; a++) {
        y.S[a] += h / 6 * (k1.S[a] + 2 * k2.S[a] + 2 * k3.S[a] + k4.S[a]);
        y.E[a] += h / 6 * (k1.E[a] + 2 * k2.E[a] + 2 * k3.E[a] + k4.E[a]);
        y.I[a] += h / 6 * (k1.I[a] + 2 * k2.I[a] + 2 * k3.I[a] + k4.I[a]);
        y.R[a] += h / 6 * (k1.R[a] + 2 * k2.R[a] + 2 * k3.R[a] + k4.R[a]);
        cases[a] += h / 6 * (c1[a] + 2 * c2[a] + 2 * c3[a] + c4[a]);
      }
    }
    for (int a = 0; a < NAGE; a++) {
      double mu = p.report * cases[a] * POPULATION, obs = observed[week * NAGE + a];
      double term = obs > 0 ? obs * log(obs / mu) : 0.0;
      deviance += 2 * (term - (obs - mu));
    }
  }
  return deviance;
}

static double par[5] = {2.4, 3.5, 5.0, 0.3, 0.45}, susc[NAGE] = {0.6, 0.8, 1.0, 1.2}, observed[NWEEK * NAGE];
int main(void) {
  for (int w = 0; w < NWEEK; w++)
    for (int a = 0; a < NAGE; a++)
      observed[w * NAGE + a] = w < 2 && a == 0 ? 0.0 : floor(30.0 * (1 + a) * exp(-0.5 * pow((w - 8.0 - a) / 3.0, 2)) + 2);
  double fd[9], ad[9];
  printf("deviance %.12g\n", epidemic_deviance(par, susc, observed));
  for (int k = 0; k < 5; k++) fd[k] = HUNT_FD(epidemic_deviance(par, susc, observed), par[k]);
  for (int k = 0; k < NAGE; k++) fd[5 + k] = HUNT_FD(epidemic_deviance(par, susc, observed), susc[k]);
#ifdef MODE_REV
  double dp[5] = {0}, ds[NAGE] = {0};
  __enzyme_autodiff((void *)epidemic_deviance, enzyme_dup, par, dp, enzyme_dup, susc, ds, enzyme_const, observed);
  for (int k = 0; k < 5; k++) ad[k] = dp[k];
  for (int k = 0; k < NAGE; k++) ad[5 + k] = ds[k];
#endif
#ifdef MODE_FWD
  for (int k = 0; k < 9; k++) {
    double dp[5] = {0}, ds[NAGE] = {0};
    if (k < 5) dp[k] = 1; else ds[k - 5] = 1;
    ad[k] = __enzyme_fwddiff((void *)epidemic_deviance, enzyme_dup, par, dp, enzyme_dup, susc, ds, enzyme_const, observed);
  }
#endif
  hunt_check_vec("grad", ad, fd, 9);
  return hunt_finish();
}

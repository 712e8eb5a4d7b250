#include "hunt.h"
/* Levenberg-Marquardt curve fitting in the style of a small numerical library: a model given as a
   function pointer with an optional analytic Jacobian (NULL selects a central-difference Jacobian with a
   step scaled to each parameter, the fallback most codes ship), a problem struct with a `void *` context,
   a malloc'd workspace struct, normal equations with Marquardt's diagonal scaling solved by Cholesky,
   lambda raised or lowered on rejected / accepted steps, and stopping tests on the relative reduction and
   step size.  Two fits of a biexponential drug-washout curve (numerical Jacobian) and a Hill dose-response
   curve (analytic Jacobian); the objective is a derived quantity of the fitted parameters (terminal
   half-life plus EC50) so its derivative with respect to the data is the data sensitivity of the fit. */
typedef void (*model_fn)(const double *p, const double *x, int n, double *out, const void *ctx);
typedef void (*jac_fn)(const double *p, const double *x, int n, double *jac, const void *ctx);

typedef struct { model_fn f; jac_fn jac; const void *ctx; int np; } lm_problem;
typedef struct { double *r, *r_try, *J, *JtJ, *g, *step, *p_try, *L; } lm_work;

static lm_work work_alloc(int n, int np) {
  lm_work w;
  w.r = malloc(n * sizeof(double));
  w.r_try = malloc(n * sizeof(double));
  w.J = malloc((size_t)n * np * sizeof(double));
  w.JtJ = malloc(np * np * sizeof(double));
  w.g = malloc(np * sizeof(double));
  w.step = malloc(np * sizeof(double));
  w.p_try = malloc(np * sizeof(double));
  w.L = malloc(np * np * sizeof(double));
  return w;
}
static void work_free(lm_work *w) {
  free(w->r); free(w->r_try); free(w->J); free(w->JtJ); free(w->g); free(w->step); free(w->p_try); free(w->L);
}

static double residuals(const lm_problem *pb, const double *p, const double *x, const double *y, int n, double *r) {
  pb->f(p, x, n, r, pb->ctx);
  double ss = 0;
  for (int i = 0; i < n; i++) {
    r[i] = y[i] - r[i];
    ss += r[i] * r[i];
  }
  return ss;
}

static void numerical_jacobian(const lm_problem *pb, double *p, const double *x, int n, double *J, double *tmp) {
  /* central differences, step ~ cbrt(machine epsilon) relative to the parameter */
  double *minus = malloc(n * sizeof(double));
  for (int k = 0; k < pb->np; k++) {
    double save = p[k], h = 6e-6 * (fabs(save) > 1e-3 ? fabs(save) : 1e-3);
    p[k] = save + h;
    pb->f(p, x, n, tmp, pb->ctx);
    p[k] = save - h;
    pb->f(p, x, n, minus, pb->ctx);
    p[k] = save;
    for (int i = 0; i < n; i++) J[i * pb->np + k] = (tmp[i] - minus[i]) / (2 * h);
  }
  free(minus);
}

static int cholesky_solve(double *A, double *L, double *b, double *x, int m) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j <= i; j++) {
      double s = A[i * m + j];
      for (int k = 0; k < j; k++) s -= L[i * m + k] * L[j * m + k];
      if (i == j) {
        if (s <= 0) return -1;
        L[i * m + i] = sqrt(s);
      } else {
        L[i * m + j] = s / L[j * m + j];
      }
    }
  for (int i = 0; i < m; i++) {
    double s = b[i];
    for (int k = 0; k < i; k++) s -= L[i * m + k] * x[k];
    x[i] = s / L[i * m + i];
  }
  for (int i = m - 1; i >= 0; i--) {
    double s = x[i];
    for (int k = i + 1; k < m; k++) s -= L[k * m + i] * x[k];
    x[i] = s / L[i * m + i];
  }
  return 0;
}

static int levmar(const lm_problem *pb, double *p, const double *x, const double *y, int n, int max_iter) {
  int np = pb->np, it;
  lm_work w = work_alloc(n, np);
  double lambda = 1e-3, ss = residuals(pb, p, x, y, n, w.r);
  for (it = 0; it < max_iter; it++) {
    if (pb->jac) {
      pb->jac(p, x, n, w.J, pb->ctx);
    } else {
      numerical_jacobian(pb, p, x, n, w.J, w.r_try);
    }
    for (int a = 0; a < np; a++) {
      w.g[a] = 0;
      for (int i = 0; i < n; i++) w.g[a] += w.J[i * np + a] * w.r[i];
      for (int b = 0; b < np; b++) {
        double s = 0;
        for (int i = 0; i < n; i++) s += w.J[i * np + a] * w.J[i * np + b];
        w.JtJ[a * np + b] = s;
      }
    }
    int accepted = 0;
    while (!accepted && lambda < 1e12) {
      double *A = malloc(np * np * sizeof(double));
      memcpy(A, w.JtJ, np * np * sizeof(double));
      for (int a = 0; a < np; a++) A[a * np + a] *= 1 + lambda;
      int bad = cholesky_solve(A, w.L, w.g, w.step, np);
      free(A);
      if (bad) { lambda *= 10; continue; }
      for (int a = 0; a < np; a++) w.p_try[a] = p[a] + w.step[a];
      double ss_try = residuals(pb, w.p_try, x, y, n, w.r_try);
      if (ss_try < ss) {
        double rel = (ss - ss_try) / ss;
        memcpy(p, w.p_try, np * sizeof(double));
        memcpy(w.r, w.r_try, n * sizeof(double));
        ss = ss_try;
        lambda = fmax(lambda / 10, 1e-12);
        accepted = 1;
        double stepnorm = 0, pnorm = 0;
        for (int a = 0; a < np; a++) { stepnorm += w.step[a] * w.step[a]; pnorm += p[a] * p[a]; }
        if (rel < 1e-15 && sqrt(stepnorm) < 1e-12 * sqrt(pnorm)) { it = max_iter; }
      } else {
        lambda *= 10;
      }
    }
    if (!accepted) break;
  }
  work_free(&w);
  return it;
}

/* biexponential washout: p = {A, k1, B, k2} */
static void biexp(const double *p, const double *x, int n, double *out, const void *ctx) {
  (void)ctx;
  for (int i = 0; i < n; i++) out[i] = p[0] * exp(-p[1] * x[i]) + p[2] * exp(-p[3] * x[i]);
}
/* Hill curve: p = {bottom, top, log10 EC50, slope}; ctx carries the log base */
static void hill(const double *p, const double *x, int n, double *out, const void *ctx) {
  double ln10 = *(const double *)ctx;
  for (int i = 0; i < n; i++) out[i] = p[0] + (p[1] - p[0]) / (1 + exp(p[3] * ln10 * (p[2] - x[i])));
}
static void hill_jac(const double *p, const double *x, int n, double *J, const void *ctx) {
  double ln10 = *(const double *)ctx;
  for (int i = 0; i < n; i++) {
    double e = exp(p[3] * ln10 * (p[2] - x[i])), d = 1 + e;
    J[i * 4 + 0] = 1 - 1 / d;
    J[i * 4 + 1] = 1 / d;
    J[i * 4 + 2] = -(p[1] - p[0]) * e * p[3] * ln10 / (d * d);
    J[i * 4 + 3] = -(p[1] - p[0]) * e * ln10 * (p[2] - x[i]) / (d * d);
  }
}

#define NT 14
#define ND 10
static const double T_OBS[NT] = {0.25, 0.5, 1, 1.5, 2, 3, 4, 6, 8, 10, 12, 16, 20, 24};
static const double DOSE_LOG[ND] = {-9, -8.5, -8, -7.5, -7, -6.5, -6, -5.5, -5, -4.5};

double fit_summary(const double *conc, const double *response) {
  static const double LN10 = 2.302585092994046;
  double p1[4] = {8.0, 1.0, 2.0, 0.1}, p2[4] = {5.0, 95.0, -7.0, 1.0};
  lm_problem washout = {biexp, NULL, NULL, 4}, doseresp = {hill, hill_jac, &LN10, 4};
  levmar(&washout, p1, T_OBS, conc, NT, 200);
  levmar(&doseresp, p2, DOSE_LOG, response, ND, 200);
  double kterm = fmin(p1[1], p1[3]);
  return log(2.0) / kterm + p2[2];
}

static double conc[NT], response[ND];
int main(void) {
  for (int i = 0; i < NT; i++)
    conc[i] = 7.0 * exp(-1.3 * T_OBS[i]) + 2.5 * exp(-0.12 * T_OBS[i]) + 0.05 * sin(3.0 * i);
  for (int i = 0; i < ND; i++)
    response[i] = 4.0 + 90.0 / (1 + exp(1.2 * 2.302585 * (-7.2 - DOSE_LOG[i]))) + 1.5 * cos(2.0 * i);
  double fd[NT + ND], ad[NT + ND];
  hunt_fd_step = 1e-2; /* the fits stop at their noise floor (LM rejects steps that gain nothing): small steps see it */
  printf("summary %.12g\n", fit_summary(conc, response));
  for (int i = 0; i < NT; i++) fd[i] = HUNT_FD(fit_summary(conc, response), conc[i]);
  for (int i = 0; i < ND; i++) fd[NT + i] = HUNT_FD(fit_summary(conc, response), response[i]);
#ifdef MODE_REV
  double dc[NT] = {0}, dr[ND] = {0};
  __enzyme_autodiff((void *)fit_summary, enzyme_dup, conc, dc, enzyme_dup, response, dr);
  for (int i = 0; i < NT; i++) ad[i] = dc[i];
  for (int i = 0; i < ND; i++) ad[NT + i] = dr[i];
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NT + ND; k++) {
    double dc[NT] = {0}, dr[ND] = {0};
    if (k < NT) dc[k] = 1; else dr[k - NT] = 1;
    ad[k] = __enzyme_fwddiff((void *)fit_summary, enzyme_dup, conc, dc, enzyme_dup, response, dr);
  }
#endif
  hunt_check_vec("grad", ad, fd, NT + ND);
  return hunt_finish();
}

#include "hunt.h"
/* Natural cubic spline through (x_i, y_i): second derivatives from a tridiagonal system (Thomas
   algorithm), evaluation by binary search for the interval at query points, and a misfit against
   data at those points.  Inputs: the knot values y, a knot position and the query points. */
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);

typedef struct {
  int n;
  const double *x, *y;
  double *m; /* second derivatives */
} Spline;

static void spline_init(Spline *s) {
  int n = s->n;
  double *c = malloc(sizeof(double) * n), *d = malloc(sizeof(double) * n);
  s->m[0] = s->m[n - 1] = 0.0;
  /* interior equations: h0 m_{i-1} + 2(h0+h1) m_i + h1 m_{i+1} = 6 (slope diff) */
  c[0] = 0.0; d[0] = 0.0;
  for (int i = 1; i < n - 1; i++) {
    double h0 = s->x[i] - s->x[i - 1], h1 = s->x[i + 1] - s->x[i];
    double rhs = 6.0 * ((s->y[i + 1] - s->y[i]) / h1 - (s->y[i] - s->y[i - 1]) / h0);
    double diag = 2.0 * (h0 + h1) - h0 * c[i - 1];
    c[i] = h1 / diag;
    d[i] = (rhs - h0 * d[i - 1]) / diag;
  }
  for (int i = n - 2; i >= 1; i--) s->m[i] = d[i] - c[i] * s->m[i + 1];
  free(c); free(d);
}

static int find_interval(const double *x, int n, double t) {
  int lo = 0, hi = n - 1;
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (x[mid] > t) hi = mid; else lo = mid;
  }
  return lo;
}

static double spline_eval(const Spline *s, double t) {
  int i = find_interval(s->x, s->n, t);
  double h = s->x[i + 1] - s->x[i], a = (s->x[i + 1] - t) / h, b = (t - s->x[i]) / h;
  return a * s->y[i] + b * s->y[i + 1] + ((a * a * a - a) * s->m[i] + (b * b * b - b) * s->m[i + 1]) * h * h / 6.0;
}

double spline_misfit(const double *xk, const double *yk, int n, const double *tq, const double *data, int nq) {
  double *m = malloc(sizeof(double) * n);
  Spline s = {n, xk, yk, m};
  spline_init(&s);
  double r = 0.0;
  for (int q = 0; q < nq; q++) {
    double e = spline_eval(&s, tq[q]) - data[q];
    r += e * e;
  }
  free(m);
  return r;
}

enum { N = 9, NQ = 15, NP = 6 };
static double xk[N], yk[N], tq[NQ], data[NQ];

int main(void) {
  for (int i = 0; i < N; i++) { xk[i] = i + 0.1 * sin(2.0 * i); yk[i] = cos(0.6 * i); }
  for (int q = 0; q < NQ; q++) { tq[q] = 0.05 + 7.9 * q / (NQ - 1); data[q] = cos(0.6 * tq[q]) + 0.05 * sin(9.0 * q); }
  double *prim[NP] = {&yk[0], &yk[4], &yk[8], &xk[3], &tq[2], &tq[9]};
  double fd[NP], ad[NP];
  hunt_fd_step = 1e-6; /* the interval search is piecewise constant */
  for (int q = 0; q < NP; q++) fd[q] = HUNT_FD(spline_misfit(xk, yk, N, tq, data, NQ), *prim[q]);
  double dxk[N] = {0}, dyk[N] = {0}, dtq[NQ] = {0};
  double *shad[NP] = {&dyk[0], &dyk[4], &dyk[8], &dxk[3], &dtq[2], &dtq[9]};
#ifdef MODE_REV
  __enzyme_autodiff((void *)spline_misfit, enzyme_dup, xk, dxk, enzyme_dup, yk, dyk, enzyme_const, N, enzyme_dup, tq,
                    dtq, enzyme_const, data, enzyme_const, NQ);
  for (int q = 0; q < NP; q++) ad[q] = *shad[q];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < NP; q++) {
    *shad[q] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)spline_misfit, enzyme_dup, xk, dxk, enzyme_dup, yk, dyk, enzyme_const, N,
                             enzyme_dup, tq, dtq, enzyme_const, data, enzyme_const, NQ);
    *shad[q] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_BATCH
  double dxk2[N] = {0}, dyk2[N] = {0}, dtq2[NQ] = {0};
  double *shad2[NP] = {&dyk2[0], &dyk2[4], &dyk2[8], &dxk2[3], &dtq2[2], &dtq2[9]};
  for (int q = 0; q < NP; q += 2) {
    *shad[q] = 1.0; *shad2[q + 1] = 1.0;
    v2 t = __enzyme_fwddiff_v2((void *)spline_misfit, enzyme_width, 2, enzyme_dup, xk, dxk, dxk2, enzyme_dup, yk, dyk,
                               dyk2, enzyme_const, N, enzyme_dup, tq, dtq, dtq2, enzyme_const, data, enzyme_const, NQ);
    *shad[q] = 0.0; *shad2[q + 1] = 0.0;
    ad[q] = t.d[0]; ad[q + 1] = t.d[1];
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_SPLIT
  aug_t r = __enzyme_augmentfwd((void *)spline_misfit, enzyme_dup, xk, dxk, enzyme_dup, yk, dyk, enzyme_const, N,
                                enzyme_dup, tq, dtq, enzyme_const, data, enzyme_const, NQ);
  hunt_check("primal", r.primal, spline_misfit(xk, yk, N, tq, data, NQ));
  __enzyme_reverse((void *)spline_misfit, enzyme_dup, xk, dxk, enzyme_dup, yk, dyk, enzyme_const, N, enzyme_dup, tq,
                   dtq, enzyme_const, data, enzyme_const, NQ, 1.0, r.tape);
  for (int q = 0; q < NP; q++) ad[q] = *shad[q];
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

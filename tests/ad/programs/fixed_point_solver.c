#include "check.h"
/* __enzyme_fixed_point (<enzyme/fixed_point.h>): a small nonlinear equilibrium u = phi(u, q, b) solved by
   iterating to convergence, differentiated at the converged state (implicit function theorem) instead of
   through the iterations.  The loss reads the state and an output the step writes.  Reverse and forward
   mode are checked against central differences of the loss computed by the plain loop, against each other,
   and the state's shadow is zero, the primal state unchanged, after the reverse pass. */
#include <enzyme/fixed_point.h>
#include <stdint.h>
#include <string.h>

enum { N = 3 };
static const double M[N][N] = {{0.6, -0.2, 0.1}, {0.3, 0.5, -0.4}, {-0.1, 0.2, 0.7}};

/* One damped iteration; *q scales the nonlinearity; out gets a by-product of the state. */
__attribute__((noinline)) static int relax(int64_t it, double *u, const double *q, const double *b, double *out,
                                           const double *tol) {
  (void)it;
  double next[N], change = 0;
  for (int k = 0; k < N; k++) {
    double s = 0;
    for (int j = 0; j < N; j++) s += M[k][j] * u[j];
    next[k] = 0.5 * u[k] + 0.5 * (*q * cos(s) + b[k]);
  }
  for (int k = 0; k < N; k++) {
    out[k] = next[k] * next[k];
    change = fmax(change, fabs(next[k] - u[k]));
    u[k] = next[k];
  }
  return change > *tol;
}

static double tolerance = 1e-15;

static double objective(const double *u, const double *out) {
  double s = 0;
  for (int k = 0; k < N; k++) s += (k + 1) * u[k] * u[k] + out[k] * u[k];
  return s;
}

static double solved(double *u, double *q, double *b, double *out) {
  __enzyme_fixed_point((void *)relax, enzyme_fp_state, u, (int64_t)sizeof(double) * N, enzyme_fp_reduction,
                       1e-28, u, q, b, out, &tolerance);
  return objective(u, out);
}

/* The same solve as a plain loop: the reference for central differences. */
static double plain(double q, const double *b) {
  double u[N] = {0}, out[N] = {0};
  int64_t i = 0;
  while (relax(i++, u, &q, b, out, &tolerance)) {}
  return objective(u, out);
}

static int passes;
static int count_passes(double *cumul, double *reduction) {
  (void)reduction;
  passes++;
  return *cumul < 0 || passes < 3;
}

static double two_passes(double *u, double *q, double *b, double *out) {
  __enzyme_fixed_point((void *)relax, enzyme_fp_state, u, (int64_t)sizeof(double) * N, enzyme_fp_control,
                       count_passes, u, q, b, out, &tolerance);
  return objective(u, out);
}

/* Solves inside a time loop that overwrites the parameter and the state after each solve: each solve's
   reverse pass must linearize at its own inputs, not at what later code left in memory. */
static double march(double *u, double *q, double *b, double *out, int fixed) {
  double total = 0, qq = *q;
  for (int t = 0; t < 3; t++) {
    if (fixed) {
      __enzyme_fixed_point((void *)relax, enzyme_fp_state, u, (int64_t)sizeof(double) * N, enzyme_fp_reduction,
                           1e-28, u, &qq, b, out, &tolerance);
    } else {
      int64_t i = 0;
      while (relax(i++, u, &qq, b, out, &tolerance)) {}
    }
    total += objective(u, out);
    qq = 0.5 * qq + 0.2 * u[t % N];            /* the next solve's parameter */
    for (int k = 0; k < N; k++) u[k] *= 0.5;   /* the next solve's starting guess */
  }
  return total;
}
static double march_plain(double q, const double *b) {
  double u[N] = {0}, out[N] = {0}, bb[N];
  memcpy(bb, b, sizeof bb);
  return march(u, &q, bb, out, 0);
}

int main(void) {
  double b[N] = {0.2, -0.1, 0.4}, q = 0.8, p;
  double u[N] = {0}, out[N] = {0}, du[N] = {0}, dq = 0, db[N] = {0}, dout[N] = {0};
  __enzyme_autodiff((void *)solved, enzyme_dup, u, du, enzyme_dup, &q, &dq, enzyme_dup, b, db, enzyme_dup, out, dout);
  check("reverse dq", dq, CENTRAL(plain(p, b), p, q), 1e-6);
  for (int k = 0; k < N; k++) check("reverse db", db[k], CENTRAL(plain(q, b), b[k], b[k]), 1e-6);
  for (int k = 0; k < N; k++) check("state adjoint cleared", du[k], 0.0, 0.0);
  double u_plain[N] = {0}, out_plain[N] = {0};
  int64_t i = 0;
  while (relax(i++, u_plain, &q, b, out_plain, &tolerance)) {}
  check("primal state kept", (double)memcmp(u, u_plain, sizeof u), 0.0, 0.0);

  /* Forward: the tangent along (q, b) = (1, db_dir); the initial guess's tangent has no effect. */
  double bdir[N] = {0.5, -1.0, 0.25}, v[N] = {0}, dv[N] = {7, 7, 7}, o[N] = {0}, dq1 = 1.0, dout1[N] = {0};
  double t = __enzyme_fwddiff((void *)solved, enzyme_dup, v, dv, enzyme_dup, &q, &dq1, enzyme_dup, b, bdir,
                              enzyme_dup, o, dout1);
  double h = 1e-6, bp[N], bm[N];
  for (int k = 0; k < N; k++) { bp[k] = b[k] + h * bdir[k]; bm[k] = b[k] - h * bdir[k]; }
  check("forward tangent", t, (plain(q + h, bp) - plain(q - h, bm)) / (2 * h), 1e-6);
  check("forward equals reverse", t, dq + dot(db, bdir, N), 1e-10);

  /* A control function that stops after two passes: approximate, not exact, and called three times. */
  double w[N] = {0}, dw[N] = {0}, dq2 = 0, db2[N] = {0}, out2[N] = {0}, dout2[N] = {0};
  __enzyme_autodiff((void *)two_passes, enzyme_dup, w, dw, enzyme_dup, &q, &dq2, enzyme_dup, b, db2, enzyme_dup,
                    out2, dout2);
  check("control called before and after each pass", passes, 3, 0.0);
  check("two passes are approximate", fabs(dq2 - dq) > 1e-8 * fabs(dq) && fabs(dq2 - dq) < 0.5 * fabs(dq), 1, 0);
  double mu[N] = {0}, mdu[N] = {0}, mq = q, mdq = 0, mdb[N] = {0}, mout[N] = {0}, mdout[N] = {0};
  __enzyme_autodiff((void *)march, enzyme_dup, mu, mdu, enzyme_dup, &mq, &mdq, enzyme_dup, b, mdb, enzyme_dup, mout,
                    mdout, enzyme_const, 1);
  check("time loop: dq", mdq, CENTRAL(march_plain(p, b), p, q), 1e-6);
  for (int k = 0; k < N; k++) check("time loop: db", mdb[k], CENTRAL(march_plain(q, b), b[k], b[k]), 1e-6);
  return finish();
}

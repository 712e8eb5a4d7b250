#include "check.h"
/* Batched split reverse mode: enzyme_width, 2 with __enzyme_augmentfwd / __enzyme_reverse.  Two adjoint
   directions (two rows of a Jacobian) from one forward sweep: each dup argument has two shadows, the reverse
   sweep takes one dret per direction and returns each enzyme_out adjoint as two values.  Also with one
   contiguous shadow (enzyme_dupv).  Checked against the unbatched split mode and central differences. */
extern int enzyme_width, enzyme_dupv;
typedef struct { void *tape; double primal; } aug_t;
typedef struct { double d[2]; } two_t;
aug_t __enzyme_augmentfwd(void *, ...);
two_t __enzyme_reverse(void *, ...);
double __enzyme_reverse_1(void *, ...);
void __enzyme_reverse_void(void *, ...);

enum { N = 3 };

/* A smoothing pass in place, then a weighted log-sum-exp of the smoothed values. */
double smooth_lse(double *x, double beta, int n) {
  for (int i = n - 1; i > 0; i--) x[i] = 0.5 * (x[i] + x[i - 1]) + 0.1 * sin(x[i]);
  double s = 0;
  for (int i = 0; i < n; i++) s += exp(beta * x[i]);
  return log(s) / beta;
}

static double value(const double *x0, double beta, const double *w, double dret) {
  double x[N];
  for (int i = 0; i < N; i++) x[i] = x0[i];
  double r = smooth_lse(x, beta, N);
  return dret * r + dot(w, x, N);  /* what a seeded reverse sweep differentiates */
}

int main(void) {
  const double x0[N] = {0.4, -1.1, 0.9}, beta = 1.7;
  const double w0[N] = {0.0, 1.0, -0.5}, w1[N] = {2.0, 0.0, 0.25};  /* adjoints of x after the call */
  const double dret0 = 1.0, dret1 = -0.75;
  double x[N], d0[N], d1[N];
  for (int i = 0; i < N; i++) { x[i] = x0[i]; d0[i] = 0; d1[i] = 0; }
  aug_t a = __enzyme_augmentfwd((void *)smooth_lse, enzyme_width, 2, enzyme_dup, x, d0, d1, enzyme_out, beta,
                                enzyme_const, N);
  double xs[N];
  for (int i = 0; i < N; i++) xs[i] = x0[i];
  check("primal", a.primal, smooth_lse(xs, beta, N), 1e-14);
  for (int i = 0; i < N; i++) { x[i] = 1e3; d0[i] = w0[i]; d1[i] = w1[i]; }  /* scramble x, seed outputs */
  two_t db = __enzyme_reverse((void *)smooth_lse, enzyme_width, 2, enzyme_dup, x, d0, d1, enzyme_out, beta,
                              enzyme_const, N, dret0, dret1, a.tape);
  /* Each direction against the unbatched split mode and central differences. */
  const double *ws[2] = {w0, w1}, drets[2] = {dret0, dret1};
  double *ds[2] = {d0, d1};
  for (int j = 0; j < 2; j++) {
    double y[N], dy[N], bv;
    for (int i = 0; i < N; i++) { y[i] = x0[i]; dy[i] = 0; }
    aug_t a1 = __enzyme_augmentfwd((void *)smooth_lse, enzyme_dup, y, dy, enzyme_out, beta, enzyme_const, N);
    for (int i = 0; i < N; i++) dy[i] = ws[j][i];
    double dbeta = __enzyme_reverse_1((void *)smooth_lse, enzyme_dup, y, dy, enzyme_out, beta, enzyme_const, N,
                                      drets[j], a1.tape);
    check("dbeta batched vs single", db.d[j], dbeta, 1e-13);
    check("dbeta central", db.d[j], CENTRAL(value(x0, bv, ws[j], drets[j]), bv, beta), 1e-6);
    for (int i = 0; i < N; i++) {
      double xc[N];
      for (int k = 0; k < N; k++) xc[k] = x0[k];
      check("dx batched vs single", ds[j][i], dy[i], 1e-13);
      check("dx central", ds[j][i], CENTRAL(value(xc, beta, ws[j], drets[j]), xc[i], x0[i]), 1e-6);
    }
  }

  /* One contiguous shadow for both directions (enzyme_dupv, stride in bytes), beta constant. */
  double v[N], dv[2 * N];
  for (int i = 0; i < N; i++) { v[i] = x0[i]; dv[i] = 0; dv[N + i] = 0; }
  aug_t t = __enzyme_augmentfwd((void *)smooth_lse, enzyme_width, 2, enzyme_dupv, (long)(N * sizeof(double)),
                                     v, dv, enzyme_const, beta, enzyme_const, N);
  for (int i = 0; i < N; i++) { dv[i] = w0[i]; dv[N + i] = w1[i]; }
  __enzyme_reverse_void((void *)smooth_lse, enzyme_width, 2, enzyme_dupv, (long)(N * sizeof(double)), v, dv,
                        enzyme_const, beta, enzyme_const, N, dret0, dret1, t.tape);
  for (int i = 0; i < N; i++) {
    check("dupv direction 0", dv[i], d0[i], 1e-13);
    check("dupv direction 1", dv[N + i], d1[i], 1e-13);
  }
  return finish();
}

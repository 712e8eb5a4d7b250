#include "check.h"
/* Split reverse mode: __enzyme_augmentfwd runs the forward sweep and returns a tape (and the primal result),
   __enzyme_reverse runs the reverse sweep later.  Memory changes between the two calls: the tape must keep
   what the reverse sweep reads.  Checked against analytic values, central differences and __enzyme_autodiff. */
typedef struct { void *tape; double primal; } aug_t;
typedef struct { double da, db; } grad2_t;
aug_t __enzyme_augmentfwd(void *, ...);
void *__enzyme_augmentfwd_void(void *, ...);  /* name contains the entry point: for functions returning void */
double __enzyme_reverse(void *, ...);
void __enzyme_reverse_void(void *, ...);
grad2_t __enzyme_reverse_2(void *, ...);

/* The Enzyme.jl split-mode example: A[0] is overwritten after it is read. */
double f(double *A, double v) {
  double res = A[0] * v;
  A[0] = 0;
  return res;
}

/* Overwrites x with running products; returns the sum of their squares. */
double g(double *x, int n) {
  double s = 0, p = 1;
  for (int i = 0; i < n; i++) { p *= x[i]; x[i] = p; s += p * p; }
  return s;
}

void h(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++) y[i] = x[i] * x[i] * sin(x[i]);
}

double k(double a, double b) { return a * b + sin(a); }

enum { N = 4 };
static const double W[N] = {0.5, -1.0, 0.25, 2.0};  /* adjoints of g's outputs in x */

/* What the seeded reverse sweep of g differentiates: dret * g(x) + <W, x after g>. */
static double g_seeded(const double *x0, double dret) {
  double x[N];
  for (int i = 0; i < N; i++) x[i] = x0[i];
  double s = g(x, N);
  return dret * s + dot(W, x, N);
}

int main(void) {
  double A[1] = {2.2}, dA[1] = {0}, v = 3.3;
  aug_t r = __enzyme_augmentfwd((void *)f, enzyme_dup, A, dA, enzyme_out, v);
  check("f primal", r.primal, 7.26, 1e-14);
  check("f overwrote A", A[0], 0.0, 0.0);
  A[0] = 123.0;  /* memory changes between the sweeps */
  double dv = __enzyme_reverse((void *)f, enzyme_dup, A, dA, enzyme_out, v, 1.0, r.tape);
  check("f dv", dv, 2.2, 1e-14);
  check("f dA", dA[0], 3.3, 1e-14);

  double x0[N] = {1.1, -0.7, 1.3, 0.9}, x[N], dx[N], dret = 0.75;
  for (int i = 0; i < N; i++) { x[i] = x0[i]; dx[i] = 0; }
  aug_t rg = __enzyme_augmentfwd((void *)g, enzyme_dup, x, dx, enzyme_const, N);
  double p = 1, s = 0;
  for (int i = 0; i < N; i++) { p *= x0[i]; s += p * p; check("g overwrote x", x[i], p, 1e-14); }
  check("g primal", rg.primal, s, 1e-14);
  for (int i = 0; i < N; i++) { x[i] = -5.0; dx[i] = W[i]; }  /* scramble x, seed the outputs' adjoints */
  __enzyme_reverse((void *)g, enzyme_dup, x, dx, enzyme_const, N, dret, rg.tape);
  double xs[N], vv, dfull[N] = {0};
  for (int j = 0; j < N; j++) {
    double pi = 1, expect = 0;
    for (int i = 0; i < N; i++) { pi *= x0[i]; if (i >= j) expect += (dret * 2 * pi * pi + W[i] * pi) / x0[j]; }
    check("g dx", dx[j], expect, 1e-12);
    for (int i = 0; i < N; i++) xs[i] = x0[i];
    check("g dx central", dx[j], CENTRAL(g_seeded(xs, dret), xs[j], x0[j]), 1e-6);
  }
  /* The combined mode with dret = 1 agrees with the split mode with dret = 1. */
  double dsplit[N];
  for (int i = 0; i < N; i++) { x[i] = x0[i]; dx[i] = W[i]; dfull[i] = W[i]; }
  rg = __enzyme_augmentfwd((void *)g, enzyme_dup, x, dx, enzyme_const, N);
  __enzyme_reverse((void *)g, enzyme_dup, x, dx, enzyme_const, N, 1.0, rg.tape);
  for (int i = 0; i < N; i++) { dsplit[i] = dx[i]; x[i] = x0[i]; }
  __enzyme_autodiff((void *)g, enzyme_dup, x, dfull, enzyme_const, N);
  for (int i = 0; i < N; i++) check("g split vs combined", dsplit[i], dfull[i], 1e-13);

  double hx[N] = {0.3, 1.2, -0.8, 2.0}, hy[N], dhx[N] = {0}, dhy[N];
  void *tape = __enzyme_augmentfwd_void((void *)h, enzyme_dup, hx, dhx, enzyme_dup, hy, dhy, enzyme_const, N);
  double hx0[N];
  for (int i = 0; i < N; i++) { hx0[i] = hx[i]; check("h primal", hy[i], hx[i] * hx[i] * sin(hx[i]), 1e-14);
                                hx[i] = 0; dhy[i] = W[i]; }
  __enzyme_reverse_void((void *)h, enzyme_dup, hx, dhx, enzyme_dup, hy, dhy, enzyme_const, N, tape);
  for (int i = 0; i < N; i++) {
    double t = hx0[i];
    check("h dx", dhx[i], W[i] * (2 * t * sin(t) + t * t * cos(t)), 1e-13);
    check("h dy consumed", dhy[i], 0.0, 0.0);
  }

  double a = 0.6, b = -1.4;
  aug_t rk = __enzyme_augmentfwd((void *)k, a, b);
  check("k primal", rk.primal, k(a, b), 1e-15);
  grad2_t gk = __enzyme_reverse_2((void *)k, a, b, 2.0, rk.tape);
  check("k da", gk.da, 2.0 * (b + cos(a)), 1e-14);
  check("k db", gk.db, 2.0 * a, 1e-14);
  check("k da central", gk.da, 2.0 * CENTRAL(k(vv, b), vv, a), 1e-6);
  return finish();
}

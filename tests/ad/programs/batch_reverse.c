#include "check.h"
#include <string.h>
/* Batch reverse mode: __enzyme_autodiff(f, enzyme_width, W, ...) carries W adjoint directions in one call.
   Each dup argument is followed by W shadows, each accumulating its own direction's gradient; an active
   return is seeded with 1.0 in every direction; each enzyme_out argument comes back as W values.  For a
   function R^n -> R^m written through an output array, seeding the W shadows of y with e_k gives W rows
   of the Jacobian at once.  Checked against width-1 reverse calls, forward mode and central differences. */
extern int enzyme_width, enzyme_dupv;
typedef struct { double d[2]; } v2;                  /* one out argument, width 2: in registers */
typedef struct { double dx[2], dy[2], dz[2]; } g3x2; /* three out arguments, width 2: through memory (sret) */
v2 __enzyme_autodiff_v2(void *, ...);
g3x2 __enzyme_autodiff_g3(void *, ...);
void __enzyme_autodiff_void(void *, ...);
void __enzyme_fwddiff_void(void *, ...);

enum { N = 4, M = 3 };
static const double WEIGHTS[N] = {1.0, 0.5, 2.0, -0.25};

double f3(double x, double y, double z) { return x * y * sin(z) + exp(x * z) / (1 + y * y); }

/* One active float argument and a dup pointer: each direction's shadow accumulates the same gradient. */
double mix(double a, double *p) { return a * p[0] * p[0] + sin(a * p[1]); }

__attribute__((noinline)) double weighted(const double *x, const double *w, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += w[i] * x[i] * x[i];
  return s;
}

/* Returns a pointer into its argument: its sweeps return the W shadows with it. */
__attribute__((noinline)) double *second_half(double *v, int n) {
  for (int i = 0; i < n; i++) v[i] = v[i] * v[i] + 0.5 * v[i];
  return v + n / 2;
}

__attribute__((noinline)) double recurse(const double *x, int n) {
  return n == 0 ? 1.0 : x[n - 1] * sin(recurse(x, n - 1)) + 0.3 * x[n - 1];
}

/* R^4 -> R^3: heap scratch with memcpy, a stack array, a loop whose values are taped (acc is overwritten),
   a noinline callee, a callee returning a pointer, recursion. */
void vf(const double *x, double *y) {
  double *tmp = malloc(N * sizeof(double));
  double loc[N];
  memcpy(tmp, x, N * sizeof(double));
  double s = weighted(tmp, WEIGHTS, N);
  double acc = 1.0;
  for (int i = 0; i < N; i++) {
    acc = acc * cos(tmp[i]) + tmp[i];
    tmp[i] = acc;
    loc[i] = acc * x[i];
  }
  double *h = second_half(loc, N);
  y[0] = s + tmp[N - 1] * h[0];
  y[1] = recurse(tmp, N) * x[0] + h[1];
  y[2] = tmp[1] * tmp[2] / (1 + s * s) + loc[0];
  free(tmp);
}

static void vf_at(const double *x0, int i, double xi, double *y) {
  double x[N];
  memcpy(x, x0, sizeof x);
  x[i] = xi;
  vf(x, y);
}

int main(void) {
  /* Scalar out arguments, width 2: every direction is seeded with 1.0, so both carry the gradient. */
  double x = 0.7, y = -1.3, z = 0.4, v;
  g3x2 g = __enzyme_autodiff_g3((void *)f3, enzyme_width, 2, x, y, z);
  double q = 1 + y * y, e = exp(x * z);
  double gx = y * sin(z) + z * e / q, gy = x * sin(z) - e * 2 * y / (q * q), gz = x * y * cos(z) + x * e / q;
  for (int j = 0; j < 2; j++) {
    check("f3 dx", g.dx[j], gx, 1e-13);
    check("f3 dy", g.dy[j], gy, 1e-13);
    check("f3 dz", g.dz[j], gz, 1e-13);
  }
  check("f3 dz central", CENTRAL(f3(x, y, v), v, z), gz, 1e-6);

  /* One out argument (returned as two doubles) and a dup pointer whose shadows start from different seeds. */
  double p[2] = {0.3, -0.8}, dp0[2] = {0, 0}, dp1[2] = {10, 20}, dpw[2] = {0, 0};
  v2 da = __enzyme_autodiff_v2((void *)mix, enzyme_width, 2, 0.9, p, dp0, dp1);
  double da1 = __enzyme_autodiff((void *)mix, 0.9, p, dpw);
  check("mix da direction 0", da.d[0], da1, 1e-14);
  check("mix da direction 1", da.d[1], da1, 1e-14);
  check("mix da central", CENTRAL(mix(v, p), v, 0.9), da1, 1e-6);
  for (int i = 0; i < 2; i++) {
    check("mix dp direction 0", dp0[i], dpw[i], 1e-14);
    check("mix dp direction 1 (seeded)", dp1[i], (i ? 20 : 10) + dpw[i], 1e-13);
  }

  /* Jacobian rows of vf: W = 3 reverse directions seeded with e_k on the shadows of y. */
  double xs[N] = {0.5, -1.1, 0.9, 0.3}, ys[M];
  double J[M][N] = {{0}}, dy[M][M] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  __enzyme_autodiff_void((void *)vf, enzyme_width, 3, xs, J[0], J[1], J[2], ys, dy[0], dy[1], dy[2]);
  for (int k = 0; k < M; k++) {
    double row[N] = {0}, ey[M] = {0};
    ey[k] = 1;
    __enzyme_autodiff_void((void *)vf, xs, row, ys, ey);
    for (int i = 0; i < N; i++) check("vf row vs width 1", J[k][i], row[i], 1e-13);
    for (int i = 0; i < M; i++) check("vf dy consumed", dy[k][i], 0.0, 0);
  }
  for (int i = 0; i < N; i++) {
    double ex[N] = {0}, col[M];
    ex[i] = 1;
    __enzyme_fwddiff_void((void *)vf, xs, ex, ys, col);
    for (int k = 0; k < M; k++) {
      check("vf J vs forward", J[k][i], col[k], 1e-12);
      double yp[M], ym[M], hstep = 1e-6;
      vf_at(xs, i, xs[i] + hstep, yp);
      vf_at(xs, i, xs[i] - hstep, ym);
      check("vf J vs central", J[k][i], (yp[k] - ym[k]) / (2 * hstep), 1e-6);
    }
  }

  /* Width 2 with general seeds (w^T J for two w) and enzyme_dupv shadows (direction j at j * stride). */
  double W2[2][M] = {{1, 2, 0}, {0, -1, 3}}, G2[2][N] = {{0}};
  __enzyme_autodiff_void((void *)vf, enzyme_width, 2, enzyme_dupv, sizeof G2[0], xs, G2,
                         enzyme_dupv, sizeof W2[0], ys, W2);
  double S2[2][M] = {{1, 2, 0}, {0, -1, 3}};
  for (int j = 0; j < 2; j++)
    for (int i = 0; i < N; i++) {
      double expect = 0;
      for (int k = 0; k < M; k++) expect += S2[j][k] * J[k][i];
      check("vf w^T J (dupv)", G2[j][i], expect, 1e-12);
    }
  return finish();
}

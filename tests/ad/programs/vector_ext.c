#include "check.h"
/* Clang vector extensions in both modes: element access, shuffles, vector arithmetic, vector loads and stores,
   reductions written as element sums, and a loop over v4 chunks. Checked against analytic gradients, central
   differences and forward mode. */
typedef double v4 __attribute__((vector_size(32)));
typedef double v2 __attribute__((vector_size(16)));
typedef float f4 __attribute__((vector_size(16)));

static v4 load4(const double *p) { v4 v; __builtin_memcpy(&v, p, sizeof v); return v; }

/* s = sum_i (x_i * y_i)^2 with y = reverse(x) + 1, in v4 lanes. */
double lanes(const double *x) {
  v4 a = load4(x);
  v4 r = __builtin_shufflevector(a, a, 3, 2, 1, 0) + 1.0;
  v4 p = a * r;
  p = p * p;
  return p[0] + p[1] + p[2] + p[3];
}

/* Element writes (insertelement) and a two-input shuffle. */
double build(const double *x) {
  v2 u = {0, 0};
  u[0] = sin(x[0]);
  u[1] = x[1] * x[2];
  v2 w = {x[3], exp(x[0])};
  v4 c = __builtin_shufflevector(u, w, 0, 2, 1, 3);
  v4 d = c * c - c / (c + 3.0);
  return d[0] * 2 + d[1] + d[2] * d[3];
}

/* A loop over chunks of 4 with vector loads/stores into an output array. */
void scale_chunks(const double *x, double *y, int n) {
  for (int i = 0; i + 4 <= n; i += 4) {
    v4 v = load4(x + i);
    v4 s = v * v * 0.5 + __builtin_shufflevector(v, v, 1, 0, 3, 2);
    __builtin_memcpy(y + i, &s, sizeof s);
  }
}
double chunks(const double *x, int n) {
  double y[8];
  scale_chunks(x, y, n);
  double t = 0;
  for (int i = 0; i < n; i++) t += y[i] * (i + 1);
  return t;
}

/* float lanes, widened. */
double floats(const double *x) {
  f4 a = {(float)x[0], (float)x[1], (float)x[2], (float)x[3]};
  f4 b = a * a + __builtin_shufflevector(a, a, 2, 3, 0, 1);
  return (double)b[0] + (double)b[1] * 2 + (double)b[2] * 3 + (double)b[3] * 4;
}

/* llvm.vector.reduce.fmax / fmin / fmaximum: the derivative goes to the winning lane. */
double extremes(const double *x) {
  v4 a = load4(x);
  v4 b = a * a;
  return __builtin_reduce_max(a) * 2 + __builtin_reduce_min(b) + __builtin_reduce_maximum(-a);
}

int main(void) {
  double x[8] = {0.3, -0.7, 1.1, 0.45, -0.2, 0.9, 0.6, -1.3}, xd[8] = {1, -0.5, 0.25, 2, 0.3, -1, 0.7, 0.1};
  double g[8];

  /* lanes: s = sum_i (x_i (x_{3-i} + 1))^2 */
  double d1[4] = {0};
  __enzyme_autodiff((void *)lanes, x, d1);
  for (int k = 0; k < 4; k++) {
    g[k] = 0;
    for (int i = 0; i < 4; i++) {
      double p = x[i] * (x[3 - i] + 1), dp = (i == k ? x[3 - i] + 1 : 0) + (3 - i == k ? x[i] : 0);
      g[k] += 2 * p * dp;
    }
    check("lanes analytic", d1[k], g[k], 1e-12);
    check("lanes central", d1[k], CENTRAL(lanes(x), x[k], x[k]), 1e-6);
  }
  check("lanes forward", __enzyme_fwddiff((void *)lanes, x, xd), dot(d1, xd, 4), 1e-12);

  double d2[4] = {0};
  __enzyme_autodiff((void *)build, x, d2);
  for (int k = 0; k < 4; k++) check("build central", d2[k], CENTRAL(build(x), x[k], x[k]), 1e-6);
  check("build forward", __enzyme_fwddiff((void *)build, x, xd), dot(d2, xd, 4), 1e-12);

  /* chunks: y_i = x_i^2/2 + x_{i^1}; t = sum (i+1) y_i -> dt/dx_k = (k+1) x_k + (k^1)+1 */
  double d3[8] = {0};
  __enzyme_autodiff((void *)chunks, enzyme_dup, x, d3, enzyme_const, 8);
  for (int k = 0; k < 8; k++) {
    check("chunks analytic", d3[k], (k + 1) * x[k] + ((k ^ 1) + 1), 1e-12);
    check("chunks central", d3[k], CENTRAL(chunks(x, 8), x[k], x[k]), 1e-6);
  }
  check("chunks forward", __enzyme_fwddiff((void *)chunks, enzyme_dup, x, xd, enzyme_const, 8), dot(d3, xd, 8), 1e-12);

  /* floats: b_i = a_i^2 + a_{(i+2)%4}; weights w_i = i+1 -> d/dx_k = 2 w_k a_k + w_{(k+2)%4} */
  double d4[4] = {0};
  __enzyme_autodiff((void *)floats, x, d4);
  for (int k = 0; k < 4; k++) {
    double a = (float)x[k];
    check("float lanes analytic", d4[k], 2 * (k + 1) * a + ((k + 2) % 4 + 1), 1e-6);
  }
  check("float lanes forward", __enzyme_fwddiff((void *)floats, x, xd), dot(d4, xd, 4), 1e-6);

  /* extremes: argmax(x0..3) = 2 (1.1), argmin(x^2) = 0 (0.09), argmax(-x) = 1 (0.7) */
  double d5[4] = {0};
  __enzyme_autodiff((void *)extremes, x, d5);
  double want5[4] = {2 * x[0], -1, 2, 0};
  for (int k = 0; k < 4; k++) {
    check("reductions analytic", d5[k], want5[k], 1e-12);
    check("reductions central", d5[k], CENTRAL(extremes(x), x[k], x[k]), 1e-6);
  }
  return finish();
}

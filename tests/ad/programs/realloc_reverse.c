#include "check.h"
/* realloc in reverse mode: a buffer grown by doubling inside a loop, realloc(NULL, n), shrinking, and a
   buffer of pointers that moves; gradients checked against analytic formulas, central differences and
   forward mode. */

/* grow: buf[k] = sum_{i<=k} x_i^2, capacity doubled with realloc as needed; s = sum_k sin(buf[k]). */
double grow(const double *x, int n) {
  int cap = 1, len = 0;
  double *buf = malloc(cap * sizeof(double));
  for (int i = 0; i < n; i++) {
    if (len == cap) { cap *= 2; buf = realloc(buf, cap * sizeof(double)); }
    buf[len] = x[i] * x[i] + (len > 0 ? buf[len - 1] : 0.0);
    len++;
  }
  double s = 0;
  for (int i = 0; i < len; i++) s += sin(buf[i]);
  free(buf);
  return s;
}

/* Starts from realloc(NULL, ...), grows by one element per step, then a product. */
double product_from_null(const double *x, int n) {
  double *buf = NULL;
  for (int i = 0; i < n; i++) {
    buf = realloc(buf, (i + 1) * sizeof(double));
    buf[i] = x[i] + 1.0;
  }
  double p = 1;
  for (int i = 0; i < n; i++) p *= buf[i];
  free(buf);
  return p;
}

/* Fill, shrink to the first half (the dropped adjoints are zero), then weights. */
double shrink(const double *x, int n) {
  double *buf = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) buf[i] = exp(x[i]);
  int h = n / 2;
  buf = realloc(buf, h * sizeof(double));
  double s = 0;
  for (int i = 0; i < h; i++) s += (i + 1) * buf[i];
  free(buf);
  return s;
}

/* A buffer of pointers to rows, grown with realloc; the rows' shadows must move with it. */
double rows_of_pointers(const double *x, int n) {
  double **rows = NULL;
  for (int i = 0; i < n; i++) {
    rows = realloc(rows, (i + 1) * sizeof(double *));
    rows[i] = malloc(sizeof(double));
    rows[i][0] = x[i] * x[i] * x[i];
  }
  double s = 0;
  for (int i = 0; i < n; i++) { s += rows[i][0] * rows[(i + 1) % n][0]; }
  for (int i = 0; i < n; i++) free(rows[i]);
  free(rows);
  return s;
}

/* The buffer is filled by a separate (not inlined) function after each growth. */
__attribute__((noinline)) static void fill(double *b, const double *x, int from, int to) {
  for (int i = from; i < to; i++) b[i] = x[i] * x[i] * (i + 1);
}
double grow_in_callee(const double *x, int n) {
  double *b = malloc(2 * sizeof(double));
  fill(b, x, 0, 2);
  b = realloc(b, n * sizeof(double));
  fill(b, x, 2, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += b[i] * b[i];
  free(b);
  return s;
}

int main(void) {
  enum { N = 7 };
  double x[N] = {0.1, 0.3, -0.2, 0.5, 0.05, -0.4, 0.25}, xd[N] = {1, -0.5, 0.25, 2, -1, 0.75, 0.3};

  /* grow: ds/dx_i = 2 x_i sum_{k>=i} cos(buf[k]) */
  double buf[N], acc = 0, g[N], d[N] = {0};
  for (int k = 0; k < N; k++) { acc += x[k] * x[k]; buf[k] = acc; }
  for (int i = 0; i < N; i++) { double c = 0; for (int k = i; k < N; k++) c += cos(buf[k]); g[i] = 2 * x[i] * c; }
  __enzyme_autodiff((void *)grow, enzyme_dup, x, d, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    check("grow analytic", d[i], g[i], 1e-12);
    check("grow central", d[i], CENTRAL(grow(x, N), x[i], x[i]), 1e-6);
  }
  check("grow forward", __enzyme_fwddiff((void *)grow, enzyme_dup, x, xd, enzyme_const, N), dot(d, xd, N), 1e-12);

  /* product: dp/dx_i = p / (x_i + 1) */
  double p = 1, dp[N] = {0};
  for (int i = 0; i < N; i++) p *= x[i] + 1.0;
  __enzyme_autodiff((void *)product_from_null, enzyme_dup, x, dp, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    check("realloc(NULL) product analytic", dp[i], p / (x[i] + 1.0), 1e-12);
    check("realloc(NULL) product central", dp[i], CENTRAL(product_from_null(x, N), x[i], x[i]), 1e-6);
  }
  check("realloc(NULL) product forward", __enzyme_fwddiff((void *)product_from_null, enzyme_dup, x, xd, enzyme_const, N),
        dot(dp, xd, N), 1e-12);

  /* shrink: ds/dx_i = (i+1) exp(x_i) for i < N/2, else 0 */
  double ds[N] = {0};
  __enzyme_autodiff((void *)shrink, enzyme_dup, x, ds, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    check("shrink analytic", ds[i], i < N / 2 ? (i + 1) * exp(x[i]) : 0.0, 1e-12);
    check("shrink central", ds[i], CENTRAL(shrink(x, N), x[i], x[i]), 1e-6);
  }
  check("shrink forward", __enzyme_fwddiff((void *)shrink, enzyme_dup, x, xd, enzyme_const, N), dot(ds, xd, N), 1e-12);

  /* rows: s = sum_i c_i c_{i+1} with c_i = x_i^3: ds/dx_i = 3 x_i^2 (c_{i+1} + c_{i-1}) */
  double dr[N] = {0};
  __enzyme_autodiff((void *)rows_of_pointers, enzyme_dup, x, dr, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    double cn = pow(x[(i + 1) % N], 3), cp = pow(x[(i + N - 1) % N], 3);
    check("pointer rows analytic", dr[i], 3 * x[i] * x[i] * (cn + cp), 1e-12);
    check("pointer rows central", dr[i], CENTRAL(rows_of_pointers(x, N), x[i], x[i]), 1e-6);
  }
  check("pointer rows forward", __enzyme_fwddiff((void *)rows_of_pointers, enzyme_dup, x, xd, enzyme_const, N),
        dot(dr, xd, N), 1e-12);

  /* grow_in_callee: s = sum_i ((i+1) x_i^2)^2, ds/dx_i = 4 (i+1)^2 x_i^3 */
  double dc[N] = {0};
  __enzyme_autodiff((void *)grow_in_callee, enzyme_dup, x, dc, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    check("filled in a callee analytic", dc[i], 4.0 * (i + 1) * (i + 1) * pow(x[i], 3), 1e-12);
    check("filled in a callee central", dc[i], CENTRAL(grow_in_callee(x, N), x[i], x[i]), 1e-6);
  }
  check("filled in a callee forward", __enzyme_fwddiff((void *)grow_in_callee, enzyme_dup, x, xd, enzyme_const, N),
        dot(dc, xd, N), 1e-12);
  return finish();
}

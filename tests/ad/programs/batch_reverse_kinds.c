#include "check.h"
#include <complex.h>
#include <string.h>
/* Batch reverse mode over many instruction kinds: branches merging values (phis), selects, pointer selects,
   a data-dependent while loop, calloc/memset/memmove, vector arithmetic and shuffles, complex multiplication,
   a noinline callee returning a struct.  All M rows of the Jacobian in one call
   (enzyme_width M) must equal the width-1 rows, and the central differences. */
extern int enzyme_width;
void __enzyme_autodiff_void(void *, ...);

enum { N = 5, M = 4 };
typedef double v2d __attribute__((vector_size(16)));
typedef struct { double s, c; } pair;

__attribute__((noinline)) pair polar(double r, double t) { pair p = {r * sin(t), r * cos(t)}; return p; }

void kinds(const double *x, double *y) {
  double a = x[0] > 0 ? sin(x[1]) * x[0] : cos(x[2]);
  if (x[3] > x[4]) a += x[3] * x[3]; else a -= exp(x[4]);
  const double *p = x[1] > x[2] ? x + 1 : x + 2;
  double b = fmax(x[0], x[1]) + *p * 2;
  double *t = calloc(N, sizeof(double));
  memset(t, 0, 2 * sizeof(double));
  for (int i = 0; i < N; i++) t[i] = x[i] * (i + 1);
  memmove(t + 1, t, (N - 1) * sizeof(double));
  double w = t[0] + 1.5;
  int steps = 0;
  while (w < 8 && steps < 20) { w = w * 1.3 + t[2] * 0.1; steps++; }
  v2d u = {x[0], x[1]}, v = {x[2], x[3]};
  v2d q = u * v + __builtin_shufflevector(u, v, 3, 0);
  double complex z = (x[0] + I * x[1]) * (x[2] + I * x[4]);
  pair pr = polar(x[3], x[4]);
  y[0] = a * b + creal(z);
  y[1] = w + t[4] * q[0] + pr.s;
  y[2] = q[1] * cimag(z) + pr.c * b;
  y[3] = t[1] * t[3] + a;
  free(t);
}

static void kinds_at(const double *x0, int i, double xi, double *y) {
  double x[N];
  memcpy(x, x0, sizeof x);
  x[i] = xi;
  kinds(x, y);
}

static void jacobian_rows(const double *x) {
  double y[M], J[M][N] = {{0}}, dy[M][M] = {{0}};
  for (int k = 0; k < M; k++) dy[k][k] = 1;
  __enzyme_autodiff_void((void *)kinds, enzyme_width, 4, x, J[0], J[1], J[2], J[3], y, dy[0], dy[1], dy[2], dy[3]);
  for (int k = 0; k < M; k++) {
    double row[N] = {0}, e[M] = {0};
    e[k] = 1;
    __enzyme_autodiff_void((void *)kinds, x, row, y, e);
    for (int i = 0; i < N; i++) {
      check("row vs width 1", J[k][i], row[i], 1e-13);
      double yp[M], ym[M], h = 1e-6;
      kinds_at(x, i, x[i] + h, yp);
      kinds_at(x, i, x[i] - h, ym);
      check("row vs central", J[k][i], (yp[k] - ym[k]) / (2 * h), 2e-6);
    }
  }
}

int main(void) {
  double xa[N] = {0.5, -1.1, 0.9, 0.3, -0.2};   /* one set of branches */
  double xb[N] = {-0.4, 0.8, 0.2, -0.7, 0.6};   /* the other */
  jacobian_rows(xa);
  jacobian_rows(xb);
  return finish();
}

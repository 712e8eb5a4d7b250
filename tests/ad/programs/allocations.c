#include "check.h"
#include <string.h>
/* Allocations that escape to the caller must survive the gradient call; C++-style and calloc
   allocations; memset of active memory; stack arrays. */
typedef struct { int n; double *w; } Layer;
double init_and_eval(Layer *l, double x) {
  l->w = malloc(l->n * sizeof(double));           /* escapes: owned by the caller afterwards */
  for (int i = 0; i < l->n; i++) l->w[i] = x * (i + 1);
  double s = 0;
  for (int i = 0; i < l->n; i++) s += l->w[i] * l->w[i];
  return s;
}
double zeroed(double *x, int n) {
  double *t = calloc(n, sizeof(double));
  for (int i = 0; i < n; i++) t[i] += x[i] * 3.0;
  memset(x, 0, n * sizeof(double));              /* overwrite the input: its old adjoints must not leak */
  double s = 0;
  for (int i = 0; i < n; i++) s += t[i] * t[i] + x[i];
  free(t);
  return s;
}
double stack_array(double x) { double a[5]; for (int i = 0; i < 5; i++) a[i] = x * i; double s = 0; for (int i = 0; i < 5; i++) s += a[i] * a[i]; return s; }

int main(void) {
  Layer l = {4, NULL}, dl = {0, NULL};
  double d = __enzyme_autodiff((void *)init_and_eval, enzyme_dup, &l, &dl, 1.5);
  check("escaping allocation d/dx", d, 2 * 1.5 * (1 + 4 + 9 + 16), 1e-12);
  double sum = 0;
  for (int i = 0; i < l.n; i++) sum += l.w[i];     /* the primal allocation is still valid */
  check("escaping allocation still usable", sum, 1.5 * 10, 1e-12);
  double x[3] = {0.5, 1.0, -2.0}, dx[3] = {0};
  __enzyme_autodiff((void *)zeroed, enzyme_dup, x, dx, enzyme_const, 3);
  double x0[3] = {0.5, 1.0, -2.0};
  for (int i = 0; i < 3; i++) check("calloc + memset", dx[i], 18 * x0[i], 1e-12);
  double ds = __enzyme_autodiff((void *)stack_array, 0.7);
  check("stack array", ds, 2 * 0.7 * 30, 1e-12);
  check("stack array forward", __enzyme_fwddiff((void *)stack_array, 0.7, 1.0), ds, 1e-12);
  return finish();
}

#include "check.h"
/* A struct with a flexible array member, `struct { int n, cap; double data[]; }`, grown with realloc while it
   is filled with active values, in a helper that returns it (as a table parser does): the block mixes integers
   and doubles with no record stride.  Reverse mode moves the adjoints of the copied prefix as doubles (the
   integers' shadow bytes are zero).  Reverse, forward, the analytic derivative and central differences. */
typedef struct {
  int n, cap;
  double data[];
} series;

__attribute__((noinline)) static series *push(series *s, double v) {
  if (s->n == s->cap) {
    s->cap *= 2;
    s = realloc(s, sizeof(series) + s->cap * sizeof(double));
  }
  s->data[s->n++] = v;
  return s;
}

__attribute__((noinline)) static series *build(const double *x, int m) {
  series *s = malloc(sizeof(series) + sizeof(double));
  s->n = 0;
  s->cap = 1;
  for (int i = 0; i < m; i++) s = push(s, x[i % 3] * (i + 1) + (s->n > 0 ? 0.5 * s->data[s->n - 1] : 0.0));
  return s;
}

double objective(const double *x) {
  series *s = build(x, 9);
  double r = 0;
  for (int i = 0; i < s->n; i++) r += s->data[i] * s->data[i] * (i % 2 ? 1.0 : -0.5) + s->cap * 1e-3 * s->data[i];
  free(s);
  return r;
}

int main(void) {
  double x[3] = {0.7, -0.4, 1.3}, d[3] = {0};
  __enzyme_autodiff((void *)objective, enzyme_dup, x, d);
  for (int i = 0; i < 3; i++) {
    double v[3] = {0}, p[3] = {x[0], x[1], x[2]};
    v[i] = 1;
    check("forward", __enzyme_fwddiff((void *)objective, enzyme_dup, x, v), d[i], 1e-10);
    check("central", CENTRAL(objective(p), p[i], x[i]), d[i], 1e-6);
  }
  return finish();
}

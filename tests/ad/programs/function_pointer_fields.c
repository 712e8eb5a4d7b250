#include "check.h"
/* A function pointer handed down through helpers and kept in a struct beside active data, as libstdc++'s
   std::valarray::apply keeps its double (*)(double) in an expression object (_FunBase): the struct has a shadow,
   the function pointer none.  Indirect calls find the derivative through the primal pointer, so a null shadow for
   a parameter that is always passed a function loses nothing.  Reverse and forward mode against the analytic
   derivative and central differences. */
typedef double (*unary)(double);
typedef struct { const double *x; unary f; double scale; } closure;

static double soft(double v) { return v / (1 + v * v); }
static double cube(double v) { return v * v * v; }

__attribute__((noinline)) static void set_function(closure *c, unary f) { c->f = f; }
__attribute__((noinline)) static void make_closure(closure *c, const double *x, unary f, double scale) {
  c->x = x;
  c->scale = scale;
  set_function(c, f);
}
__attribute__((noinline)) static double apply_sum(const closure *c, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += c->scale * c->f(c->x[i]);
  return s;
}

double objective(const double *x, int n) {
  closure a, b;
  make_closure(&a, x, soft, x[0]);
  make_closure(&b, x, cube, 0.5);
  return apply_sum(&a, n) + apply_sum(&b, n);
}

static double dsoft(double v) { return (1 - v * v) / ((1 + v * v) * (1 + v * v)); }

int main(void) {
  enum { N = 3 };
  double x[N] = {0.4, -1.2, 2.0}, d[N] = {0};
  double sum_soft = 0;
  for (int i = 0; i < N; i++) sum_soft += soft(x[i]);
  __enzyme_autodiff((void *)objective, enzyme_dup, x, d, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    double exact = x[0] * dsoft(x[i]) + 1.5 * x[i] * x[i] + (i == 0 ? sum_soft : 0);
    double v[N] = {0}, p[N] = {x[0], x[1], x[2]};
    v[i] = 1;
    check("reverse", d[i], exact, 1e-12);
    check("forward", __enzyme_fwddiff((void *)objective, enzyme_dup, x, v, enzyme_const, N), exact, 1e-12);
    check("central", CENTRAL(objective(p, N), p[i], x[i]), exact, 1e-6);
  }
  return finish();
}

#include "check.h"
/* Calls through function pointers, kept indirect at every level (the callers are noinline): a quadrature
   taking the integrand as a callback, a table of functions chosen at run time, libm functions passed by
   address, and a callback writing into an array through a duplicated pointer. */
typedef double (*scalar_fn)(double, double);
typedef void (*field_fn)(const double *, double *, int);

static double gauss(double x, double p) { return exp(-p * x * x); }
static double poly(double x, double p) { return p * x * x * x - x; }

__attribute__((noinline)) double integrate(scalar_fn f, double p, double a, double b, int n) {
  double h = (b - a) / n, s = 0.5 * (f(a, p) + f(b, p));
  for (int i = 1; i < n; i++) s += f(a + i * h, p);
  return s * h;
}

static const scalar_fn TABLE[2] = {gauss, poly};
__attribute__((noinline)) double pick(int k, double x, double p) { return TABLE[k](x, p) * x; }

__attribute__((noinline)) double apply_libm(double (*g)(double), double x) { return g(x) * x; }
double libm_mix(double x) { return apply_libm(sin, x) + apply_libm(exp, 0.5 * x); }

static void square_field(const double *x, double *y, int n) { for (int i = 0; i < n; i++) y[i] = x[i] * x[i]; }
static void shift_field(const double *x, double *y, int n) { for (int i = 0; i < n; i++) y[i] = x[i] + x[(i + 1) % n]; }
__attribute__((noinline)) double energy(field_fn field, const double *x, int n) {
  double y[4];
  field(x, y, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += y[i] * (i + 1);
  return s;
}
double both_fields(const double *x) { return energy(square_field, x, 4) + energy(shift_field, x, 4); }

double quad(double p) { return integrate(gauss, p, 0.0, 1.0, 50) + integrate(poly, p, 0.0, 2.0, 40); }
double table(double x) { return pick(0, x, 0.7) + pick(1, x, 0.7); }

int main(void) {
  double p = 0.8, x = 0.6, v;
  check("quadrature: reverse vs central", __enzyme_autodiff((void *)quad, p), CENTRAL(quad(v), v, p), 1e-6);
  check("quadrature: forward vs reverse", __enzyme_fwddiff((void *)quad, p, 1.0), __enzyme_autodiff((void *)quad, p),
        1e-12);
  check("table: reverse vs central", __enzyme_autodiff((void *)table, x), CENTRAL(table(v), v, x), 1e-6);
  check("table: forward vs reverse", __enzyme_fwddiff((void *)table, x, 1.0), __enzyme_autodiff((void *)table, x),
        1e-12);
  double libm_exact = sin(x) + x * cos(x) + exp(0.5 * x) * (0.5 + 0.25 * x);
  check("libm by address: reverse", __enzyme_autodiff((void *)libm_mix, x), libm_exact, 1e-12);
  check("libm by address: forward", __enzyme_fwddiff((void *)libm_mix, x, 1.0), libm_exact, 1e-12);

  double xs[4] = {0.3, -1.2, 0.8, 2.0}, dx[4] = {0, 0, 0, 0};
  __enzyme_autodiff((void *)both_fields, enzyme_dup, xs, dx);
  for (int i = 0; i < 4; i++) {
    /* square_field: 2 x_i (i+1); shift_field: x_i appears in y_i (weight i+1) and y_{i-1} (weight i) */
    double expected = 2 * xs[i] * (i + 1) + (i + 1) + (i == 0 ? 4 : i);
    check("callback writing through a pointer: reverse", dx[i], expected, 1e-12);
    double t[4] = {0, 0, 0, 0};
    t[i] = 1;
    check("callback writing through a pointer: forward", __enzyme_fwddiff((void *)both_fields, enzyme_dup, xs, t),
          expected, 1e-12);
  }
  return finish();
}

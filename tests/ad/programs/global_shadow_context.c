#include "check.h"
/* Upstream Enzyme's global-shadow API with a context: a program asks for the shadows of model parameters held
   in globals (__enzyme_shadow(ctx, &g, lane)), clears them with __enzyme_zero_shadows, and passes
   enzyme_context to the derivative calls.  Reverse mode accumulates the parameters' adjoints there, forward
   mode reads their tangents from there.  Checked against central differences in each parameter. */
extern int enzyme_context;
void *__enzyme_context(int);
void *__enzyme_shadow(void *, void *, int);
void __enzyme_zero_shadows(void *);

/* A small polynomial-times-exponential model with its parameters in globals. */
double coeffs[3] = {0.5, -1.25, 0.75};
struct { double rate; double offset; int order; } shape = {0.3, 0.1, 3};
double unused_scale = 4.0;  /* read by the model but never asked for: a constant */

double model(double x) {
  double p = 0, xn = 1;
  for (int i = 0; i < shape.order; i++) { p += coeffs[i] * xn; xn *= x; }
  return unused_scale * p * exp(-shape.rate * x) + shape.offset;
}

static double model_at(double x) { return model(x); }

/* A table on the heap, reached through a global pointer (as Fortran keeps ALLOCATABLE module arrays):
   its shadow points to a zeroed block of the same size. */
enum { K = 5 };
double *knots;
__attribute__((noinline)) static void make_knots(void) {
  knots = (double *)malloc(K * sizeof(double));
  for (int i = 0; i < K; i++) knots[i] = 0.2 * i - 0.3;
}
double spline_energy(double x) {
  double s = 0;
  for (int i = 0; i < K; i++) { double d = x - knots[i]; s += d * d * knots[i]; }
  return s;
}

int main(void) {
  void *ctx = __enzyme_context(1);
  double *dc = (double *)__enzyme_shadow(ctx, &coeffs, 0);
  double *drate = (double *)__enzyme_shadow(ctx, &shape.rate, 0);
  double *doffset = (double *)__enzyme_shadow(ctx, &shape.offset, 0);
  double p;
  for (int trial = 0; trial < 2; trial++) {
    double x = 0.7 + trial;
    __enzyme_zero_shadows(ctx);
    check("zeroed", dc[0] + dc[1] + dc[2] + *drate + *doffset, 0.0, 0.0);
    double dx = __enzyme_autodiff((void *)model, enzyme_context, ctx, x);
    check("dx central", dx, CENTRAL(model(p), p, x), 1e-6);
    for (int i = 0; i < 3; i++) check("dcoeff central", dc[i], CENTRAL(model_at(x), coeffs[i], coeffs[i]), 1e-6);
    check("drate central", *drate, CENTRAL(model_at(x), shape.rate, shape.rate), 1e-6);
    check("doffset", *doffset, 1.0, 1e-14);
    /* Without zeroing, a second call accumulates. */
    __enzyme_autodiff((void *)model, enzyme_context, ctx, x);
    check("accumulated drate", *drate, 2 * CENTRAL(model_at(x), shape.rate, shape.rate), 1e-6);

    /* Forward mode: the tangent along a direction in parameter space seeded in the shadows. */
    __enzyme_zero_shadows(ctx);
    dc[1] = 1.0;
    *drate = -0.5;
    double t = __enzyme_fwddiff((void *)model, enzyme_context, ctx, x, 0.0);
    double h = 1e-6, c1 = coeffs[1], r = shape.rate;
    coeffs[1] = c1 + h; shape.rate = r - 0.5 * h; double up = model(x);
    coeffs[1] = c1 - h; shape.rate = r + 0.5 * h; double down = model(x);
    coeffs[1] = c1; shape.rate = r;
    check("directional tangent", t, (up - down) / (2 * h), 1e-6);
    check("shadows are the program's", dc[1] + *drate, 0.5, 0.0);
    /* And the tangent in x alone, the parameters' shadows cleared. */
    __enzyme_zero_shadows(ctx);
    check("forward dx", __enzyme_fwddiff((void *)model, enzyme_context, ctx, x, 1.0), CENTRAL(model(p), p, x), 1e-6);
  }

  /* The heap table's shadow: adjoints of every knot, cleared by __enzyme_zero_shadows. */
  make_knots();
  double **dknots = (double **)__enzyme_shadow(ctx, &knots, 0);
  for (int trial = 0; trial < 2; trial++) {
    double x = 0.9 + trial, kv;
    __enzyme_zero_shadows(ctx);
    double dx = __enzyme_autodiff((void *)spline_energy, enzyme_context, ctx, x);
    check("spline dx central", dx, CENTRAL(spline_energy(p), p, x), 1e-6);
    for (int i = 0; i < K; i++) {
      double k0 = knots[i];
      check("dknot central", (*dknots)[i], CENTRAL((knots[i] = kv, spline_energy(x)), kv, k0), 1e-6);
      knots[i] = k0;
    }
  }
  free(knots);
  return finish();
}

/* A struct of model parameters copied into parallel regions: the model reads its parameters from a copy
   (`Params p = *pp`, firstprivate(p) in one region, captured by reference in a second), so the copies'
   types must reach both outlined regions.  Gradient with respect to the inputs and to the parameters. */
#include "omp_check.h"
enum { N = 29 };

typedef struct {
  double scale;
  double shift;
  int n;
  double coeffs[3];
} Params;

double model(const double *x, const Params *pp) {
  Params p = *pp;
  double y[N];
#pragma omp parallel for firstprivate(p)
  for (int i = 0; i < p.n; i++) y[i] = p.scale * x[i] * x[i] + p.coeffs[i % 3] * x[i] + p.shift;
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < p.n; i++) s += y[i] * p.coeffs[(i + 1) % 3] + sin(p.shift * x[i]);
  return s;
}

static Params P0;
static double model_x(double *x) { return model(x, &P0); }
static double XS[N];
static double model_p(double *q) {
  Params p = P0;
  p.scale = q[0];
  p.shift = q[1];
  p.coeffs[0] = q[2];
  p.coeffs[1] = q[3];
  p.coeffs[2] = q[4];
  return model(XS, &p);
}

int main(void) {
  double x[N], dx[N], g[N];
  for (int i = 0; i < N; i++) {
    x[i] = XS[i] = 0.1 * i - 1.2;
    dx[i] = 0;
  }
  Params p = {1.5, 0.3, N, {0.7, -1.1, 2.0}}, dp = {0};
  P0 = p;
  __enzyme_autodiff((void *)model, enzyme_dup, x, dx, enzyme_dup, &p, &dp);
  central_gradient(model_x, x, N, g);
  for (int i = 0; i < N; i++) check("reverse x", i, dx[i], g[i], 1e-6);
  double q[5] = {p.scale, p.shift, p.coeffs[0], p.coeffs[1], p.coeffs[2]}, gq[5];
  double dq[5] = {dp.scale, dp.shift, dp.coeffs[0], dp.coeffs[1], dp.coeffs[2]};
  central_gradient(model_p, q, 5, gq);
  for (int i = 0; i < 5; i++) check("reverse params", i, dq[i], gq[i], 1e-6);
  for (int i = 0; i < N; i++) {
    double t[N] = {0};
    Params tp = {0};
    t[i] = 1;
    check("forward x", i, __enzyme_fwddiff((void *)model, enzyme_dup, x, t, enzyme_dup, &p, &tp), g[i], 1e-6);
  }
  Params tp = {0};
  double t0[N] = {0};
  tp.shift = 1;
  check("forward shift", 0, __enzyme_fwddiff((void *)model, enzyme_dup, x, t0, enzyme_dup, &p, &tp), gq[1], 1e-6);
  return finish();
}

/* A C++ struct of parameters (with a std::array) copied into parallel regions: by value into a function whose
   region takes it firstprivate (each thread copies it out of shared memory: its adjoints go back atomically),
   and captured by reference in another region.  Reverse and forward mode against central differences. */
#include "omp_check.h"
#include <array>
enum { N = 21 };
struct Params {
  double scale;
  int n;
  std::array<double, 3> coeffs;
  double shift;
};

static double region2(const double *x, Params p) {  // by value: a copy per call
  double s = 0;
#pragma omp parallel for reduction(+ : s) firstprivate(p)
  for (int i = 0; i < p.n; i++) s += p.coeffs[i % 3] * x[i] * x[i] + p.shift * x[i];
  return s;
}

double model(const double *x, const Params *pp) {
  Params p = *pp;
  double y[N];
#pragma omp parallel for
  for (int i = 0; i < p.n; i++) y[i] = p.scale * sin(x[i]) + p.coeffs[(i + 1) % 3];
  Params q = p;
  q.shift = p.shift * 2;
  return region2(y, q) + region2(x, p);
}

static Params P0;
static double model_x(double *x) { return model(x, &P0); }

int main(void) {
  double x[N], dx[N] = {0}, g[N];
  for (int i = 0; i < N; i++) x[i] = 0.1 * i - 1.0;
  Params p = {1.5, N, {0.7, -1.1, 2.0}, 0.3}, dp = {};
  P0 = p;
  __enzyme_autodiff((void *)model, enzyme_dup, x, dx, enzyme_dup, &p, &dp);
  central_gradient(model_x, x, N, g);
  for (int i = 0; i < N; i++) check("reverse x", i, dx[i], g[i], 1e-6);
  for (int i = 0; i < N; i++) {
    double t[N] = {0};
    Params tp = {};
    t[i] = 1;
    check("forward x", i, __enzyme_fwddiff((void *)model, enzyme_dup, x, t, enzyme_dup, &p, &tp), g[i], 1e-6);
  }
  double h = 1e-6;
  Params pp = p, pm = p;
  pp.shift += h; pm.shift -= h;
  check("reverse shift", 0, dp.shift, (model(x, &pp) - model(x, &pm)) / (2 * h), 1e-6);
  return finish();
}

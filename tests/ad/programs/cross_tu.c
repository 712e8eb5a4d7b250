#include "check.h"
/* Two translation units linked into one module: the model lives in cross_tu_helper.c. */
double model_loss(const double *w, const double *xs, const double *ys, int n);
void model_predict(const double *w, const double *xs, double *out, int n);
extern const double model_bias;

int main(void) {
  enum { N = 4 };
  double w[2] = {0.8, -0.3}, dw[2] = {0}, xs[N] = {0.0, 0.5, 1.0, 1.5}, ys[N] = {0.1, 0.5, 0.6, 1.2};
  __enzyme_autodiff((void *)model_loss, enzyme_dup, w, dw, enzyme_const, xs, enzyme_const, ys, enzyme_const, N);
  double g0 = 0, g1 = 0;
  for (int i = 0; i < N; i++) {
    double r = w[0] * sin(xs[i]) + w[1] * xs[i] * xs[i] + model_bias - ys[i];
    g0 += 2 * r * sin(xs[i]);
    g1 += 2 * r * xs[i] * xs[i];
  }
  check("cross-TU loss dw0", dw[0], g0, 1e-12);
  check("cross-TU loss dw1", dw[1], g1, 1e-12);
  check("cross-TU loss central", dw[0], CENTRAL(model_loss(w, xs, ys, N), w[0], w[0]), 1e-6);
  double wd[2] = {1.0, 2.0}, out[N], od[N] = {0};
  __enzyme_fwddiff((void *)model_predict, enzyme_dup, w, wd, enzyme_const, xs, enzyme_dup, out, od, enzyme_const, N);
  for (int i = 0; i < N; i++) check("cross-TU predict forward", od[i], sin(xs[i]) + 2 * xs[i] * xs[i], 1e-12);
  return finish();
}

#include "check.h"
/* 1-D stencils writing an output array; periodic boundaries with %; several sweeps through a scratch buffer
   whose copy-back loop the pre-AD optimizer turns into memcpy (reverse mode moves the adjoints back). */
void laplace(const double *u, double *out, int n) { for (int i = 0; i < n; i++) out[i] = u[(i + n - 1) % n] - 2 * u[i] + u[(i + 1) % n]; }
double diffuse(double *u, int n, int steps) {
  double tmp[16];
  for (int s = 0; s < steps; s++) {
    for (int i = 1; i + 1 < n; i++) tmp[i] = u[i] + 0.2 * (u[i - 1] - 2 * u[i] + u[i + 1]) - 0.1 * u[i] * u[i];
    for (int i = 1; i + 1 < n; i++) u[i] = tmp[i];
  }
  double e = 0;
  for (int i = 0; i < n; i++) e += u[i] * u[i];
  return e;
}

int main(void) {
  enum { N = 7 };
  double u[N] = {0.1, 0.9, -0.3, 0.5, 1.2, -0.8, 0.4}, out[N];
  double udot[N] = {1, 0, -1, 2, 0.5, 0.3, -0.2}, odot[N] = {0}, obar[N] = {1, -1, 2, 0.5, 3, -2, 1}, obar0[N], ubar[N] = {0};
  for (int i = 0; i < N; i++) obar0[i] = obar[i];
  __enzyme_fwddiff((void *)laplace, enzyme_dup, u, udot, enzyme_dup, out, odot, enzyme_const, N);
  for (int i = 0; i < N; i++) check("laplace forward", odot[i], udot[(i + N - 1) % N] - 2 * udot[i] + udot[(i + 1) % N], 1e-12);
  __enzyme_autodiff((void *)laplace, enzyme_dup, u, ubar, enzyme_dup, out, obar, enzyme_const, N);
  for (int i = 0; i < N; i++) check("laplace reverse (symmetric operator)", ubar[i], obar0[(i + N - 1) % N] - 2 * obar0[i] + obar0[(i + 1) % N], 1e-12);
  double u0[N], w[N], du[N] = {0};
  for (int i = 0; i < N; i++) u0[i] = u[i];
  __enzyme_autodiff((void *)diffuse, enzyme_dup, u, du, enzyme_const, N, enzyme_const, 3);
  for (int k = 0; k < N; k++) {
    double h = 1e-6, p, m;
    for (int i = 0; i < N; i++) w[i] = u0[i];
    w[k] += h; p = diffuse(w, N, 3);
    for (int i = 0; i < N; i++) w[i] = u0[i];
    w[k] -= h; m = diffuse(w, N, 3);
    check("diffusion central", du[k], (p - m) / (2 * h), 1e-6);
  }
  for (int i = 0; i < N; i++) w[i] = u0[i];
  double expected = dot(du, udot, N);  /* before the call: the tangent of the in-place w is updated in place */
  check("diffusion forward", __enzyme_fwddiff((void *)diffuse, enzyme_dup, w, udot, enzyme_const, N, enzyme_const, 3), expected, 1e-10);
  return finish();
}

#define _POSIX_C_SOURCE 200112L
#include "check.h"
#include <malloc.h>
#include <stdint.h>
/* A 1-D heat-equation stencil on 64-byte aligned work buffers (posix_memalign, aligned_alloc,
   memalign), as SIMD-minded numerical code allocates them, plus an allocator chosen at run time
   through a function pointer (malloc by default, a pool in other builds). */
enum { N = 24 };

static void *(*allocate)(size_t) = malloc;

double heat(const double *u0, double kappa) {
  double *u, *v;
  if (posix_memalign((void **)&u, 64, N * sizeof(double)) != 0) return -1;
  v = aligned_alloc(64, N * sizeof(double));
  double *w = memalign(32, N * sizeof(double));
  double *flux = allocate(N * sizeof(double));
  for (int i = 0; i < N; i++) u[i] = u0[i];
  for (int step = 0; step < 5; step++) {
    v[0] = u[0];
    v[N - 1] = u[N - 1];
    for (int i = 1; i < N - 1; i++) v[i] = u[i] + kappa * (u[i - 1] - 2 * u[i] + u[i + 1]);
    for (int i = 0; i < N; i++) { w[i] = v[i] * v[i]; u[i] = v[i]; }
  }
  double e = 0;
  for (int i = 0; i < N - 1; i++) flux[i] = kappa * (w[i + 1] - w[i]);
  for (int i = 0; i < N - 1; i++) e += flux[i] * flux[i] + w[i];
  free(u);
  free(v);
  free(w);
  free(flux);
  return e;
}

/* The allocator as an argument (a library taking the user's allocator): an indirect call the
   optimizer cannot resolve inside this function. */
__attribute__((noinline)) double smooth_energy(const double *u, int n, void *(*alloc)(size_t), void (*release)(void *)) {
  double *s = alloc(n * sizeof(double)), e = 0;
  for (int i = 0; i < n; i++) s[i] = 0.25 * u[i > 0 ? i - 1 : i] + 0.5 * u[i] + 0.25 * u[i < n - 1 ? i + 1 : i];
  for (int i = 0; i < n; i++) e += s[i] * s[i] * s[i];
  release(s);
  return e;
}

double smooth(const double *u, void *(*alloc)(size_t)) { return smooth_energy(u, N, alloc, free); }

static double smooth_at(const double *u0, int i, double x) {
  double u[N];
  for (int k = 0; k < N; k++) u[k] = u0[k];
  u[i] = x;
  return smooth(u, malloc);
}

static double heat_at(const double *u0, double kappa, int i, double x) {
  double u[N];
  for (int k = 0; k < N; k++) u[k] = u0[k];
  u[i] = x;
  return heat(u, kappa);
}

typedef struct { double d[2]; } v2;
extern int enzyme_width;
v2 __enzyme_fwddiff_v2(void *, ...);

int main(void) {
  double u0[N], du[N], x, kappa = 0.2;
  for (int i = 0; i < N; i++) { u0[i] = sin(0.3 * i) + 0.1 * i; du[i] = 0; }
  __enzyme_autodiff((void *)heat, enzyme_dup, u0, du, enzyme_const, kappa);
  for (int i = 0; i < N; i += 5) {
    check("d heat/du0", du[i], CENTRAL(heat_at(u0, kappa, i, x), x, u0[i]), 1e-6);
    double t[N] = {0};
    t[i] = 1;
    check("forward d heat/du0", __enzyme_fwddiff((void *)heat, enzyme_dup, u0, t, enzyme_const, kappa), du[i], 1e-9);
  }
  double dk = __enzyme_fwddiff((void *)heat, enzyme_const, u0, kappa, 1.0);
  check("d heat/dkappa", dk, CENTRAL(heat(u0, x), x, kappa), 1e-6);
  double zero[N] = {0};
  check("reverse d heat/dkappa", __enzyme_autodiff((void *)heat, enzyme_const, u0, kappa), dk, 1e-9);
  double t0[N] = {0}, t1[N] = {0};
  t0[3] = 1;
  t1[7] = 1;
  v2 b = __enzyme_fwddiff_v2((void *)heat, enzyme_width, 2, enzyme_dup, u0, t0, t1, enzyme_const, kappa);
  check("batch forward du0[3]", b.d[0], CENTRAL(heat_at(u0, kappa, 3, x), x, u0[3]), 1e-6);
  check("batch forward du0[7]", b.d[1], CENTRAL(heat_at(u0, kappa, 7, x), x, u0[7]), 1e-6);
  (void)zero;
  double ds[N] = {0};
  void *(*volatile chosen)(size_t) = malloc;  /* picked at run time */
  __enzyme_autodiff((void *)smooth, enzyme_dup, u0, ds, enzyme_const, chosen);
  for (int i = 0; i < N; i += 7) {
    check("d smooth/du", ds[i], CENTRAL(smooth_at(u0, i, x), x, u0[i]), 1e-6);
    double t[N] = {0};
    t[i] = 1;
    check("forward d smooth/du", __enzyme_fwddiff((void *)smooth, enzyme_dup, u0, t, enzyme_const, chosen), ds[i], 1e-9);
  }
  return finish();
}

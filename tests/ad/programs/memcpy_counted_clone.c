#include "check.h"
#include <string.h>
/* A stage buffer cloned from a zeroed prototype with memcpy(dst, src, n * sizeof(double)), n known only at run
   time, as Rust's vec![vec![0.0; n]; 2] does: the copying function never touches the buffers itself, the callee
   that fills them reads and writes fixed elements only (type analysis knows doubles at offsets 0 and 8, nothing
   about the rest); the prototype itself becomes the last buffer, so the copies' sources are active memory.  The
   copy is typed by its length being a count of doubles. */
struct Stages { double *k[3]; };

__attribute__((noinline)) static void rate(const double *p, const double *y, double *dy) {
  dy[0] = -p[0] * y[0] + p[1] * y[1];
  dy[1] = p[0] * y[0] - p[1] * y[1] * y[1];
}

__attribute__((noinline)) static void heun(const double *p, double *y, struct Stages *s, double h) {
  double *tmp = s->k[2];
  rate(p, y, s->k[0]);
  tmp[0] = y[0] + h * s->k[0][0];
  tmp[1] = y[1] + h * s->k[0][1];
  rate(p, tmp, s->k[1]);
  y[0] += 0.5 * h * (s->k[0][0] + s->k[1][0]);
  y[1] += 0.5 * h * (s->k[0][1] + s->k[1][1]);
}

double evolve(const double *p, long n) {
  struct Stages s;
  double *proto = calloc(n, sizeof(double));
  for (int j = 0; j < 2; j++) {
    s.k[j] = malloc(n * sizeof(double));
    memcpy(s.k[j], proto, n * sizeof(double));
  }
  s.k[2] = proto;  /* the prototype itself is the last buffer */
  double y[2] = {1.0, 0.5};
  for (int step = 0; step < 20; step++) heun(p, y, &s, 0.05);
  free(s.k[2]);
  free(s.k[0]);
  free(s.k[1]);
  return y[0] * y[0] + y[1];
}

int main(void) {
  double p[2] = {0.8, 0.3};
  for (int k = 0; k < 2; k++) {
    double dp[2] = {0}, t[2] = {0};
    __enzyme_autodiff((void *)evolve, enzyme_dup, p, dp, enzyme_const, 2L);
    t[k] = 1;
    double fw = __enzyme_fwddiff((void *)evolve, enzyme_dup, p, t, enzyme_const, 2L);
    double fd = CENTRAL(evolve(p, 2), p[k], p[k]);
    check("counted clone, reverse", dp[k], fd, 1e-6);
    check("counted clone, forward", fw, fd, 1e-6);
  }
  return finish();
}

#include "check.h"
#include <stdint.h>
/* An address kept as an integer in a struct by one function and made a pointer again in another (the
   refusal test_refusals used to pin): the shadow box receives the shadow's address, so the derivative
   follows it.  The box is duplicated (its shadow is where the stashed shadow address goes). */
typedef struct {
  uintptr_t addr;
  double w;
} Box;

__attribute__((noinline)) void stash(Box *b, double *x) { b->addr = (uintptr_t)x; }
__attribute__((noinline)) double unstash(const Box *b) {
  double *x = (double *)b->addr;
  return x[0] * x[0] * b->w + x[1];
}
double f(double *x, Box *b) {
  stash(b, x);
  return unstash(b);
}

int main(void) {
  double x[2] = {1.5, -0.25}, dx[2] = {0, 0};
  Box b = {0, 3.0}, db = {0, 0.0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, &b, &db);
  check("reverse x0", dx[0], 2 * x[0] * 3.0, 1e-12);
  check("reverse x1", dx[1], 1.0, 1e-12);
  check("reverse w", db.w, x[0] * x[0], 1e-12);
  for (int i = 0; i < 2; i++) {
    double t[2] = {0, 0};
    Box tb = {0, 0.0};
    t[i] = 1;
    check("forward", __enzyme_fwddiff((void *)f, enzyme_dup, x, t, enzyme_dup, &b, &tb), dx[i], 1e-12);
    double y[2] = {x[0], x[1]};
    Box c = {0, 3.0};
    check("central", CENTRAL(f(y, &c), y[i], x[i]), dx[i], 1e-6);
  }
  return finish();
}

#include "check.h"
#include <stdint.h>
#include <string.h>
/* Doubles copied as integer words: two uint32_t halves, one uint64_t, char by char, a uint32_t loop.  Copying a
   double through uint32_t or uint64_t lvalues breaks C's strict-aliasing rules: clang's TBAA tags those accesses
   "int"/"long", so type analysis meets conflicting facts for the bytes.  Forward mode copies the tangent bits
   with the value bits, which is exact whatever the bytes are (checked here against analytic values and central
   differences); reverse mode cannot know how to move the adjoints of such bytes and refuses
   (tests/ad/test_refusals.py: test_double_copied_through_integer_words_in_reverse).  The same copies written
   with memcpy are differentiated in both modes.  The copies are noinline so the primal itself stays well
   defined: the caller reads the double only after a call that writes it. */

__attribute__((noinline)) void copy_halves(const double *x, double *y) {
  const uint32_t *s = (const uint32_t *)x;
  uint32_t *d = (uint32_t *)y;
  d[0] = s[0];
  d[1] = s[1];
}
__attribute__((noinline)) void copy_u64(const double *x, double *y) { *(uint64_t *)y = *(const uint64_t *)x; }
__attribute__((noinline)) void copy_chars(const double *x, double *y, int n) {
  const char *s = (const char *)x;
  char *d = (char *)y;
  for (int i = 0; i < 8 * n; i++) d[i] = s[i];
}
__attribute__((noinline)) void copy_words(const double *x, double *y, int n) {
  const uint32_t *s = (const uint32_t *)x;
  uint32_t *d = (uint32_t *)y;
  for (int i = 0; i < 2 * n; i++) d[i] = s[i];
}
__attribute__((noinline)) void copy_memcpy(const double *x, double *y, int n) { memcpy(y, x, 8 * (size_t)n); }

/* y = x (2 doubles) by one of the copies, then y0^2 * y1 + sin(y1). */
static double use(const double *y) { return y[0] * y[0] * y[1] + sin(y[1]); }
double by_halves(const double *x) { double y[2]; copy_halves(x, y); copy_halves(x + 1, y + 1); return use(y); }
double by_u64(const double *x) { double y[2]; copy_u64(x, y); copy_u64(x + 1, y + 1); return use(y); }
double by_chars(const double *x) { double y[2]; copy_chars(x, y, 2); return use(y); }
double by_words(const double *x) { double y[2]; copy_words(x, y, 2); return use(y); }
double by_memcpy(const double *x) { double y[2]; copy_memcpy(x, y, 2); return use(y); }

typedef double (*fn_t)(const double *);

static void expect(const char *what, const double *x, const double *d, double (*f)(const double *)) {
  const double exact[2] = {2 * x[0] * x[1], x[0] * x[0] + cos(x[1])};
  char name[96];
  for (int i = 0; i < 2; i++) {
    double p[2] = {x[0], x[1]};
    snprintf(name, sizeof name, "%s d%d", what, i);
    check(name, d[i], exact[i], 1e-12);
    snprintf(name, sizeof name, "%s d%d central", what, i);
    check(name, CENTRAL(f(p), p[i], x[i]), exact[i], 1e-6);
  }
}

#define FORWARD(name, f) do { const double x[2] = {1.3, -0.7}; double d[2]; \
  for (int i = 0; i < 2; i++) { double v[2] = {i == 0, i == 1}; \
    d[i] = __enzyme_fwddiff((void *)f, enzyme_dup, x, v); } \
  expect(name " forward", x, d, f); } while (0)

#define REVERSE(name, f) do { double x[2] = {1.3, -0.7}, d[2] = {0, 0}; \
  __enzyme_autodiff((void *)f, enzyme_dup, x, d); expect(name " reverse", x, d, f); } while (0)

int main(void) {
  FORWARD("halves", by_halves);
  FORWARD("u64", by_u64);
  FORWARD("chars", by_chars);
  FORWARD("words", by_words);
  FORWARD("memcpy", by_memcpy);
  REVERSE("memcpy", by_memcpy);
#ifndef __OPTIMIZE__
  REVERSE("u64", by_u64); /* no TBAA at -O0: the i64 holds the whole double, and its adjoint moves with it */
#endif
  return finish();
}

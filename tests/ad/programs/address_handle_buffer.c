#include "check.h"
#include <stdint.h>
/* A zero-initialized work buffer kept as an address handle, the way Rust's Vec keeps its pointer: an empty
   buffer holds a non-null "dangling" address instead of an allocation.  At -O2 the handle's address reaches
   the loops through a phi of (uintptr_t)calloc(...) and the constant sentinel; the shadow of the pointer made
   back from it must be defined on both paths (it was computed from the allocation's shadow, which does not
   exist on the empty path: invalid IR). */
typedef struct {
  uintptr_t data; /* address of the elements, or _Alignof(double) when len == 0 */
  size_t len;
} Buffer;

#define BUFFER_ELEMENTS(b) ((double *)(b).data)

/* sum_i w_i x_i^2 with w_i = 1 + i mod 3, accumulated in a zeroed scratch buffer. */
double weighted_energy(const double *x, size_t n) {
  size_t bytes = n * sizeof(double);
  Buffer scratch = {(uintptr_t)_Alignof(double), 0};
  if (bytes > 0) {
    double *p = calloc(bytes, 1);
    if (p == NULL) abort();
    scratch.data = (uintptr_t)p;
    scratch.len = n;
  }
  double *s = BUFFER_ELEMENTS(scratch);
  for (size_t i = 0; i < n; i++) s[i] = (1 + i % 3) * x[i] * x[i];
  double total = 0;
  for (size_t i = 0; i < n; i++) total += s[i];
  if (scratch.len > 0) free(BUFFER_ELEMENTS(scratch));
  return total;
}

/* An address rounded up to a 64-byte boundary inside an over-allocated block, or the caller's memory for short
   inputs: the address reaching the last loop is a phi of two addresses with shadows, each shadow found at the
   same offset of its own object's shadow. */
double aligned_sum(const double *x, size_t n) {
  uintptr_t raw = 0, at = (uintptr_t)x;
  if (n * sizeof(double) > 16) {
    raw = (uintptr_t)calloc(n * sizeof(double) + 64, 1);
    if (raw == 0) abort();
    at = (raw + 63) & ~(uintptr_t)63;
    for (size_t i = 0; i < n; i++) ((double *)at)[i] = sin(x[i]);
  }
  if (at % _Alignof(double) != 0) abort();
  const double *v = (const double *)at;
  double total = 0;
  for (size_t i = 0; i < n; i++) total += v[i] * v[i];
  free((void *)raw);
  return total;
}

/* Walking an array with an integer address (a loop-carried phi): every element visited has its shadow at the
   same offset of x's shadow. */
double strided_sum(const double *x, size_t n, size_t stride) {
  double total = 0;
  uintptr_t at = (uintptr_t)x, end = (uintptr_t)(x + n * stride);
  while (at < end) {
    if (at % _Alignof(double) != 0) abort();
    double v = *(const double *)at;
    total += v * v;
    at += stride * sizeof(double);
  }
  return total;
}

int main(void) {
  enum { N = 7 };
  double x[N] = {0.5, -1.25, 2.0, 0.75, -0.3, 1.1, 3.0};
  for (size_t n = 0; n <= N; n += N) { /* the empty buffer (dangling address) and a full one */
    double dx[N] = {0};
    __enzyme_autodiff((void *)weighted_energy, enzyme_dup, x, dx, enzyme_const, n);
    for (size_t i = 0; i < N; i++) {
      double expected = i < n ? 2 * (1 + i % 3) * x[i] : 0;
      check("weighted reverse", dx[i], expected, 1e-12);
      double t[N] = {0};
      t[i] = 1;
      check("weighted forward", __enzyme_fwddiff((void *)weighted_energy, enzyme_dup, x, t, enzyme_const, n),
            expected, 1e-12);
      double y[N];
      for (int k = 0; k < N; k++) y[k] = x[k];
      check("weighted central", CENTRAL(weighted_energy(y, n), y[i], x[i]), expected, 1e-6);
    }
  }
  for (size_t n = 2; n <= N; n += N - 2) { /* the caller's memory (n = 2) and the aligned block (n = 7) */
    double dx[N] = {0};
    __enzyme_autodiff((void *)aligned_sum, enzyme_dup, x, dx, enzyme_const, n);
    for (size_t i = 0; i < N; i++) {
      double expected = i >= n ? 0 : n > 2 ? 2 * sin(x[i]) * cos(x[i]) : 2 * x[i];
      check("aligned reverse", dx[i], expected, 1e-12);
      double t[N] = {0};
      t[i] = 1;
      check("aligned forward", __enzyme_fwddiff((void *)aligned_sum, enzyme_dup, x, t, enzyme_const, n),
            expected, 1e-12);
      double y[N];
      for (int k = 0; k < N; k++) y[k] = x[k];
      check("aligned central", CENTRAL(aligned_sum(y, n), y[i], x[i]), expected, 1e-6);
    }
  }
  {
    double dx[N] = {0};
    __enzyme_autodiff((void *)strided_sum, enzyme_dup, x, dx, enzyme_const, (size_t)3, enzyme_const, (size_t)2);
    for (size_t i = 0; i < N; i++) {
      double expected = i % 2 == 0 && i < 6 ? 2 * x[i] : 0;
      check("strided reverse", dx[i], expected, 1e-12);
      double t[N] = {0};
      t[i] = 1;
      check("strided forward",
            __enzyme_fwddiff((void *)strided_sum, enzyme_dup, x, t, enzyme_const, (size_t)3, enzyme_const, (size_t)2),
            expected, 1e-12);
      double y[N];
      for (int k = 0; k < N; k++) y[k] = x[k];
      check("strided central", CENTRAL(strided_sum(y, 3, 2), y[i], x[i]), expected, 1e-6);
    }
  }
  return finish();
}

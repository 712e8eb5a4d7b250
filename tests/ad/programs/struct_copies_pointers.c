#include "check.h"
#include <string.h>
/* Structs with padding holes, char fields and pointers into the input, copied whole: element by element
   through an array of structs in a loop, with memmove between overlapping elements, and by value through a
   noinline helper (a byval argument copied into the sret result).  Reverse mode must move the copied
   pointers' shadows along in its forward sweep (it used to leave them null: a segfault, or derivatives
   through them lost) and must know the char fields and the padding hold no float (it used to refuse every
   such copy).  Found by the random tester (tests/ad/random, kind struct_copies). */
extern int enzyme_width;
typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);
void __enzyme_autodiff_void(void *, ...);

struct link { double w; const double *src; };

/* No padding, no char: only the pointer's shadow must be copied (the engine used to segfault here). */
double links(const double *x, int n) {
  struct link a[4];
  a[0].w = x[0]; a[0].src = &x[1];
  for (int i = 1; i < n; i++) memcpy(&a[i], &a[i - 1], sizeof a[0]);
  return a[n - 1].w * a[n - 1].src[0] * x[3] + x[2];
}

struct sample { char tag; double w; const double *src; short count; double v[2]; };

/* The weight and the source travel down an array of structs by whole-struct assignment. */
double chain(const double *x, int n) {
  struct sample a[4];
  memset(a, 0, sizeof a);
  a[0].tag = 'c'; a[0].w = x[0] * x[1]; a[0].src = &x[2]; a[0].count = (short)(n - 1); a[0].v[0] = x[3]; a[0].v[1] = 1.0;
  for (int i = 1; i < n; i++) {
    a[i] = a[i - 1];
    a[i].w *= 0.5;
  }
  const struct sample *last = &a[n - 1];
  return last->w * last->src[0] + last->v[0] * last->count;
}

/* memmove shifts the array right by one element (overlapping), then the copies are read. */
double shifted(const double *x, int n) {
  struct sample a[3];
  memset(a, 0, sizeof a);
  for (int i = 0; i < 3; i++) {
    a[i].tag = (char)('a' + i); a[i].w = x[i] * (i + 1); a[i].src = &x[(i + 1) % 4]; a[i].count = (short)i;
    a[i].v[0] = x[3] * i; a[i].v[1] = 0;
  }
  memmove(a + 1, a, 2 * sizeof a[0]);
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i].w * a[i].src[0] + a[i].v[0];
  return s;
}

__attribute__((noinline)) static struct sample rescaled(struct sample s, double k) {
  s.w *= k;
  s.v[1] += k * s.v[0];
  return s;
}

/* By value through a noinline helper: the helper copies its byval argument into its sret result. */
double by_value(const double *x, int n) {
  struct sample s;
  memset(&s, 0, sizeof s);
  s.tag = 'v'; s.w = x[0]; s.src = &x[1]; s.count = (short)n; s.v[0] = x[2]; s.v[1] = x[0] * x[3];
  struct sample t = rescaled(s, 2.0);
  return t.w * t.src[0] + t.v[1] * t.count;
}

/* A struct holding a pointer returned by value in registers ({ double, ptr }): forward mode follows the
   pointer (reverse mode refuses it: tests/ad/test_refusals.py). */
struct view { double w; const double *p; };
__attribute__((noinline)) static struct view pick(const double *x) { struct view v = {3.0 * x[0], x + 1}; return v; }
double picked(const double *x) { struct view v = pick(x); return v.w * v.p[0]; }

/* Analytic gradients at x with n = 3. */
static void grad_links(const double *x, double *g) {  /* x0 x1 x3 + x2 */
  g[0] = x[1] * x[3]; g[1] = x[0] * x[3]; g[2] = 1; g[3] = x[0] * x[1];
}
static void grad_chain(const double *x, double *g) {  /* 0.25 x0 x1 x2 + 2 x3 */
  g[0] = 0.25 * x[1] * x[2]; g[1] = 0.25 * x[0] * x[2]; g[2] = 0.25 * x[0] * x[1]; g[3] = 2;
}
static void grad_shifted(const double *x, double *g) {  /* after the shift: a = {x0, x0, 2 x1} with sources x1, x1, x2 */
  g[0] = 2 * x[1]; g[1] = 2 * x[0] + 2 * x[2]; g[2] = 2 * x[1]; g[3] = 1;  /* v[0]: 0, 0, x3 */
}
static void grad_by_value(const double *x, double *g) {  /* 2 x0 x1 + 3 (x0 x3 + 2 x2) */
  g[0] = 2 * x[1] + 3 * x[3]; g[1] = 2 * x[0]; g[2] = 6; g[3] = 3 * x[0];
}

#define CHECK_ALL(f, grad) do { \
  double x[4] = {1.25, -0.5, 0.75, 2.0}, g[4], dx[4] = {0}, r0[4] = {0}, r1[4] = {0}; \
  grad(x, g); \
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 3); \
  __enzyme_autodiff_void((void *)f, enzyme_width, 2, enzyme_dup, x, r0, r1, enzyme_const, 3); \
  for (int k = 0; k < 4; k++) { \
    char what[64]; \
    double t[4] = {0}, t2[4] = {0}, v; \
    t[k] = 1; t2[(k + 1) % 4] = 1; \
    snprintf(what, sizeof what, #f " reverse d%d", k); check(what, dx[k], g[k], 1e-12); \
    snprintf(what, sizeof what, #f " batch reverse d%d", k); check(what, r0[k] + r1[k], 2 * g[k], 1e-12); \
    snprintf(what, sizeof what, #f " forward d%d", k); \
    check(what, __enzyme_fwddiff((void *)f, enzyme_dup, x, t, enzyme_const, 3), g[k], 1e-12); \
    v2 w = __enzyme_fwddiff_v2((void *)f, enzyme_width, 2, enzyme_dup, x, t, t2, enzyme_const, 3); \
    snprintf(what, sizeof what, #f " batch forward d%d", k); check(what, w.d[0] + 10 * w.d[1], g[k] + 10 * g[(k + 1) % 4], 1e-12); \
    snprintf(what, sizeof what, #f " central d%d", k); check(what, CENTRAL(f(x, 3), x[k], v = x[k]), g[k], 1e-6); \
  } } while (0)

int main(void) {
  CHECK_ALL(links, grad_links);
  CHECK_ALL(chain, grad_chain);
  CHECK_ALL(shifted, grad_shifted);
  CHECK_ALL(by_value, grad_by_value);
  double x[2] = {2.0, 5.0}, e0[2] = {1, 0}, e1[2] = {0, 1};
  check("picked forward d0", __enzyme_fwddiff((void *)picked, enzyme_dup, x, e0), 15, 1e-12);
  check("picked forward d1", __enzyme_fwddiff((void *)picked, enzyme_dup, x, e1), 6, 1e-12);
  return finish();
}

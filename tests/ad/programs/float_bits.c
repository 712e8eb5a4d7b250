#include "check.h"
#include <stdint.h>
#include <string.h>
/* Floats handled through their bits, as numerical code does it: memcpy into an integer, unions, integer
   pointers over double arrays.  Sign-bit operations (negation, fabs, -fabs, copysign) have derivatives;
   copies of the bits carry them.  Every function is checked in reverse mode, forward mode, batch forward
   and batch reverse mode against analytic values and central differences, at points on both sides of zero
   and at -0.0 (where d|x| follows the sign bit: -1). */
extern int enzyme_width;
typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);
void __enzyme_autodiff_void(void *, ...);
float __enzyme_fwddiff_f(void *, ...);
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

#define SIGN64 0x8000000000000000ull
#define SIGN32 0x80000000u

static uint64_t bits_of(double x) { uint64_t u; memcpy(&u, &x, sizeof u); return u; }
static double double_of(uint64_t u) { double x; memcpy(&x, &u, sizeof x); return x; }

/* -p[0] * p[1], the negation done on the bits of p[0] read from memory. */
double neg_product(const double *p) {
  uint64_t b;
  double y;
  memcpy(&b, p, sizeof b);
  b ^= SIGN64;
  memcpy(&y, &b, sizeof y);
  return y * p[1];
}

/* |p[0]| * p[1] with a hand-written fabs. */
double abs_product(const double *p) {
  uint64_t b;
  double y;
  memcpy(&b, p, sizeof b);
  b &= ~SIGN64;
  memcpy(&y, &b, sizeof y);
  return y * p[1];
}

/* -|p[0]| + p[1]^2: the sign bit forced on. */
double nabs_plus(const double *p) {
  uint64_t b = bits_of(p[0]) | SIGN64;
  return double_of(b) + p[1] * p[1];
}

/* copysign(p[0], p[1]) * p[0] through the bits; magnitude from p[0], sign from p[1]. */
double copysign_bits(const double *p) {
  uint64_t m, s;
  memcpy(&m, &p[0], 8);
  memcpy(&s, &p[1], 8);
  double r = double_of((m & ~SIGN64) | (s & SIGN64));
  return r * p[0];
}

/* A sum of x[i] * |x[i+1]| over an array, |.| through a union. */
double union_sum(const double *x, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; i++) {
    union { double d; uint64_t u; } v;
    v.d = x[i + 1];
    v.u &= ~SIGN64;
    s += x[i] * v.d;
  }
  return s;
}

/* Single precision: -a * b through uint32_t. */
float neg_float(const float *p) {
  uint32_t b;
  memcpy(&b, p, 4);
  b ^= SIGN32;
  float y;
  memcpy(&y, &b, 4);
  return y * p[1];
}

/* Writes -x[i]^2 into out as bits (memcpy of an integer: the bits stored, not the double).  Writing through a
   uint64_t pointer into a double array instead would break C's aliasing rules: at -O2 clang's type-based alias
   analysis may then reorder the program's own reads of out. */
void neg_squares(const double *x, double *out, int n) {
  for (int i = 0; i < n; i++) {
    uint64_t b = bits_of(x[i] * x[i]) ^ SIGN64;
    memcpy(&out[i], &b, sizeof b);
  }
}

/* Copies doubles as 64-bit integers (a hand-written memcpy, one integer at a time), then squares the copy. */
double copy_as_integers(const double *x, int n) {
  uint64_t tmp[4];
  for (int i = 0; i < n; i++) memcpy(&tmp[i], &x[i], sizeof tmp[i]);
  double s = 0;
  for (int i = 0; i < n; i++) { double v; memcpy(&v, &tmp[i], 8); s += v * v; }
  return s;
}

/* By value: |x| * x and copysign(x*x, y) through a union and through helper functions. */
double fabs_value(double x) {
  union { double d; uint64_t u; } v = {x};
  v.u &= ~SIGN64;
  return v.d * x;
}
double copysign_value(double x, double y) {
  return double_of((bits_of(x * x) & ~SIGN64) | (bits_of(y) & SIGN64)) + y;
}
double copysign_of_x(double x) { return copysign_value(x, -2.0); }

/* A struct of a float and an int passed by value travels as one i64 (the x86-64 ABI): forward mode follows the
   float through the integer (reverse mode refuses it: tests/ad/test_refusals.py). */
typedef struct { float w; int k; } weight_t;
__attribute__((noinline)) double weigh(weight_t s, double x) { return s.w * x * s.k; }
double weighted_square(const float *w, double x) {
  weight_t s = {w[0] * w[0], 3};
  return weigh(s, x) + x;
}

static double sgn(double x) { return signbit(x) ? -1.0 : 1.0; }

/* One function of p[0], p[1] (a macro: __enzyme_* need the function itself, not a pointer to it): reverse,
   forward, batch forward and batch reverse against the analytic gradient (g0, g1), central differences away
   from the kink. */
#define CHECK2(f, a, b, g0, g1) do { \
  double _p[2] = {a, b}, _dp[2] = {0, 0}, _e0[2] = {1, 0}, _e1[2] = {0, 1}, _r0[2] = {0, 0}, _r1[2] = {0, 0}; \
  __enzyme_autodiff((void *)f, _p, _dp); \
  report(#f, "reverse d0", a, b, _dp[0], g0, 1e-13); \
  report(#f, "reverse d1", a, b, _dp[1], g1, 1e-13); \
  report(#f, "forward d0", a, b, __enzyme_fwddiff((void *)f, _p, _e0), g0, 1e-13); \
  v2 _t = __enzyme_fwddiff_v2((void *)f, enzyme_width, 2, _p, _e0, _e1); \
  report(#f, "batch forward d0", a, b, _t.d[0], g0, 1e-13); \
  report(#f, "batch forward d1", a, b, _t.d[1], g1, 1e-13); \
  __enzyme_autodiff_void((void *)f, enzyme_width, 2, _p, _r0, _r1); \
  report(#f, "batch reverse d0", a, b, _r0[0], g0, 1e-13); \
  report(#f, "batch reverse d1", a, b, _r1[1], g1, 1e-13); \
  if (a != 0) { \
    double _h = 1e-6, _pp[2] = {(a) + _h, b}, _pm[2] = {(a) - _h, b}; \
    report(#f, "central d0", a, b, (f(_pp) - f(_pm)) / (2 * _h), g0, 1e-6); \
  } } while (0)

static void report(const char *name, const char *what, double a, double b, double got, double expected, double tol) {
  char label[96];
  snprintf(label, sizeof label, "%s(%g, %g) %s", name, a, b, what);
  check(label, got, expected, tol);
}

int main(void) {
  const double points[][2] = {{1.5, -0.75}, {-2.0, 3.0}, {0.3, 2.5}, {-0.0, 1.25}, {0.0, -1.25}};
  for (int k = 0; k < 5; k++) {
    double a = points[k][0], b = points[k][1];
    CHECK2(neg_product, a, b, -b, -a);
    CHECK2(abs_product, a, b, sgn(a) * b, fabs(a));
    CHECK2(nabs_plus, a, b, -sgn(a), 2 * b);
    /* copysign(a, b) * a = sgn(b) * |a| * a: d/da = sgn(b) * 2|a|, d/db = 0 */
    CHECK2(copysign_bits, a, b, sgn(b) * 2 * fabs(a), 0.0);
  }

  CHECK_SCALAR("fabs_value", fabs_value, -1.5, 3.0);
  CHECK_SCALAR("fabs_value", fabs_value, 0.75, 1.5);
  CHECK_SCALAR("copysign_of_x", copysign_of_x, 1.25, -2.5);
  CHECK_SCALAR("copysign_of_x", copysign_of_x, -0.5, 1.0);

  float wf[1] = {1.5f}, dwf[1] = {1.0f};
  check("weighted_square forward dw", __enzyme_fwddiff((void *)weighted_square, wf, dwf, enzyme_const, 2.0),
        2 * 1.5 * 2.0 * 3, 1e-6);
  dwf[0] = 0.0f;
  check("weighted_square forward dx", __enzyme_fwddiff((void *)weighted_square, wf, dwf, 2.0, 1.0),
        1.5 * 1.5 * 3 + 1, 1e-6);

  /* Split mode: the forward sweep keeps the sign of p[0] for the reverse sweep, which runs after p changed. */
  double ps[2] = {-0.5, 4.0}, dps[2] = {0, 0};
  aug_t aug = __enzyme_augmentfwd((void *)abs_product, enzyme_dup, ps, dps);
  check("abs_product split primal", aug.primal, 2.0, 0);
  ps[0] = 7.0;
  ps[1] = -7.0;
  __enzyme_reverse((void *)abs_product, enzyme_dup, ps, dps, 1.0, aug.tape);
  check("abs_product split d0", dps[0], -4.0, 1e-13);
  check("abs_product split d1", dps[1], 0.5, 1e-13);

  enum { N = 4 };
  double x[N] = {0.5, -1.5, 2.0, -0.25}, dx[N] = {0};
  __enzyme_autodiff((void *)union_sum, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    double expected = (i + 1 < N ? fabs(x[i + 1]) : 0) + (i > 0 ? x[i - 1] * sgn(x[i]) : 0);
    char what[64];
    snprintf(what, sizeof what, "union_sum reverse d%d", i);
    check(what, dx[i], expected, 1e-13);
    double t[N] = {0};
    t[i] = 1;
    snprintf(what, sizeof what, "union_sum forward d%d", i);
    check(what, __enzyme_fwddiff((void *)union_sum, x, t, enzyme_const, N), expected, 1e-13);
    double v;
    snprintf(what, sizeof what, "union_sum central d%d", i);
    check(what, CENTRAL(union_sum(x, N), x[i], v = x[i]), expected, 1e-6);
  }

  float pf[2] = {1.25f, -3.0f}, dpf[2] = {0, 0}, ef[2] = {1, 0};
  __enzyme_autodiff((void *)neg_float, pf, dpf);
  check("neg_float reverse d0", dpf[0], 3.0, 1e-6);
  check("neg_float reverse d1", dpf[1], -1.25, 1e-6);
  check("neg_float forward d0", __enzyme_fwddiff_f((void *)neg_float, pf, ef), 3.0, 1e-6);

  double out[N], dout[N], dxs[N] = {0}, tx[N] = {1, -1, 0.5, 2}, tout[N];
  for (int i = 0; i < N; i++) dout[i] = i + 1.0;
  __enzyme_autodiff((void *)neg_squares, x, dxs, out, dout, enzyme_const, N);
  __enzyme_fwddiff((void *)neg_squares, x, tx, out, tout, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    char what[64];
    snprintf(what, sizeof what, "neg_squares reverse d%d", i);
    check(what, dxs[i], -2 * x[i] * (i + 1.0), 1e-13);
    snprintf(what, sizeof what, "neg_squares forward out%d", i);
    check(what, tout[i], -2 * x[i] * tx[i], 1e-13);
    snprintf(what, sizeof what, "neg_squares value %d", i);
    check(what, out[i], -x[i] * x[i], 0);
  }

  double dc[N] = {0};
  __enzyme_autodiff((void *)copy_as_integers, x, dc, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    char what[64];
    snprintf(what, sizeof what, "copy_as_integers reverse d%d", i);
    check(what, dc[i], 2 * x[i], 1e-13);
    double t[N] = {0};
    t[i] = 1;
    snprintf(what, sizeof what, "copy_as_integers forward d%d", i);
    check(what, __enzyme_fwddiff((void *)copy_as_integers, x, t, enzyme_const, N), 2 * x[i], 1e-13);
  }
  return finish();
}

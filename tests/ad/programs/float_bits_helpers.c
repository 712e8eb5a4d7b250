#include "check.h"
#include <stdint.h>
#include <string.h>
/* Sign-bit operations on float bits inside noinline helpers that take and return the bits as integers, the
   sign coming from another double: copysign as (a & ~SIGN) | (b & SIGN) and a sign flip as a ^ (b & SIGN).
   The helper's result is an `or`/`xor` of two non-constant integers; type analysis must see that it holds
   the magnitude source's float bits (it used to leave it untyped, and both modes then returned 0).
   Found by the random tester (tests/ad/random, kind bits_helpers). */
extern int enzyme_width;
typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);
void __enzyme_autodiff_void(void *, ...);

#define SIGN 0x8000000000000000ull
static uint64_t bits_of(double x) { uint64_t u; memcpy(&u, &x, sizeof u); return u; }
static double double_of(uint64_t u) { double x; memcpy(&x, &u, sizeof x); return x; }

__attribute__((noinline)) static uint64_t with_sign_of(uint64_t magnitude, double s) {
  return (magnitude & ~SIGN) | (bits_of(s) & SIGN);
}
__attribute__((noinline)) static uint64_t times_sign_of(uint64_t u, double s) { return u ^ (bits_of(s) & SIGN); }

/* copysign(p[0], p[1]) * 3 + p[1] * sign(p[0] * p[1]) * p[0] (the second sign from an active product). */
double signs(const double *p) {
  double a = double_of(with_sign_of(bits_of(p[0]), p[1]));
  double b = double_of(times_sign_of(bits_of(p[1] * p[0]), p[0] * p[1]));
  return 3 * a + b;
}

static double sgn(double x) { return signbit(x) ? -1.0 : 1.0; }

int main(void) {
  const double points[][2] = {{1.5, -0.75}, {-2.0, 3.0}, {-0.5, -1.25}, {0.75, 2.0}, {-0.0, 1.5}};
  for (int k = 0; k < 5; k++) {
    double a = points[k][0], b = points[k][1];
    /* b-term: (a*b) * sign(a*b) = |a*b|: d/da = sign(ab) * b, d/db = sign(ab) * a (sign bit of the product). */
    double s = sgn(a * b), g0 = 3 * sgn(b) * sgn(a) + s * b, g1 = s * a;
    double p[2] = {a, b}, dp[2] = {0, 0}, e0[2] = {1, 0}, e1[2] = {0, 1}, r0[2] = {0, 0}, r1[2] = {0, 0};
    char what[80];
    __enzyme_autodiff((void *)signs, p, dp);
    snprintf(what, sizeof what, "signs(%g, %g) reverse d0", a, b);
    check(what, dp[0], g0, 1e-13);
    snprintf(what, sizeof what, "signs(%g, %g) reverse d1", a, b);
    check(what, dp[1], g1, 1e-13);
    snprintf(what, sizeof what, "signs(%g, %g) forward d0", a, b);
    check(what, __enzyme_fwddiff((void *)signs, p, e0), g0, 1e-13);
    snprintf(what, sizeof what, "signs(%g, %g) forward d1", a, b);
    check(what, __enzyme_fwddiff((void *)signs, p, e1), g1, 1e-13);
    v2 t = __enzyme_fwddiff_v2((void *)signs, enzyme_width, 2, p, e0, e1);
    snprintf(what, sizeof what, "signs(%g, %g) batch forward", a, b);
    check(what, t.d[0] + 10 * t.d[1], g0 + 10 * g1, 1e-13);
    __enzyme_autodiff_void((void *)signs, enzyme_width, 2, p, r0, r1);
    snprintf(what, sizeof what, "signs(%g, %g) batch reverse", a, b);
    check(what, r0[0] + 10 * r1[1], g0 + 10 * g1, 1e-13);
    if (a != 0) {
      double h = 1e-6, pp[2] = {a + h, b}, pm[2] = {a - h, b};
      snprintf(what, sizeof what, "signs(%g, %g) central d0", a, b);
      check(what, (signs(pp) - signs(pm)) / (2 * h), g0, 1e-6);
    }
  }
  return finish();
}

#include "check.h"
/* Derivatives at non-differentiable points follow fixed conventions (docs/nonsmooth.md), the same in forward,
   reverse, batch and nested modes:
   - d|x| = copysign(1, x): -1 at -0.0, +1 at +0.0, so the second derivative of |-x*x| at 0 is +2;
   - fmax/maxnum/maximum ties go to the first operand, fmin/minnum/minimum ties to the second;
   - copysign(x, y): d/dx = sign bit of x times sign bit of y;
   - a select (a > b ? a : b, clamps) follows the operand the program selects;
   - an operand that fmax/fmin (or a select) does not pick gets exactly zero, even when its own derivative is
     infinite or NaN (a zero-vector norm under fmax(|v|, eps)).
   At every kink the value must also be one of the one-sided difference quotients. */
extern int enzyme_width;
typedef struct { double d[2]; } v2;
typedef struct { double d[3]; } v3;
v2 __enzyme_fwddiff_v2(void *, ...);
v2 __enzyme_autodiff_v2(void *, ...);
void __enzyme_fwddiff_void(void *, ...);
void __enzyme_autodiff_void(void *, ...);

/* Both one-sided difference quotients of f at x0 (exact for the piecewise-linear and quadratic pieces here). */
#define ONE_SIDED(fexpr, var, x0, lo, hi) do { double _x0 = (x0), _h = 1e-7, _s = var; var = _x0; double _f0 = (fexpr); \
  var = _x0 + _h; hi = ((fexpr) - _f0) / _h; var = _x0 - _h; lo = (_f0 - (fexpr)) / _h; var = _s; } while (0)

static void check_one_sided(const char *what, double got, double lo, double hi) {
  int ok = fabs(got - lo) <= 1e-6 * (1 + fabs(lo)) || fabs(got - hi) <= 1e-6 * (1 + fabs(hi));
  if (!ok) {
    printf("MISMATCH %s: %.15g is neither one-sided derivative (%.15g, %.15g)\n", what, got, lo, hi);
    failures++;
  } else {
    printf("ok %s: %.15g\n", what, got);
  }
}

/* Exact convention in both modes, and one of the one-sided differences. */
#define CHECK_KINK(name, f, x0, expected) do { double _x = (x0), _v = 0, _lo, _hi; \
  check(name " reverse", __enzyme_autodiff((void *)f, _x), expected, 0); \
  check(name " forward", __enzyme_fwddiff((void *)f, _x, 1.0), expected, 0); \
  ONE_SIDED(f(_v), _v, _x, _lo, _hi); check_one_sided(name " one-sided", expected, _lo, _hi); } while (0)

double absolute(double x) { return fabs(x); }
double abs_neg_square(double x) { return fabs(-x * x); }
double d_abs_neg_square_fwd(double x) { return __enzyme_fwddiff((void *)abs_neg_square, x, 1.0); }
double d_abs_neg_square_rev(double x) { return __enzyme_autodiff((void *)abs_neg_square, x); }

double relu(double x) { return fmax(x, 0.0); }
double relu_ternary(double x) { return x > 0.0 ? x : 0.0; }
double max_square_line(double x) { return fmax(x * x, 2.0 * x); }  /* tie at x = 2: the first operand wins */
double min_square_line(double x) { return fmin(x * x, 2.0 * x); }  /* tie at x = 2: the second operand wins */
double d_max_square_line_rev(double x) { return __enzyme_autodiff((void *)max_square_line, x); }
double d_max_square_line_fwd(double x) { return __enzyme_fwddiff((void *)max_square_line, x, 1.0); }
double max_self(double x) { return fmax(x, x) + fmin(3.0 * x, 3.0 * x); }
double max2(double x, double y) { return fmax(x, y); }
double min2(double x, double y) { return fmin(x, y); }
double maximum2(double x, double y) { return __builtin_elementwise_maximum(x, y); }    /* llvm.maximum */
double minimum2(double x, double y) { return __builtin_elementwise_minimum(x, y); }    /* llvm.minimum */
double maximumnum2(double x, double y) { return __builtin_fmaximum_num(x, y); }        /* llvm.maximumnum */
double minimumnum2(double x, double y) { return __builtin_fminimum_num(x, y); }        /* llvm.minimumnum */
double ternary_gt(double x, double y) { return x > y ? x : y; }
double ternary_ge(double x, double y) { return x >= y ? x : y; }
double sign_of(double x, double y) { return copysign(x, y); }
double magnitude_sign(double x) { return copysign(2.0 * x, -1.0); }
double clamp_fminmax(double x) { return fmin(fmax(x, -1.0), 1.0); }
double clamp_ternary(double x) { return x < -1.0 ? -1.0 : (x > 1.0 ? 1.0 : x); }
double abs_ternary(double x) { return x < 0.0 ? -x : x; }

/* A unit vector that stays finite at v = 0: the norm's derivative there is 0/0, but fmax does not pick it. */
void normalize(const double *v, double *out) {
  double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  double s = fmax(n, 1e-12);
  for (int i = 0; i < 3; i++) out[i] = v[i] / s;
}
double normalized_x(const double *v) { double o[3]; normalize(v, o); return o[0]; }

/* Both partials of f(x, y) in reverse, forward and batch forward mode, and against one-sided differences. */
#define CHECK_PAIR(what, f, x0, y0, dx, dy) do { double _x = (x0), _y = (y0), _v, _lo, _hi; \
  v2 _r = __enzyme_autodiff_v2((void *)f, _x, _y); \
  check(what " reverse d/dx", _r.d[0], dx, 0); \
  check(what " reverse d/dy", _r.d[1], dy, 0); \
  check(what " forward d/dx", __enzyme_fwddiff((void *)f, _x, 1.0, _y, 0.0), dx, 0); \
  check(what " forward d/dy", __enzyme_fwddiff((void *)f, _x, 0.0, _y, 1.0), dy, 0); \
  v2 _b = __enzyme_fwddiff_v2((void *)f, enzyme_width, 2, _x, 1.0, 0.0, _y, 0.0, 1.0); \
  check(what " batch forward d/dx", _b.d[0], dx, 0); \
  check(what " batch forward d/dy", _b.d[1], dy, 0); \
  ONE_SIDED(f(_v, _y), _v, _x, _lo, _hi); check_one_sided(what " d/dx one-sided", dx, _lo, _hi); \
  ONE_SIDED(f(_x, _v), _v, _y, _lo, _hi); check_one_sided(what " d/dy one-sided", dy, _lo, _hi); } while (0)

int main(void) {
  /* |x| at signed zeros follows the sign bit. */
  CHECK_KINK("fabs at +0", absolute, 0.0, 1.0);
  CHECK_KINK("fabs at -0", absolute, -0.0, -1.0);
  CHECK_KINK("fabs at -2", absolute, -2.0, -1.0);
  CHECK_KINK("abs ternary at 0", abs_ternary, 0.0, 1.0);

  /* Second derivative of |-x*x| = x^2 is 2 everywhere, 0 included (-x*x is -0.0 there), in all four nestings. */
  double pts[3] = {0.0, 0.3, -0.7}, v, h = 1e-4;
  for (int k = 0; k < 3; k++) {
    double x = pts[k];
    check("|-x*x|'' forward over forward", __enzyme_fwddiff((void *)d_abs_neg_square_fwd, x, 1.0), 2.0, 0);
    check("|-x*x|'' reverse over forward", __enzyme_autodiff((void *)d_abs_neg_square_fwd, x), 2.0, 0);
    check("|-x*x|'' forward over reverse", __enzyme_fwddiff((void *)d_abs_neg_square_rev, x, 1.0), 2.0, 0);
    check("|-x*x|'' reverse over reverse", __enzyme_autodiff((void *)d_abs_neg_square_rev, x), 2.0, 0);
    check("|-x*x|' forward", d_abs_neg_square_fwd(x), 2 * x, 0);
    check("|-x*x|' reverse", d_abs_neg_square_rev(x), 2 * x, 0);
    double second = (abs_neg_square(x + h) - 2 * abs_neg_square(x) + abs_neg_square(x - h)) / (h * h);
    check("|-x*x|'' second difference", second, 2.0, 1e-6);
  }

  /* fmax/fmin ties and their NaN-free unselected operand. */
  CHECK_KINK("relu fmax at 0", relu, 0.0, 1.0);
  CHECK_KINK("relu ternary at 0", relu_ternary, 0.0, 0.0);
  CHECK_KINK("fmax(x^2, 2x) at the tie", max_square_line, 2.0, 4.0);
  CHECK_KINK("fmin(x^2, 2x) at the tie", min_square_line, 2.0, 2.0);
  double at[3] = {1.0, 2.0, 3.0}, second_wants[3] = {0.0, 2.0, 2.0};  /* 2x wins below 2, x^2 at and above */
  for (int k = 0; k < 3; k++) {
    check("fmax(x^2, 2x)'' forward over reverse", __enzyme_fwddiff((void *)d_max_square_line_rev, at[k], 1.0),
          second_wants[k], 0);
    check("fmax(x^2, 2x)'' reverse over forward", __enzyme_autodiff((void *)d_max_square_line_fwd, at[k]),
          second_wants[k], 0);
  }
  CHECK_KINK("fmax(x, x) + fmin(3x, 3x)", max_self, 0.5, 4.0);
  CHECK_PAIR("fmax tie", max2, 1.5, 1.5, 1.0, 0.0);
  CHECK_PAIR("fmin tie", min2, 1.5, 1.5, 0.0, 1.0);
  CHECK_PAIR("fmax", max2, 1.5, 2.5, 0.0, 1.0);
  CHECK_PAIR("fmin", min2, 1.5, 2.5, 1.0, 0.0);
  CHECK_PAIR("maximum tie", maximum2, -0.25, -0.25, 1.0, 0.0);
  CHECK_PAIR("minimum tie", minimum2, -0.25, -0.25, 0.0, 1.0);
  CHECK_PAIR("maximumnum tie", maximumnum2, 3.0, 3.0, 1.0, 0.0);
  CHECK_PAIR("minimumnum tie", minimumnum2, 3.0, 3.0, 0.0, 1.0);
  CHECK_PAIR("a > b ? a : b tie", ternary_gt, 0.5, 0.5, 0.0, 1.0);
  CHECK_PAIR("a >= b ? a : b tie", ternary_ge, 0.5, 0.5, 1.0, 0.0);

  /* copysign: the sign bits of both operands. */
  CHECK_PAIR("copysign(+0, 1)", sign_of, 0.0, 1.0, 1.0, 0.0);
  CHECK_PAIR("copysign(-0, 1)", sign_of, -0.0, 1.0, -1.0, 0.0);
  CHECK_PAIR("copysign(+0, -0)", sign_of, 0.0, -0.0, -1.0, 0.0);
  CHECK_PAIR("copysign(-3, 2)", sign_of, -3.0, 2.0, -1.0, 0.0);
  CHECK_KINK("copysign(2x, -1) at +0", magnitude_sign, 0.0, -2.0);
  CHECK_KINK("copysign(2x, -1) at -0", magnitude_sign, -0.0, 2.0);

  /* Clamps at their bounds: fmin(fmax(x, lo), hi) and the ternary select the argument differently at hi. */
  CHECK_KINK("fmin/fmax clamp at lo", clamp_fminmax, -1.0, 1.0);
  CHECK_KINK("fmin/fmax clamp at hi", clamp_fminmax, 1.0, 0.0);
  CHECK_KINK("fmin/fmax clamp inside", clamp_fminmax, 0.25, 1.0);
  CHECK_KINK("fmin/fmax clamp outside", clamp_fminmax, 3.0, 0.0);
  CHECK_KINK("ternary clamp at lo", clamp_ternary, -1.0, 1.0);
  CHECK_KINK("ternary clamp at hi", clamp_ternary, 1.0, 1.0);
  CHECK_KINK("ternary clamp outside", clamp_ternary, -3.0, 0.0);

  /* normalize at v = 0: the Jacobian is I / 1e-12, in forward, reverse and batch modes. */
  const double inv = 1.0 / 1e-12;  /* d(v/s)/dv with s = 1e-12 */
  double zero[3] = {0, 0, 0}, out[3], E[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int i = 0; i < 3; i++) {
    double col[3], row[3] = {0, 0, 0}, seed[3] = {0, 0, 0};
    __enzyme_fwddiff_void((void *)normalize, zero, E[i], out, col);
    seed[i] = 1.0;
    __enzyme_autodiff_void((void *)normalize, zero, row, out, seed);
    for (int k = 0; k < 3; k++) {
      check("normalize(0) forward", col[k], k == i ? inv : 0.0, 1e-15);
      check("normalize(0) reverse", row[k], k == i ? inv : 0.0, 1e-15);
    }
  }
  double cols[3][3], rows[3][3] = {{0}}, seeds[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  __enzyme_fwddiff_void((void *)normalize, enzyme_width, 3, zero, E[0], E[1], E[2], out, cols[0], cols[1], cols[2]);
  __enzyme_autodiff_void((void *)normalize, enzyme_width, 3, zero, rows[0], rows[1], rows[2],
                         out, seeds[0], seeds[1], seeds[2]);
  for (int i = 0; i < 3; i++)
    for (int k = 0; k < 3; k++) {
      check("normalize(0) batch forward", cols[i][k], k == i ? inv : 0.0, 1e-15);
      check("normalize(0) batch reverse", rows[i][k], k == i ? inv : 0.0, 1e-15);
    }
  double gx[3] = {0, 0, 0};
  __enzyme_autodiff((void *)normalized_x, zero, gx);
  check("d normalized_x(0)/dx0", gx[0], inv, 1e-15);
  check("d normalized_x(0)/dx1", gx[1], 0.0, 0);
  double tiny[3] = {0, 0, 0};
  tiny[0] = 1e-20;
  check("normalized_x one-sided at 0", (normalized_x(tiny) - normalized_x(zero)) / 1e-20, inv, 1e-10);
  /* Away from 0 the usual derivative: d(v0/|v|)/dv = (e0 - v0 v/|v|^2)/|v|. */
  double w[3] = {0.3, -0.4, 1.2}, gw[3] = {0, 0, 0}, nw = 1.3;
  __enzyme_autodiff((void *)normalized_x, w, gw);
  for (int k = 0; k < 3; k++) check("d normalized_x/dv", gw[k], ((k == 0) - w[0] * w[k] / (nw * nw)) / nw, 1e-14);
  check("d normalized_x/dv0 central", CENTRAL(normalized_x(w), w[0], w[0]), gw[0], 1e-7);
  (void)v;
  return finish();
}

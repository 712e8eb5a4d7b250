#include "check.h"
#include <stdbool.h>
/* bool, char, short and float arguments passed through __enzyme_autodiff's "..." arrive promoted (int,
   double); they are converted back to the parameter types, as a direct call would convert them.  A float
   derivative comes back as a float, widened (exactly) where the entry point is declared to return double.
   Forward tangents of float arguments are promoted too.  Checked against analytic derivatives, central
   differences and the other mode, in forward, reverse, batch and split mode. */
extern int enzyme_width;
typedef struct { float d[2]; } f2;     /* two float results: one <2 x float> register */
typedef struct { float dx, dy; } fxy;
typedef struct { void *tape; float primal; } aug_f;
f2 __enzyme_fwddiff_f2(void *, ...);
f2 __enzyme_autodiff_f2(void *, ...);
fxy __enzyme_autodiff_fxy(void *, ...);
float __enzyme_autodiff_f(void *, ...);
aug_f __enzyme_augmentfwd(void *, ...);
float __enzyme_reverse(void *, ...);

/* A model with switches and small integer parameters, the way a scientist writes one. */
float response(float x, bool inverted, signed char order, short offset, unsigned char gain) {
  float s = inverted ? -1.0f : 1.0f;
  return s * order * x * x + offset * sinf(x) + gain * 0.01f * x;
}
static double d_response(double x, bool inverted, int order, int offset, int gain) {
  return (inverted ? -1.0 : 1.0) * order * 2 * x + offset * cos(x) + gain * 0.01;
}

/* Two float inputs, a bool flag between them. */
float blend(float x, bool use_y, float y) { return use_y ? x * y + y * y : x * x * x; }

double sum_if(const double *v, bool skip_first, short n) {
  double s = 0;
  for (short i = skip_first; i < n; i++) s += v[i] * v[i];
  return s;
}

int main(void) {
  const float x = 0.75f;
  const double xd = x;
  bool flags[2] = {false, true};
  for (int k = 0; k < 2; k++) {
    bool inv = flags[k];
    signed char order = -3;
    short offset = -1234;
    unsigned char gain = 200;
    double want = d_response(xd, inv, order, offset, gain), v;
    check("response reverse (declared double)", __enzyme_autodiff((void *)response, x, inv, order, offset, gain),
          want, 1e-5);
    check("response reverse (declared float)", __enzyme_autodiff_f((void *)response, x, inv, order, offset, gain),
          want, 1e-5);
    check("response forward", __enzyme_fwddiff((void *)response, x, 1.0f, inv, order, offset, gain), want, 1e-5);
    check("response forward, tangent 2", __enzyme_fwddiff((void *)response, enzyme_dup, x, 2.0f, inv, order,
                                                          offset, gain), 2 * want, 1e-5);
    check("response central", CENTRAL_H(response((float)v, inv, order, offset, gain), v, xd, 1e-3), want, 1e-3);
    check("response with const x", __enzyme_fwddiff((void *)response, enzyme_const, x, inv, order, offset, gain),
          0.0, 0);

    /* Batch forward: two tangents of x, each promoted. */
    f2 b = __enzyme_fwddiff_f2((void *)response, enzyme_width, 2, x, 1.0f, -0.5f, inv, order, offset, gain);
    check("response batch forward 0", b.d[0], want, 1e-5);
    check("response batch forward 1", b.d[1], -0.5 * want, 1e-5);
    /* Batch reverse: the active float argument comes back once per direction. */
    f2 r = __enzyme_autodiff_f2((void *)response, enzyme_width, 2, x, inv, order, offset, gain);
    check("response batch reverse 0", r.d[0], want, 1e-5);
    check("response batch reverse 1", r.d[1], want, 1e-5);

    /* Split mode: the float dret is promoted too. */
    aug_f a = __enzyme_augmentfwd((void *)response, x, inv, order, offset, gain);
    check("response augmented primal", a.primal, response(x, inv, order, offset, gain), 1e-6);
    check("response split reverse, dret 3", __enzyme_reverse((void *)response, x, inv, order, offset, gain, 3.0f,
                                                             a.tape), 3 * want, 1e-5);
  }

  /* An int where the parameter is bool converts as in a direct call: 2 is true (not truncated to 0). */
  check("int 2 for a bool parameter", __enzyme_autodiff((void *)response, x, 2, (signed char)1, (short)0,
                                                         (unsigned char)0), d_response(xd, true, 1, 0, 0), 1e-6);
  check("int 257 for a char parameter (257 mod 256)", __enzyme_fwddiff((void *)response, x, 1.0f, 0, 257, (short)0,
                                                          (unsigned char)0), d_response(xd, false, 1, 0, 0), 1e-6);

  /* Two active floats around a bool: both partials in one reverse call, forward per direction. */
  const float y = -1.25f;
  for (int k = 0; k < 2; k++) {
    bool use_y = flags[k];
    double dx = use_y ? (double)y : 3.0 * xd * xd, dy = use_y ? xd + 2.0 * y : 0.0, v;
    fxy g = __enzyme_autodiff_fxy((void *)blend, x, use_y, y);
    check("blend reverse dx", g.dx, dx, 1e-6);
    check("blend reverse dy", g.dy, dy, 1e-6);
    check("blend forward dx", __enzyme_fwddiff((void *)blend, x, 1.0f, use_y, y, 0.0f), dx, 1e-6);
    check("blend forward dy", __enzyme_fwddiff((void *)blend, x, 0.0f, use_y, y, 1.0f), dy, 1e-6);
    f2 bb = __enzyme_fwddiff_f2((void *)blend, enzyme_width, 2, x, 1.0f, 0.0f, use_y, y, 0.0f, 1.0f);
    check("blend batch forward dx", bb.d[0], dx, 1e-6);
    check("blend batch forward dy", bb.d[1], dy, 1e-6);
    check("blend dx central", CENTRAL_H(blend((float)v, use_y, y), v, xd, 1e-3), dx, 1e-3);
  }

  /* bool and short steering a loop over doubles: the gradient skips v[0] when asked. */
  double vs[4] = {0.5, -1.5, 2.0, 3.0};
  for (int k = 0; k < 2; k++) {
    bool skip = flags[k];
    double g[4] = {0, 0, 0, 0}, t[4] = {1, 1, 1, 1};
    __enzyme_autodiff((void *)sum_if, vs, g, skip, (short)3);
    for (int i = 0; i < 4; i++) check("sum_if gradient", g[i], (i < skip || i >= 3) ? 0.0 : 2 * vs[i], 0);
    check("sum_if forward", __enzyme_fwddiff((void *)sum_if, vs, t, skip, (short)3),
          (skip ? 0.0 : 1.0) - 3.0 + 4.0, 1e-15);
  }
  return finish();
}

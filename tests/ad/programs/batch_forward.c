#include "check.h"
/* Batch forward mode: enzyme_width W carries W tangent directions in one call.  Each dup argument is followed
   by W shadows (or enzyme_dupv, stride, x, dx with direction j at byte j*stride); the tangents of the result
   come back as W values.  Checked against analytic gradients, width 1 and central differences. */
extern int enzyme_width, enzyme_dupv;
typedef struct { double d[3]; } v3;   /* returned through memory (sret) */
typedef struct { double d[2]; } v2;   /* returned in registers as { double, double } */
typedef struct { float d[2]; } f2;    /* returned in one register as <2 x float> */
v3 __enzyme_fwddiff_v3(void *, ...);
v2 __enzyme_fwddiff_v2(void *, ...);
f2 __enzyme_fwddiff_f2(void *, int, int, float, float, float, float, float, float);  /* floats: no promotion */
void __enzyme_fwddiff_void(void *, ...);

double f3(double x, double y, double z) { return x * y * sin(z) + exp(x * z) / (1 + y * y); }

__attribute__((noinline)) double weighted(const double *x, const double *w, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += w[i] * x[i] * x[i];
  return s;
}
/* out[i] = x[i] * s where s = weighted(x, w); returns sum(out) + cbrt(s); uses heap scratch memory. */
double g(const double *x, const double *w, double *out, int n) {
  double *tmp = malloc(n * sizeof(double));
  double s = weighted(x, w, n), r = 0;
  for (int i = 0; i < n; i++) tmp[i] = x[i] * s;
  for (int i = 0; i < n; i++) { out[i] = tmp[i]; r += tmp[i]; }
  free(tmp);
  return r + cbrt(s);
}

__attribute__((noinline)) double cube(double x) { return x * x * x; }
static double cube_fwd(double x, double dx) { return 3 * x * x * dx; }
void *__enzyme_register_derivative_cube[2] = {(void *)cube, (void *)cube_fwd};
double uses_rule(double x, double y) { return cube(x * y) + x; }

float ff(float a, float b) { return a * b + sinf(a); }

void scale_inplace(double *x, double c, int n) { for (int i = 0; i < n; i++) x[i] = x[i] * x[i] * c; }

enum { N = 3 };

int main(void) {
  double x = 0.7, y = -1.3, z = 0.4, v;
  v3 grad = __enzyme_fwddiff_v3((void *)f3, enzyme_width, 3, x, 1.0, 0.0, 0.0, y, 0.0, 1.0, 0.0, z, 0.0, 0.0, 1.0);
  double q = 1 + y * y, e = exp(x * z);
  double gx = y * sin(z) + z * e / q, gy = x * sin(z) - e * 2 * y / (q * q), gz = x * y * cos(z) + x * e / q;
  check("f3 dx", grad.d[0], gx, 1e-13);
  check("f3 dy", grad.d[1], gy, 1e-13);
  check("f3 dz", grad.d[2], gz, 1e-13);
  check("f3 dy width 1", __enzyme_fwddiff((void *)f3, x, 0.0, y, 1.0, z, 0.0), gy, 1e-13);
  check("f3 dz central", CENTRAL(f3(x, y, v), v, z), gz, 1e-6);

  /* Width 2 with pointer arguments: two directions through a call, a loop, heap memory and libm. */
  double xs[N] = {0.5, -1.1, 0.9}, w[N] = {1.0, 2.0, 0.5}, out[N];
  double d1[N] = {1, 0, 0.5}, d2[N] = {0, 1, -1}, o1[N], o2[N], r1, r2;
  v2 t = __enzyme_fwddiff_v2((void *)g, enzyme_width, 2, xs, d1, d2, enzyme_const, w, out, o1, o2, enzyme_const, N);
  double e1[N], e2[N], oa[N], ob[N];
  r1 = __enzyme_fwddiff((void *)g, xs, d1, enzyme_const, w, out, oa, enzyme_const, N);
  r2 = __enzyme_fwddiff((void *)g, xs, d2, enzyme_const, w, out, ob, enzyme_const, N);
  check("g direction 1 vs width 1", t.d[0], r1, 1e-13);
  check("g direction 2 vs width 1", t.d[1], r2, 1e-13);
  for (int i = 0; i < N; i++) {
    check("g out tangent 1", o1[i], oa[i], 1e-13);
    check("g out tangent 2", o2[i], ob[i], 1e-13);
  }
  double s = 0, ds1 = 0, sumx = 0, dsum1 = 0;
  for (int i = 0; i < N; i++) { s += w[i] * xs[i] * xs[i]; ds1 += 2 * w[i] * xs[i] * d1[i]; sumx += xs[i]; dsum1 += d1[i]; }
  check("g direction 1 analytic", t.d[0], dsum1 * s + sumx * ds1 + ds1 / (3 * cbrt(s) * cbrt(s)), 1e-12);
  for (int i = 0; i < N; i++) { e1[i] = xs[i]; e2[i] = d2[i]; }
  #define G_ALONG(h) ({ double _p[N]; for (int _i = 0; _i < N; _i++) _p[_i] = e1[_i] + (h) * e2[_i]; g(_p, w, out, N); })
  check("g direction 2 central", t.d[1], CENTRAL(G_ALONG(v), v, 0.0), 1e-6);

  /* enzyme_dupv: one shadow buffer, direction j at byte offset j * stride. */
  double dirs[2][N] = {{1, 0, 0.5}, {0, 1, -1}}, outs[2][N];
  v2 tv = __enzyme_fwddiff_v2((void *)g, enzyme_width, 2, enzyme_dupv, sizeof dirs[0], xs, dirs,
                              enzyme_const, w, enzyme_dupv, sizeof outs[0], out, outs, enzyme_const, N);
  check("g dupv direction 1", tv.d[0], r1, 1e-13);
  check("g dupv direction 2", tv.d[1], r2, 1e-13);
  for (int i = 0; i < N; i++) check("g dupv out tangent 2", outs[1][i], ob[i], 1e-13);

  /* A registered forward derivative inside a batch: the rule runs once per direction. */
  v2 tr = __enzyme_fwddiff_v2((void *)uses_rule, enzyme_width, 2, x, 1.0, 0.0, y, 0.0, 1.0);
  check("rule dx", tr.d[0], 3 * x * x * y * y * y + 1, 1e-13);
  check("rule dy", tr.d[1], 3 * x * x * x * y * y, 1e-13);

  float a = 0.3f, b = 1.7f;
  f2 tf = __enzyme_fwddiff_f2((void *)ff, enzyme_width, 2, a, 1.0f, 0.0f, b, 0.0f, 1.0f);
  check("float da", tf.d[0], b + cos(a), 1e-6);
  check("float db", tf.d[1], a, 1e-6);

  /* A void function overwriting its input: each direction sees the inputs before the update. */
  double u[N] = {1.5, -0.5, 2.0}, u0[N], du1[N] = {1, 1, 1}, du2[N] = {0, 2, 0};
  for (int i = 0; i < N; i++) u0[i] = u[i];
  __enzyme_fwddiff_void((void *)scale_inplace, enzyme_width, 2, u, du1, du2, 0.5, 0.0, 0.0, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    check("inplace primal", u[i], u0[i] * u0[i] * 0.5, 1e-15);
    check("inplace tangent 1", du1[i], u0[i] * 1.0, 1e-14);
    check("inplace tangent 2", du2[i], u0[i] * (i == 1 ? 2.0 : 0.0), 1e-14);
  }
  return finish();
}

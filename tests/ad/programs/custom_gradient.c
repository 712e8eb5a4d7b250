#include "check.h"
/* Custom gradients in reverse mode (__enzyme_register_gradient_*): the augmented rule runs instead of the function,
   its tape goes to the reverse rule, which returns the float arguments' adjoints and adds into pointer shadows.
   Counters prove the rules ran; forward mode differentiates the bodies (in custom_gradient_helper.c) as the
   independent oracle. __enzyme_inactivefn_* makes a function carry no derivative. */
double weighted_sum(double x, const double *v, int n);
void scale_into(double a, const double *in, double *out, int n);
double noisy_constant(double x);

static int aug_calls = 0, rev_calls = 0;
typedef struct { double value; void *tape; } aug_result;

/* weighted_sum(x, v) = x * sum(v): dx = sum(v) (from the tape), dv_i += x * dret. */
aug_result weighted_sum_aug(double x, const double *v, double *dv, int n) {
  aug_calls++;
  double *tape = malloc(sizeof(double));
  double s = 0;
  for (int i = 0; i < n; i++) s += v[i];
  *tape = s;
  return (aug_result){x * s, tape};
}
double weighted_sum_rev(double x, const double *v, double *dv, int n, double dret, void *tape) {
  rev_calls++;
  double s = *(double *)tape;
  free(tape);
  for (int i = 0; i < n; i++) dv[i] += x * dret;
  return s * dret;
}
void *__enzyme_register_gradient_weighted_sum[3] = {(void *)weighted_sum, (void *)weighted_sum_aug,
                                                    (void *)weighted_sum_rev};

/* scale_into: out = a * in; the reverse consumes dout (out was overwritten). */
void *scale_into_aug(double a, const double *in, double *din, double *out, double *dout, int n) {
  aug_calls++;
  scale_into(a, in, out, n);
  return NULL;
}
double scale_into_rev(double a, const double *in, double *din, double *out, double *dout, int n, void *tape) {
  rev_calls++;
  double da = 0;
  for (int i = 0; i < n; i++) { din[i] += a * dout[i]; da += in[i] * dout[i]; dout[i] = 0; }
  return da;
}
void *__enzyme_register_gradient_scale_into[3] = {(void *)scale_into, (void *)scale_into_aug, (void *)scale_into_rev};

void *__enzyme_inactivefn_noisy = (void *)noisy_constant;

enum { N = 4 };
double g(double x, double *v) {
  double t = 0;
  for (int k = 0; k < 3; k++) t += sin(weighted_sum(x * x + k, v, N));
  return t + x;
}
double h(double a, double *v) {
  double out[N];
  scale_into(a * a, v, out, N);
  double s = 0;
  for (int i = 0; i < N; i++) s += out[i] * out[i];
  return s;
}
double with_inactive(double x) { return x * noisy_constant(x); }

int main(void) {
  double x = 0.7, v[N] = {0.3, -0.2, 0.5, 0.1}, sv = 0.7;
  /* g: dg/dx = sum_k cos(w_k) sv 2x + 1, dg/dv_i = sum_k cos(w_k) (x^2 + k), w_k = (x^2+k) sv */
  double dv[N] = {0}, gx = 1, gv = 0;
  for (int k = 0; k < 3; k++) { double c = cos((x * x + k) * sv); gx += c * sv * 2 * x; gv += c * (x * x + k); }
  double dx = __enzyme_autodiff((void *)g, enzyme_out, x, enzyme_dup, v, dv);
  check("custom gradient dx analytic", dx, gx, 1e-12);
  for (int i = 0; i < N; i++) check("custom gradient dv analytic", dv[i], gv, 1e-12);
  double ones[N] = {1, 1, 1, 1};
  check("custom gradient vs forward (body)", __enzyme_fwddiff((void *)g, x, 1.0, v, ones), dx + dot(dv, ones, N), 1e-12);
  check("custom rules ran (aug)", aug_calls, 3, 0);
  check("custom rules ran (rev)", rev_calls, 3, 0);

  /* h = a^4 sum v_i^2: dh/da = 4 a^3 sum v^2, dh/dv_i = 2 a^4 v_i */
  double a = 1.3, dh[N] = {0}, s2 = dot(v, v, N);
  double da = __enzyme_autodiff((void *)h, enzyme_out, a, enzyme_dup, v, dh);
  check("void custom gradient da", da, 4 * a * a * a * s2, 1e-12);
  for (int i = 0; i < N; i++) check("void custom gradient dv", dh[i], 2 * pow(a, 4) * v[i], 1e-12);
  check("void custom rules ran", rev_calls, 4, 0);

  /* inactive: d/dx [x * noisy(x)] = noisy(x) (the call is a constant) */
  check("inactive function", __enzyme_autodiff((void *)with_inactive, x), 2.0 * x, 1e-12);
  return finish();
}

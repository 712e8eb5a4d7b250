#include "check.h"
/* Globals and Enzyme annotations: model parameters in a global whose shadow is another global
   (enzyme_shadow: reverse mode accumulates d loss / d params there, forward mode reads tangents from it;
   one shadow per direction in batch mode), and monitoring globals declared inactive (enzyme_inactive, and
   upstream's __enzyme_inactive_global table): stores of active values into them drop the derivative instead
   of being refused.  Checked against the analytic gradient, in reverse, forward, split and batch mode. */
typedef struct { void *tape; double primal; } aug_t;
typedef struct { double d[2]; } v2;
extern int enzyme_width;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
v2 __enzyme_fwddiff_v2(void *, ...);
v2 __enzyme_autodiff_v2(void *, ...);

double d_params[3], d2_params[3];
double params[3] __attribute__((enzyme_shadow(d_params, d2_params))) = {1.5, -0.5, 0.25};
double last_residual __attribute__((enzyme_inactive));
double total_squared;
void *__enzyme_inactive_global_total = (void *)&total_squared;

double model(double t) { return params[0] * exp(params[1] * t) + params[2] * t; }

double residual(double t, double y) {
  double r = model(t) - y;
  last_residual = r;
  total_squared += r * r;
  return r * r;
}

static void clear_shadows(void) {
  for (int i = 0; i < 3; i++) d_params[i] = d2_params[i] = 0;
}

int main(void) {
  double t = 0.8, y = 1.1;
  double e = exp(params[1] * t), r = model(t) - y;
  double dp[3] = {2 * r * e, 2 * r * params[0] * t * e, 2 * r * t};
  double dt = 2 * r * (params[0] * params[1] * e + params[2]);

  clear_shadows();
  check("reverse dt", __enzyme_autodiff((void *)residual, t, enzyme_const, y), dt, 1e-12);
  for (int i = 0; i < 3; i++) check("reverse dparams", d_params[i], dp[i], 1e-12);
  check("monitor", last_residual, r, 1e-15);

  for (int i = 0; i < 3; i++) {
    clear_shadows();
    d_params[i] = 1;
    check("forward dparams", __enzyme_fwddiff((void *)residual, t, 0.0, enzyme_const, y), dp[i], 1e-12);
  }
  clear_shadows();
  check("forward dt", __enzyme_fwddiff((void *)residual, t, 1.0, enzyme_const, y), dt, 1e-12);

  clear_shadows();
  aug_t aug = __enzyme_augmentfwd((void *)residual, t, enzyme_const, y);
  check("split dt", __enzyme_reverse((void *)residual, t, enzyme_const, y, 1.0, aug.tape), dt, 1e-12);
  for (int i = 0; i < 3; i++) check("split dparams", d_params[i], dp[i], 1e-12);

  clear_shadows();
  d_params[0] = 1;   /* direction 0: d/d params[0]; direction 1: d/d params[2] */
  d2_params[2] = 1;
  v2 both = __enzyme_fwddiff_v2((void *)residual, enzyme_width, 2, t, 0.0, 0.0, enzyme_const, y);
  check("batch forward 0", both.d[0], dp[0], 1e-12);
  check("batch forward 1", both.d[1], dp[2], 1e-12);

  clear_shadows();   /* batch reverse: each direction accumulates into its own shadow */
  v2 dts = __enzyme_autodiff_v2((void *)residual, enzyme_width, 2, t, enzyme_const, y);
  check("batch reverse dt", dts.d[0] + dts.d[1], 2 * dt, 1e-12);
  for (int i = 0; i < 3; i++) {
    check("batch reverse dparams 0", d_params[i], dp[i], 1e-12);
    check("batch reverse dparams 1", d2_params[i], dp[i], 1e-12);
  }
  clear_shadows();
  return finish();
}

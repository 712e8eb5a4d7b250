#include "check.h"
/* Upstream Enzyme's query form of the global-shadow API, __enzyme_shadow(&g, width, lane): the shadows the
   derivatives use for globals when no context is passed, one set per width.  Reverse mode accumulates the
   parameters' adjoints there, forward mode reads tangents from there, lane by lane at width 2.  Checked
   against central differences in each parameter. */
void *__enzyme_shadow(void *, int, int);
extern int enzyme_width;
typedef struct { double d[2]; } two_t;
two_t __enzyme_fwddiff2(void *, ...) __asm__("__enzyme_fwddiff");

/* Arrhenius rate with a temperature-dependent prefactor, parameters in a COMMON-block-like struct. */
struct { double log_a; double ea; double beta; } kin = {2.0, 1.5, 0.4};

double rate(double t) { return exp(kin.log_a + kin.beta * log(t) - kin.ea / t); }

static double rate_at(double t) { return rate(t); }

int main(void) {
  double *dla = (double *)__enzyme_shadow(&kin.log_a, 1, 0);
  double *dea = (double *)__enzyme_shadow(&kin.ea, 1, 0);
  double *dbeta = (double *)__enzyme_shadow(&kin.beta, 1, 0);
  double p;
  for (int trial = 0; trial < 2; trial++) {
    double t = 1.2 + trial;
    *dla = *dea = *dbeta = 0;
    double dt = __enzyme_autodiff((void *)rate, t);
    check("dt central", dt, CENTRAL(rate(p), p, t), 1e-6);
    check("dlog_a", *dla, rate(t), 1e-13);
    check("dea central", *dea, CENTRAL(rate_at(t), kin.ea, kin.ea), 1e-6);
    check("dbeta central", *dbeta, CENTRAL(rate_at(t), kin.beta, kin.beta), 1e-6);
    /* Forward: the tangent along ea, seeded in its shadow. */
    *dla = *dbeta = 0;
    *dea = 1.0;
    check("forward dea", __enzyme_fwddiff((void *)rate, t, 0.0), CENTRAL(rate_at(t), kin.ea, kin.ea), 1e-6);
  }
  /* Width 2: its own shadows, one per lane; the width-1 ones are left alone. */
  /* (lanes are named by constants: each call site names one shadow) */
  double *dea_lane[2] = {(double *)__enzyme_shadow(&kin.ea, 2, 0), (double *)__enzyme_shadow(&kin.ea, 2, 1)};
  double *dbeta_lane[2] = {(double *)__enzyme_shadow(&kin.beta, 2, 0), (double *)__enzyme_shadow(&kin.beta, 2, 1)};
  double *dla_lane[2] = {(double *)__enzyme_shadow(&kin.log_a, 2, 0), (double *)__enzyme_shadow(&kin.log_a, 2, 1)};
  for (int j = 0; j < 2; j++) *dea_lane[j] = *dbeta_lane[j] = *dla_lane[j] = 0.0;
  *dea_lane[0] = 1.0;
  *dbeta_lane[1] = 1.0;
  double t = 2.5;
  two_t t2 = __enzyme_fwddiff2((void *)rate, enzyme_width, 2, t, 0.0, 0.0);
  check("lane 0 along ea", t2.d[0], CENTRAL(rate_at(t), kin.ea, kin.ea), 1e-6);
  check("lane 1 along beta", t2.d[1], CENTRAL(rate_at(t), kin.beta, kin.beta), 1e-6);
  check("width-1 shadow kept", *dea, 1.0, 0.0);
  return finish();
}

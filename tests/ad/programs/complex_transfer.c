#include "check.h"
#include <complex.h>
/* Frequency response of a fractional-order, time-delayed transfer function
     H(s) = k e^{-tau s} / (1 + (T s)^alpha),  s = i w,
   summed into a least-squares fit of measured gain (dB) and phase: the kind of objective a
   system-identification code differentiates with respect to (k, tau, T, alpha).  Uses cexp,
   cpow, clog, carg, cabs, csqrt (a damping term) and the single-precision forms. */
typedef struct { double dk, dtau, dT, dalpha; } Grad;

static const double W[5] = {0.1, 0.5, 1.3, 4.0, 11.0};
static const double GAIN_DB[5] = {5.9, 4.2, 0.3, -8.1, -20.5};
static const double PHASE[5] = {-0.21, -0.95, -1.9, -3.4, -6.6};

double misfit(double k, double tau, double T, double alpha) {
  double J = 0;
  for (int i = 0; i < 5; i++) {
    double complex s = I * W[i];
    double complex H = k * cexp(-tau * s) / (1.0 + cpow(T * s, alpha));
    double gain_db = 20.0 / log(10.0) * creal(clog(H));     /* log|H| through the complex log */
    double phase = carg(H) - tau * W[i] + carg(cexp(tau * s));  /* unwrapped: add back the delay */
    double eg = gain_db - GAIN_DB[i], ep = phase - PHASE[i];
    J += eg * eg + ep * ep + 1e-3 * cabs(csqrt(H) * csqrt(H));
  }
  return J;
}

/* Complex trigonometry of a damped oscillator's response: z = a + i b. */
double oscillator(double a, double b) {
  double complex z = a + b * I;
  double complex r = csin(z) * ccos(0.5 * z) + ctanh(z - 0.3) + cpow(z, 1.0 + 0.5 * I) + csinh(z) / ccosh(z);
  return creal(r) + 0.7 * cimag(r) + cabs(ctan(0.2 * z));
}

double oscillator_f(double a, double b) {  /* single precision inside, widened at the end */
  float complex z = (float)a + (float)b * I;
  float complex r = cexpf(z) * csqrtf(z + 2.0f) + clogf(z) * csinf(z) - cpowf(z, 2.5f + 0.0f * I);
  return crealf(r) - 0.5f * cimagf(r) + cargf(z) * cabsf(z) + crealf(ctanhf(ccosf(z)));
}

double oscillator_l(double a, double b) {  /* long double complex: operands passed byval on x86-64 */
  long double complex z = (long double)a + (long double)b * I;
  long double complex r = cexpl(z) * csqrtl(z) + cpowl(z, 1.5L) + clogl(z);
  return (double)(creall(r) + cimagl(r) + cargl(z) + cabsl(z));
}

typedef struct { double da, db; } Pair;
typedef struct { double d[2]; } v2;
extern int enzyme_width;
v2 __enzyme_fwddiff_v2(void *, ...);
void __enzyme_autodiff_void(void *, ...);

/* w = cpow(z, p) * clog(z) as a map R^2 -> R^2, written to out: its Jacobian by batch reverse mode. */
void complex_map(const double *ab, double *out) {
  double complex z = ab[0] + ab[1] * I;
  double complex w = cpow(z, 0.5 + 0.25 * I) * clog(z) + csqrt(z);
  out[0] = creal(w);
  out[1] = cimag(w);
}
static double map_part(double a, double b, int k) {
  double ab[2] = {a, b}, out[2];
  complex_map(ab, out);
  return out[k];
}

int main(void) {
  double k = 2.0, tau = 0.3, T = 0.8, alpha = 1.4, x;
  Grad (*rev4)(void *, double, double, double, double) = (Grad (*)(void *, double, double, double, double))__enzyme_autodiff;
  Grad g = rev4((void *)misfit, k, tau, T, alpha);
  check("dJ/dk", g.dk, CENTRAL(misfit(x, tau, T, alpha), x, k), 1e-6);
  check("dJ/dtau", g.dtau, CENTRAL(misfit(k, x, T, alpha), x, tau), 1e-6);
  check("dJ/dT", g.dT, CENTRAL(misfit(k, tau, x, alpha), x, T), 1e-6);
  check("dJ/dalpha", g.dalpha, CENTRAL(misfit(k, tau, T, x), x, alpha), 1e-6);
  check("forward dJ/dalpha", __enzyme_fwddiff((void *)misfit, k, 0.0, tau, 0.0, T, 0.0, alpha, 1.0), g.dalpha, 1e-9);
  check("forward dJ/dtau", __enzyme_fwddiff((void *)misfit, k, 0.0, tau, 1.0, T, 0.0, alpha, 0.0), g.dtau, 1e-9);

  Pair (*rev2)(void *, double, double) = (Pair (*)(void *, double, double))__enzyme_autodiff;
  double pts[3][2] = {{0.7, -0.4}, {-1.2, 0.9}, {0.3, 2.1}};
  for (int i = 0; i < 3; i++) {
    double a = pts[i][0], b = pts[i][1], v;
    Pair d = rev2((void *)oscillator, a, b);
    check("d osc/da", d.da, CENTRAL(oscillator(x, b), x, a), 1e-6);
    check("d osc/db", d.db, CENTRAL(oscillator(a, x), x, b), 1e-6);
    check("forward osc a", __enzyme_fwddiff((void *)oscillator, a, 1.0, b, 0.0), d.da, 1e-9);
    check("forward osc b", __enzyme_fwddiff((void *)oscillator, a, 0.0, b, 1.0), d.db, 1e-9);
    v2 both = __enzyme_fwddiff_v2((void *)oscillator, enzyme_width, 2, a, 1.0, 0.0, b, 0.0, 1.0);
    check("batch forward osc a", both.d[0], d.da, 1e-9);
    check("batch forward osc b", both.d[1], d.db, 1e-9);
    /* Jacobian rows by batch reverse: seed out' with e_0 and e_1. */
    double ab[2] = {a, b}, J[2][2] = {{0, 0}, {0, 0}}, out[2], seed[2][2] = {{1, 0}, {0, 1}};
    __enzyme_autodiff_void((void *)complex_map, enzyme_width, 2, ab, J[0], J[1], out, seed[0], seed[1]);
    for (int r = 0; r < 2; r++) {
      check("batch reverse J[r][0]", J[r][0], CENTRAL(map_part(x, b, r), x, a), 1e-6);
      check("batch reverse J[r][1]", J[r][1], CENTRAL(map_part(a, x, r), x, b), 1e-6);
    }
    Pair e = rev2((void *)oscillator_l, a, b);
    check("d osc_l/da", e.da, CENTRAL(oscillator_l(x, b), x, a), 1e-6);
    check("d osc_l/db", e.db, CENTRAL(oscillator_l(a, x), x, b), 1e-6);
    check("forward osc_l b", __enzyme_fwddiff((void *)oscillator_l, a, 0.0, b, 1.0), e.db, 1e-9);
    Pair f = rev2((void *)oscillator_f, a, b);
    check("d osc_f/da", f.da, CENTRAL_H(oscillator_f(v, b), v, a, 1e-3), 3e-3);
    check("d osc_f/db", f.db, CENTRAL_H(oscillator_f(a, v), v, b, 1e-3), 3e-3);
    check("forward osc_f a", __enzyme_fwddiff((void *)oscillator_f, a, 1.0, b, 0.0), f.da, 1e-5);
  }
  return finish();
}

#include "hunt.h"
#include <complex.h>
/* Reflectance of a multilayer anti-reflection coating by the characteristic (transfer) matrix method.
   Refractive indices come from Cauchy or Sellmeier dispersion chosen by a switch over a const material
   table, absorption as a small imaginary part; the angle inside each layer from Snell's law in complex
   arithmetic (csqrt); the 2x2 complex layer matrices, a typedef struct passed and returned by value, are
   multiplied through the stack for s and p polarisation.  Objective: the photopically weighted mean
   reflectance over a wavelength grid (unpolarised).  Inputs: the layer thicknesses (dup) and the angle
   of incidence (active). */
typedef enum { CAUCHY, SELLMEIER } dispersion;
typedef enum { POL_S, POL_P } polarisation;
typedef struct { const char *name; dispersion model; double c[4]; double k; } material;
typedef struct { double complex m11, m12, m21, m22; } mat2c;

static const material MATERIALS[] = {
    {"MgF2", CAUCHY, {1.3777, 0.0035, 0.0, 0.0}, 0.0},
    {"TiO2", CAUCHY, {2.2, 0.032, 0.0015, 0.0}, 2e-4},
    {"SiO2", SELLMEIER, {0.6961663, 0.0684043, 0.4079426, 0.1162414}, 0.0},
    {"BK7", SELLMEIER, {1.03961212, 0.0774644, 0.231792344, 0.14148467}, 0.0},
};
enum { MGF2, TIO2, SIO2, BK7 };

static double complex index_of(int m, double lambda_um) {
  const material *mat = &MATERIALS[m];
  double n = 1.0, l2 = lambda_um * lambda_um;
  switch (mat->model) {
  case CAUCHY:
    n = mat->c[0] + mat->c[1] / l2 + mat->c[2] / (l2 * l2);
    break;
  case SELLMEIER:
    n = sqrt(1.0 + mat->c[0] * l2 / (l2 - mat->c[1] * mat->c[1]) + mat->c[2] * l2 / (l2 - mat->c[3] * mat->c[3]));
    break;
  }
  return n + I * mat->k;
}

static mat2c mat_mul(mat2c a, mat2c b) {
  mat2c r = {a.m11 * b.m11 + a.m12 * b.m21, a.m11 * b.m12 + a.m12 * b.m22,
             a.m21 * b.m11 + a.m22 * b.m21, a.m21 * b.m12 + a.m22 * b.m22};
  return r;
}

/* tilted admittance of a medium with index n at (complex) angle cos_t */
static double complex admittance(double complex n, double complex cos_t, polarisation pol) {
  return pol == POL_S ? n * cos_t : n / cos_t;
}

static double reflectance(const int *stack, const double *thick_nm, int nl, double lambda_nm, double theta0,
                          polarisation pol) {
  double lum = lambda_nm * 1e-3;
  double complex n0 = 1.0, ns = index_of(BK7, lum);
  double complex s0 = n0 * sin(theta0); /* invariant n sin(theta) */
  mat2c M = {1, 0, 0, 1};
  for (int l = 0; l < nl; l++) {
    double complex n = index_of(stack[l], lum);
    double complex cos_t = csqrt(1.0 - (s0 / n) * (s0 / n));
    double complex delta = 2.0 * M_PI * n * cos_t * thick_nm[l] / lambda_nm;
    double complex eta = admittance(n, cos_t, pol);
    mat2c L = {ccos(delta), I * csin(delta) / eta, I * eta * csin(delta), ccos(delta)};
    M = mat_mul(M, L);
  }
  double complex eta0 = admittance(n0, ccos(theta0), pol);
  double complex eta_s = admittance(ns, csqrt(1.0 - (s0 / ns) * (s0 / ns)), pol);
  double complex B = M.m11 + M.m12 * eta_s, C = M.m21 + M.m22 * eta_s;
  double complex r = (eta0 * B - C) / (eta0 * B + C);
  return creal(r * conj(r));
}

double mean_reflectance(const int *stack, const double *thick_nm, int nl, double theta0) {
  double sum = 0, wsum = 0;
  for (double lam = 420.0; lam <= 680.0 + 1e-9; lam += 20.0) {
    double v = exp(-0.5 * pow((lam - 555.0) / 60.0, 2)); /* photopic weighting, Gaussian approximation */
    double rs = reflectance(stack, thick_nm, nl, lam, theta0, POL_S);
    double rp = reflectance(stack, thick_nm, nl, lam, theta0, POL_P);
    sum += v * 0.5 * (rs + rp);
    wsum += v;
  }
  return 100.0 * sum / wsum;
}

enum { NLAYER = 4 };
static const int stack[NLAYER] = {MGF2, TIO2, SIO2, TIO2}; /* from the air side */
static double thick[NLAYER] = {95.0, 110.0, 30.0, 12.0};
int main(void) {
  double theta = 0.35, fd[NLAYER + 1], ad[NLAYER + 1];
  printf("mean reflectance %.10g %%\n", mean_reflectance(stack, thick, NLAYER, theta));
  for (int l = 0; l < NLAYER; l++) fd[l] = HUNT_FD(mean_reflectance(stack, thick, NLAYER, theta), thick[l]);
  fd[NLAYER] = HUNT_FD(mean_reflectance(stack, thick, NLAYER, theta), theta);
#ifdef MODE_REV
  double dthick[NLAYER] = {0};
  ad[NLAYER] = __enzyme_autodiff((void *)mean_reflectance, enzyme_const, stack, enzyme_dup, thick, dthick,
                                 enzyme_const, NLAYER, enzyme_out, theta);
  for (int l = 0; l < NLAYER; l++) ad[l] = dthick[l];
  hunt_check_vec("grad", ad, fd, NLAYER + 1);
#endif
#ifdef MODE_FWD
  double dthick[NLAYER] = {0};
  for (int l = 0; l < NLAYER; l++) {
    dthick[l] = 1.0;
    ad[l] = __enzyme_fwddiff((void *)mean_reflectance, enzyme_const, stack, enzyme_dup, thick, dthick,
                             enzyme_const, NLAYER, enzyme_const, theta);
    dthick[l] = 0.0;
  }
  ad[NLAYER] = __enzyme_fwddiff((void *)mean_reflectance, enzyme_const, stack, enzyme_dup, thick, dthick,
                                enzyme_const, NLAYER, enzyme_dup, theta, 1.0);
  hunt_check_vec("grad", ad, fd, NLAYER + 1);
#endif
  return hunt_finish();
}

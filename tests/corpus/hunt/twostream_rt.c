#include "hunt.h"
#include <stdarg.h>
/* Shortwave two-stream radiative transfer through a column of atmospheric layers.  Each layer's optical
   properties mix gas (Rayleigh), aerosol and cloud by a switch over an enum of constituents with a const
   property table; delta-Eddington scaling; hemispheric-mean two-stream reflectance and transmittance of
   each homogeneous layer (a guard for the conservative-scattering limit); layers combined from the surface
   up by the adding method.  A variadic logger reports the column albedo.  Objective: planetary albedo
   plus absorbed fraction in the cloud layer.  Inputs: cloud liquid water path per layer (dup), the
   surface albedo and the aerosol single-scattering albedo (active). */
typedef enum { GAS, AEROSOL, CLOUD, N_CONSTITUENTS } constituent;
typedef struct { double ext, ssa, asym; } optics; /* extinction per unit amount, single scattering albedo, g */
typedef struct { double tau, omega, g; } layer_optics;
typedef struct { double R, T; } rt_pair;

static const optics TABLE[N_CONSTITUENTS] = {{0.02, 1.0, 0.0}, {0.15, 0.92, 0.7}, {0.15, 0.999, 0.85}};
static struct { int verbose; double mu0; } settings = {1, 0.6};

static void logmsg(const char *fmt, ...) {
  if (!settings.verbose) return;
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
}

static layer_optics mix(const double amount[N_CONSTITUENTS], double aerosol_ssa) {
  double tau = 0, scat = 0, scat_g = 0;
  for (int c = 0; c < N_CONSTITUENTS; c++) {
    double t = TABLE[c].ext * amount[c], w;
    switch ((constituent)c) {
    case AEROSOL: w = aerosol_ssa; break;
    case GAS:
    case CLOUD:
    default: w = TABLE[c].ssa; break;
    }
    tau += t;
    scat += w * t;
    scat_g += TABLE[c].asym * w * t;
  }
  layer_optics lo = {tau, tau > 0 ? scat / tau : 0.0, scat > 0 ? scat_g / scat : 0.0};
  return lo;
}

static layer_optics delta_scale(layer_optics lo) {
  double f = lo.g * lo.g;
  layer_optics s;
  s.tau = (1 - lo.omega * f) * lo.tau;
  s.omega = (1 - f) * lo.omega / (1 - lo.omega * f);
  s.g = (lo.g - f) / (1 - f);
  return s;
}

static rt_pair two_stream(layer_optics lo) {
  double g1 = 2.0 - lo.omega * (1 + lo.g), g2 = lo.omega * (1 - lo.g);
  rt_pair rt;
  if (lo.tau < 1e-10) { rt.R = 0; rt.T = 1; return rt; }
  double k2 = g1 * g1 - g2 * g2;
  if (k2 < 1e-12) { /* conservative scattering */
    rt.R = g1 * lo.tau / (1 + g1 * lo.tau);
    rt.T = 1 - rt.R;
    return rt;
  }
  double k = sqrt(k2), e = exp(-k * lo.tau);
  double sh = 0.5 * (1 - e * e), ch = 0.5 * (1 + e * e); /* sinh, cosh times exp(-k tau) */
  double den = k * ch + g1 * sh;
  rt.R = g2 * sh / den;
  rt.T = k * e / den;
  return rt;
}

/* layer (R1, T1) on top of a medium with (R2, T2), isotropic diffuse light in both */
static rt_pair add_layers(rt_pair top, rt_pair below) {
  double denom = 1.0 - top.R * below.R;
  rt_pair out = {top.R + top.T * top.T * below.R / denom, top.T * below.T / denom};
  return out;
}

double column_albedo(const double *lwp, int nlayers, double surface_albedo, double aerosol_ssa) {
  rt_pair *rt = malloc(nlayers * sizeof *rt);
  for (int l = 0; l < nlayers; l++) {
    double z = (l + 0.5) / nlayers; /* height fraction, layer 0 at the top */
    double amount[N_CONSTITUENTS] = {1.0 / nlayers / settings.mu0, 2.0 * z * z / settings.mu0, lwp[l] / settings.mu0};
    rt[l] = two_stream(delta_scale(mix(amount, aerosol_ssa)));
  }
  rt_pair acc = {surface_albedo, 0.0}, above_cloud = {0.0, 1.0};
  double absorbed = 0.0;
  for (int l = nlayers - 1; l >= 0; l--) {
    rt_pair prev = acc;
    acc = add_layers(rt[l], acc);
    if (lwp[l] > 1.0) { /* cloud layer lit from above: absorbed = 1 - reflected - net flux below it */
      double through = rt[l].T / (1 - rt[l].R * prev.R);
      absorbed += 1.0 - acc.R - through * (1 - prev.R);
    }
  }
  for (int l = 0; l < nlayers / 2; l++) above_cloud = add_layers(above_cloud, rt[l]);
  logmsg("albedo %.6f absorbed %.6f above-cloud T %.6f\n", acc.R, absorbed, above_cloud.T);
  free(rt);
  return acc.R + absorbed + 0.1 * above_cloud.T;
}

enum { NL = 12 };
static double lwp[NL];
int main(void) {
  for (int l = 0; l < NL; l++) lwp[l] = (l >= 5 && l <= 8) ? 2.0 + 1.5 * sin(l) : 0.05 * l;
  double alb = 0.15, ssa = 0.9, fd[NL + 2], ad[NL + 2];
  printf("objective %.12g\n", column_albedo(lwp, NL, alb, ssa));
  settings.verbose = 0;
  for (int l = 0; l < NL; l++) fd[l] = HUNT_FD(column_albedo(lwp, NL, alb, ssa), lwp[l]);
  fd[NL] = HUNT_FD(column_albedo(lwp, NL, alb, ssa), alb);
  fd[NL + 1] = HUNT_FD(column_albedo(lwp, NL, alb, ssa), ssa);
  settings.verbose = 1;
#ifdef MODE_REV
  double dlwp[NL] = {0};
  ad[NL] = __enzyme_autodiff((void *)column_albedo, enzyme_dup, lwp, dlwp, enzyme_const, NL, enzyme_out, alb,
                             enzyme_const, ssa);
  for (int l = 0; l < NL; l++) ad[l] = dlwp[l];
  ad[NL + 1] = __enzyme_autodiff((void *)column_albedo, enzyme_const, lwp, enzyme_const, NL, enzyme_const, alb,
                                 enzyme_out, ssa);
  hunt_check_vec("grad", ad, fd, NL + 2);
#endif
#ifdef MODE_FWD
  double dlwp[NL] = {0};
  for (int l = 0; l < NL; l++) {
    dlwp[l] = 1.0;
    ad[l] = __enzyme_fwddiff((void *)column_albedo, enzyme_dup, lwp, dlwp, enzyme_const, NL, enzyme_const, alb,
                             enzyme_const, ssa);
    dlwp[l] = 0.0;
  }
  ad[NL] = __enzyme_fwddiff((void *)column_albedo, enzyme_const, lwp, enzyme_const, NL, enzyme_dup, alb, 1.0,
                            enzyme_const, ssa);
  ad[NL + 1] = __enzyme_fwddiff((void *)column_albedo, enzyme_const, lwp, enzyme_const, NL, enzyme_const, alb,
                                enzyme_dup, ssa, 1.0);
  hunt_check_vec("grad", ad, fd, NL + 2);
#endif
  return hunt_finish();
}

#include "hunt.h"
/* Multi-layer canopy photosynthesis over a day: Beer's-law light profile, Farquhar-von Caemmerer-Berry
   leaf biochemistry (Rubisco- and electron-transport-limited rates, the electron transport rate from the
   non-rectangular hyperbola), Arrhenius / peaked temperature responses, and Ball-Berry stomatal
   conductance coupled to the intercellular CO2 by a damped fixed-point iteration that breaks on a
   tolerance.  Site constants in a global configuration struct, leaf traits in a struct passed by pointer and copied by value per layer.
   Objective: daily canopy gross assimilation plus transpiration-weighted conductance.  Inputs: Vcmax25
   and the Ball-Berry slope g1 (active), hourly leaf temperatures (dup). */
typedef struct { double vcmax25, jmax25, rd25, theta, g0, g1; } leaf_traits;
typedef struct { double ca, o2, gb, kc25, ko25, gstar25, k_ext, lai; int layers; double tol; int max_iter; } site_config;
typedef struct { double an, gs, ci; int iters; } leaf_state;

static const site_config SITE = {400.0, 210.0, 1.2, 404.9, 278.4, 42.75, 0.5, 4.0, 6, 1e-12, 200};
static const double R_GAS = 8.314e-3; /* kJ mol-1 K-1 */
static int total_iterations = 0;

static double arrhenius(double k25, double ea, double tleaf) {
  double tk = tleaf + 273.15;
  return k25 * exp(ea * (tk - 298.15) / (298.15 * R_GAS * tk));
}

static double peaked(double k25, double ea, double tleaf) { /* with high-temperature deactivation */
  double tk = tleaf + 273.15, hd = 200.0, ds = 0.65;
  double num = 1 + exp((298.15 * ds - hd) / (298.15 * R_GAS));
  double den = 1 + exp((tk * ds - hd) / (tk * R_GAS));
  return arrhenius(k25, ea, tleaf) * num / den;
}

static double electron_transport(double par, double jmax, double theta) {
  double i2 = 0.85 * 0.5 * 0.85 * par; /* absorbed, split between photosystems */
  double b = i2 + jmax, disc = b * b - 4 * theta * i2 * jmax;
  return (b - sqrt(disc)) / (2 * theta); /* smaller root */
}

static leaf_state leaf_photosynthesis(leaf_traits tr, double par, double tleaf, double rh) {
  double vcmax = peaked(tr.vcmax25, 65.33, tleaf), jmax = peaked(tr.jmax25, 43.54, tleaf);
  double rd = arrhenius(tr.rd25, 46.39, tleaf);
  double kc = arrhenius(SITE.kc25, 79.43, tleaf), ko = arrhenius(SITE.ko25, 36.38, tleaf);
  double gstar = arrhenius(SITE.gstar25, 37.83, tleaf);
  double j = electron_transport(par, jmax, tr.theta);
  leaf_state s = {0.0, tr.g0, 0.7 * SITE.ca, 0};
  for (int it = 0; it < SITE.max_iter; it++) {
    double wc = vcmax * (s.ci - gstar) / (s.ci + kc * (1 + SITE.o2 / ko));
    double wj = j * (s.ci - gstar) / (4 * s.ci + 8 * gstar);
    double an = fmin(wc, wj) - rd;
    double cs = SITE.ca - 1.37 * an / SITE.gb; /* leaf surface CO2 behind the boundary layer */
    double gs = tr.g0 + tr.g1 * fmax(an, 0.0) * rh / cs;
    double ci_new = SITE.ca - 1.6 * an / gs;
    double change = fabs(ci_new - s.ci);
    s.ci = 0.5 * s.ci + 0.5 * ci_new;
    s.an = an;
    s.gs = gs;
    s.iters = it + 1;
    if (change < SITE.tol * SITE.ca) break;
  }
  total_iterations += s.iters;
  return s;
}

double canopy_daily(const leaf_traits *traits, const double *tleaf, int hours) {
  double gpp = 0.0, gsum = 0.0;
  double dl = SITE.lai / SITE.layers;
  for (int h = 0; h < hours; h++) {
    double solar = sin(M_PI * (h + 0.5) / hours);
    double par_top = 1800.0 * solar * solar + 50.0;
    double rh = 0.8 - 0.3 * solar;
    for (int l = 0; l < SITE.layers; l++) {
      double cum = (l + 0.5) * dl;
      double par = par_top * exp(-SITE.k_ext * cum);
      leaf_traits tr = *traits;
      tr.vcmax25 *= exp(-0.15 * cum); /* nitrogen profile */
      tr.jmax25 *= exp(-0.15 * cum);
      leaf_state s = leaf_photosynthesis(tr, par, tleaf[h] - 0.5 * l, rh);
      gpp += (s.an + arrhenius(tr.rd25, 46.39, tleaf[h])) * dl * 3600e-6;
      gsum += s.gs * dl / hours;
    }
  }
  return gpp + 0.1 * gsum;
}

enum { HOURS = 12 };
static double tleaf[HOURS];
static leaf_traits traits = {60.0, 110.0, 0.9, 0.7, 0.01, 9.0};
static double eval(void) { return canopy_daily(&traits, tleaf, HOURS); }
int main(void) {
  for (int h = 0; h < HOURS; h++) tleaf[h] = 18.0 + 10.0 * sin(M_PI * (h + 0.5) / HOURS);
  double fd[HOURS + 2], ad[HOURS + 2];
  double obj = eval();
  printf("objective %.12g (%d leaf iterations)\n", obj, total_iterations);
  fd[0] = HUNT_FD(eval(), traits.vcmax25);
  fd[1] = HUNT_FD(eval(), traits.g1);
  for (int h = 0; h < HOURS; h++) fd[h + 2] = HUNT_FD(eval(), tleaf[h]);
#ifdef MODE_REV
  double dtleaf[HOURS] = {0};
  leaf_traits dtraits = {0};
  __enzyme_autodiff((void *)canopy_daily, enzyme_dup, &traits, &dtraits, enzyme_dup, tleaf, dtleaf, enzyme_const, HOURS);
  ad[0] = dtraits.vcmax25;
  ad[1] = dtraits.g1;
  for (int h = 0; h < HOURS; h++) ad[h + 2] = dtleaf[h];
  hunt_check_vec("grad", ad, fd, HOURS + 2);
#endif
#ifdef MODE_FWD
  double dtleaf[HOURS] = {0};
  leaf_traits t1 = {1.0, 0, 0, 0, 0, 0}, t2 = {0, 0, 0, 0, 0, 1.0}, t0 = {0};
  ad[0] = __enzyme_fwddiff((void *)canopy_daily, enzyme_dup, &traits, &t1, enzyme_dup, tleaf, dtleaf, enzyme_const, HOURS);
  ad[1] = __enzyme_fwddiff((void *)canopy_daily, enzyme_dup, &traits, &t2, enzyme_dup, tleaf, dtleaf, enzyme_const, HOURS);
  for (int h = 0; h < HOURS; h++) {
    dtleaf[h] = 1.0;
    ad[h + 2] = __enzyme_fwddiff((void *)canopy_daily, enzyme_dup, &traits, &t0, enzyme_dup, tleaf, dtleaf,
                                 enzyme_const, HOURS);
    dtleaf[h] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, HOURS + 2);
#endif
  return hunt_finish();
}

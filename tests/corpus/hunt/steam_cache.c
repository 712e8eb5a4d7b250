#include "hunt.h"
/* Counter-flow steam condenser sized cell by cell: saturation pressure, latent heat and liquid properties
   come from property routines that memoise their last call in static locals (property codes do this: the
   same temperature is asked for many times per cell), the NTU-effectiveness relation per cell, and a
   secant iteration on the cooling-water outlet temperature.  Objective: condensate produced plus the
   pumping penalty.  Inputs: the steam temperature and the cooling-water inlet temperature (active), the
   per-cell fouling factors (dup). */
typedef struct { double psat, hfg, cp_l, k_l, mu_l; } sat_props;
static int property_calls = 0, cache_hits = 0;

static sat_props saturation(double t_c) {
  static double last_t = NAN;
  static sat_props last;
  property_calls++;
  if (t_c == last_t) { cache_hits++; return last; }
  double tk = t_c + 273.15, tr = tk / 647.096, tau = 1 - tr;
  sat_props p;
  /* Wagner-Pruss style vapour-pressure fit (kPa) */
  p.psat = 22064.0 * exp((-7.85951783 * tau + 1.84408259 * pow(tau, 1.5) - 11.7866497 * pow(tau, 3) +
                          22.6807411 * pow(tau, 3.5) - 15.9618719 * pow(tau, 4) + 1.80122502 * pow(tau, 7.5)) / tr);
  p.hfg = 2501.0 - 2.361 * t_c; /* kJ/kg */
  p.cp_l = 4.2174 - 3.720283e-3 * t_c + 1.412855e-4 * t_c * t_c - 2.654387e-6 * pow(t_c, 3) + 2.093236e-8 * pow(t_c, 4);
  p.k_l = 0.5650285 + 2.6363895e-3 * t_c - 1.2516934e-4 * pow(t_c, 1.5) - 1.5154918e-4 * t_c * t_c;
  p.mu_l = 2.414e-5 * pow(10.0, 247.8 / (tk - 140.0));
  last_t = t_c;
  last = p;
  return p;
}

static double water_cp(double t_c) { /* memoised scalar version: one static pair */
  static double last_t = NAN, last_cp;
  if (t_c == last_t) return last_cp;
  last_t = t_c;
  last_cp = saturation(t_c).cp_l;
  return last_cp;
}

/* heat duty of the condenser for a given outlet temperature guess; returns outlet implied by the cells */
static double march(double t_steam, double t_in, const double *fouling, int ncell, double mdot_w, double *condensate) {
  double t = t_in, cond = 0.0;
  sat_props s = saturation(t_steam);
  for (int c = 0; c < ncell; c++) {
    sat_props wl = saturation(t_steam); /* asked again per cell: the cache answers */
    double cp = water_cp(t);
    double h_cond = 0.943 * pow(wl.k_l * wl.k_l * wl.k_l * 9.81 * 958.0 * 958.0 * s.hfg * 1e3 / (wl.mu_l * 0.02 * (t_steam - t)), 0.25);
    double u = 1.0 / (1.0 / h_cond + 1.0 / 3500.0 + fouling[c]);
    double ntu = u * 0.8 / (mdot_w * cp * 1e3);
    double eff = 1.0 - exp(-ntu);
    double q = eff * mdot_w * cp * (t_steam - t); /* kW */
    cond += q / s.hfg;
    t += q / (mdot_w * cp);
  }
  *condensate = cond;
  return t;
}

double condenser(double t_steam, double t_in, const double *fouling, int ncell) {
  sat_props steam = saturation(t_steam);
  double mdot = 2.0, cond = 0.0;
  /* secant on the flow rate so that the outlet is 10 K below the steam */
  double m0 = 1.0, m1 = 3.0;
  double f0 = march(t_steam, t_in, fouling, ncell, m0, &cond) - (t_steam - 10.0);
  double f1 = march(t_steam, t_in, fouling, ncell, m1, &cond) - (t_steam - 10.0);
  for (int it = 0; it < 50; it++) {
    double m2 = m1 - f1 * (m1 - m0) / (f1 - f0);
    m0 = m1; f0 = f1; m1 = m2;
    f1 = march(t_steam, t_in, fouling, ncell, m1, &cond) - (t_steam - 10.0);
    if (fabs(f1) < 1e-12) break;
  }
  mdot = m1;
  double duty = cond * steam.hfg;             /* kW */
  double shell_p = saturation(t_steam).psat;  /* kPa, for the shell design */
  return cond * 100.0 + 0.05 * mdot * mdot + 1e-3 * duty + 1e-2 * shell_p;
}

enum { NCELL = 10 };
static double fouling[NCELL];
int main(void) {
  for (int c = 0; c < NCELL; c++) fouling[c] = 1e-4 * (1.0 + 0.3 * c);
  double ts = 45.0, tin = 20.0, fd[NCELL + 2], ad[NCELL + 2];
  printf("objective %.12g\n", condenser(ts, tin, fouling, NCELL));
  printf("property calls %d, cache hits %d\n", property_calls, cache_hits);
  fd[0] = HUNT_FD(condenser(ts, tin, fouling, NCELL), ts);
  fd[1] = HUNT_FD(condenser(ts, tin, fouling, NCELL), tin);
  hunt_fd_step = 1e-2; /* fouling ~1e-4: step 1e-6 absolute */
  for (int c = 0; c < NCELL; c++) {
    double save = hunt_fd_step;
    hunt_fd_step = 1e-2 * fouling[c];
    fd[c + 2] = HUNT_FD(condenser(ts, tin, fouling, NCELL), fouling[c]) * 1e-4;
    hunt_fd_step = save;
  }
  hunt_fd_step = 1e-4;
  /* the derivative is evaluated right after a primal call at the same point: the caches are warm */
  condenser(ts, tin, fouling, NCELL);
  int hits_before = cache_hits;
#ifdef MODE_REV
  double dfoul[NCELL] = {0};
  ad[0] = __enzyme_autodiff((void *)condenser, enzyme_out, ts, enzyme_const, tin, enzyme_dup, fouling, dfoul,
                            enzyme_const, NCELL);
  for (int c = 0; c < NCELL; c++) ad[c + 2] = dfoul[c] * 1e-4;
  condenser(ts, tin, fouling, NCELL);
  ad[1] = __enzyme_autodiff((void *)condenser, enzyme_const, ts, enzyme_out, tin, enzyme_const, fouling,
                            enzyme_const, NCELL);
  hunt_check_vec("grad", ad, fd, NCELL + 2);
#endif
#ifdef MODE_FWD
  double dfoul[NCELL] = {0};
  ad[0] = __enzyme_fwddiff((void *)condenser, enzyme_dup, ts, 1.0, enzyme_const, tin, enzyme_dup, fouling, dfoul,
                           enzyme_const, NCELL);
  condenser(ts, tin, fouling, NCELL);
  ad[1] = __enzyme_fwddiff((void *)condenser, enzyme_const, ts, enzyme_dup, tin, 1.0, enzyme_dup, fouling, dfoul,
                           enzyme_const, NCELL);
  for (int c = 0; c < NCELL; c++) {
    condenser(ts, tin, fouling, NCELL);
    dfoul[c] = 1.0;
    ad[c + 2] = __enzyme_fwddiff((void *)condenser, enzyme_const, ts, enzyme_const, tin, enzyme_dup, fouling, dfoul,
                                 enzyme_const, NCELL) * 1e-4;
    dfoul[c] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NCELL + 2);
#endif
  printf("cache hits during the derivatives: %d\n", cache_hits - hits_before);
  return hunt_finish();
}

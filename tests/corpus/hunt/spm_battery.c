#include "hunt.h"
/* Single-particle model of a lithium-ion cell discharged at constant current: Fickian diffusion in one
   spherical particle per electrode (finite volumes on concentric shells, flux boundary at the surface),
   Butler-Volmer kinetics inverted with asinh, open-circuit potentials from fitted expressions (graphite:
   exponentials and tanh; NMC: a polynomial evaluated by Horner from a const coefficient table), a film
   resistance, explicit time stepping with a cut-off voltage that ends the discharge early.  Electrode
   parameters in a struct per electrode; work arrays from malloc.  Objective: delivered energy (Wh) and
   final voltage.  Inputs: the electrodes (dup: diffusivities, rate constants, radii) and the initial
   negative-electrode stoichiometry (active). */
typedef enum { NEGATIVE, POSITIVE } electrode_kind;
typedef struct { electrode_kind kind; double radius, diffusivity, k_rate, cmax, eps_active, thickness; } electrode;
typedef struct { double current, temperature, ce, r_film, v_cutoff, dt; int steps, shells; } cell_setup;

static const double F = 96485.33, RG = 8.314;
static const double NMC_OCP[6] = {4.3452, -1.6518, 1.6225, -2.0843, 3.5146, -2.2617}; /* in powers of x */
static const cell_setup SETUP = {30.0, 298.15, 1000.0, 0.002, 2.8, 2.0, 400, 10};

static double ocp(electrode_kind kind, double x) {
  switch (kind) {
  case NEGATIVE:
    return 0.1493 + 0.8493 * exp(-61.79 * x) + 0.3824 * exp(-665.8 * x) - exp(39.42 * x - 41.92) -
           0.03131 * atan(25.59 * x - 4.099) - 0.009434 * atan(32.49 * x - 15.74);
  case POSITIVE: {
    double u = 0.0;
    for (int i = 5; i >= 0; i--) u = u * x + NMC_OCP[i];
    return u - 0.05 * tanh(20.0 * (x - 0.95));
  }
  }
  return 0.0;
}

/* one explicit step of spherical diffusion with surface molar flux j (mol m-2 s-1, positive outward) */
static void diffuse(const electrode *e, double *c, double *flux, int n, double j, double dt) {
  double dr = e->radius / n;
  flux[0] = 0.0;
  for (int i = 1; i < n; i++) {
    double r = i * dr;
    flux[i] = -e->diffusivity * r * r * (c[i] - c[i - 1]) / dr;
  }
  flux[n] = e->radius * e->radius * j;
  for (int i = 0; i < n; i++) {
    double r0 = i * dr, r1 = (i + 1) * dr;
    double vol = (r1 * r1 * r1 - r0 * r0 * r0) / 3.0;
    c[i] -= dt * (flux[i + 1] - flux[i]) / vol;
  }
}

static double overpotential(const electrode *e, double c_surf, double j) {
  double i0 = F * e->k_rate * sqrt(SETUP.ce * c_surf * (e->cmax - c_surf));
  return 2.0 * RG * SETUP.temperature / F * asinh(F * j / (2.0 * i0));
}

double discharge_energy(const electrode *neg, const electrode *pos, double x0_neg, double *v_end) {
  int n = SETUP.shells;
  double *cn = malloc(n * sizeof *cn), *cp = malloc(n * sizeof *cp), *work = malloc((n + 1) * sizeof *work);
  double x0_pos = 0.95 - 0.8 * (x0_neg - 0.05); /* balanced cell */
  for (int i = 0; i < n; i++) { cn[i] = x0_neg * neg->cmax; cp[i] = x0_pos * pos->cmax; }
  /* specific interfacial area a = 3 eps / R, per unit electrode area: a * L */
  double an = 3.0 * neg->eps_active / neg->radius * neg->thickness;
  double ap = 3.0 * pos->eps_active / pos->radius * pos->thickness;
  double jn = SETUP.current / (F * an), jp = -SETUP.current / (F * ap);
  double energy = 0.0, v = 0.0;
  for (int s = 0; s < SETUP.steps; s++) {
    diffuse(neg, cn, work, n, jn, SETUP.dt);
    diffuse(pos, cp, work, n, jp, SETUP.dt);
    double xn = cn[n - 1] / neg->cmax, xp = cp[n - 1] / pos->cmax;
    v = ocp(POSITIVE, xp) - ocp(NEGATIVE, xn) + overpotential(pos, cp[n - 1], jp) -
        overpotential(neg, cn[n - 1], jn) - SETUP.current * SETUP.r_film;
    if (v < SETUP.v_cutoff) break;
    energy += v * SETUP.current * SETUP.dt / 3600.0;
  }
  free(cn); free(cp); free(work);
  *v_end = v;
  return energy + v;
}

static electrode neg = {NEGATIVE, 5.86e-6, 3.3e-14, 2.0e-11, 51765.0, 0.66, 85e-6};
static electrode pos = {POSITIVE, 5.22e-6, 4.0e-15, 6.0e-11, 63104.0, 0.665, 75e-6};
static double x0 = 0.8;
static double eval(void) { double v; return discharge_energy(&neg, &pos, x0, &v); }
enum { NP = 6 };
int main(void) {
  double v_end, fd[NP], ad[NP];
  printf("objective %.12g", discharge_energy(&neg, &pos, x0, &v_end));
  printf(" end voltage %.6f\n", v_end);
  /* parameters of very different size: steps relative to each, derivatives scaled to relative ones */
  double *params[NP] = {&x0, &neg.diffusivity, &pos.diffusivity, &neg.k_rate, &pos.radius, &neg.eps_active};
  double scale[NP];
  for (int k = 0; k < NP; k++) {
    scale[k] = *params[k];
    hunt_fd_step = 1e-4 * (scale[k] < 1 ? scale[k] : 1.0);
    fd[k] = HUNT_FD(eval(), *params[k]) * scale[k];
  }
  hunt_fd_step = 1e-4;
#ifdef MODE_REV
  electrode dneg = {0}, dpos = {0};
  double dv = 0.0;
  ad[0] = __enzyme_autodiff((void *)discharge_energy, enzyme_dup, &neg, &dneg, enzyme_dup, &pos, &dpos, enzyme_out, x0,
                            enzyme_dupnoneed, &v_end, &dv);
  ad[1] = dneg.diffusivity; ad[2] = dpos.diffusivity; ad[3] = dneg.k_rate; ad[4] = dpos.radius; ad[5] = dneg.eps_active;
  for (int k = 0; k < NP; k++) ad[k] *= scale[k];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  electrode dneg = {0}, dpos = {0};
  double dv = 0.0;
  ad[0] = __enzyme_fwddiff((void *)discharge_energy, enzyme_dup, &neg, &dneg, enzyme_dup, &pos, &dpos, enzyme_dup, x0, 1.0,
                           enzyme_dupnoneed, &v_end, &dv) * scale[0];
  double *slots[NP] = {NULL, &dneg.diffusivity, &dpos.diffusivity, &dneg.k_rate, &dpos.radius, &dneg.eps_active};
  for (int k = 1; k < NP; k++) {
    *slots[k] = 1.0;
    ad[k] = __enzyme_fwddiff((void *)discharge_energy, enzyme_dup, &neg, &dneg, enzyme_dup, &pos, &dpos, enzyme_dup, x0,
                             0.0, enzyme_dupnoneed, &v_end, &dv) * scale[k];
    *slots[k] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

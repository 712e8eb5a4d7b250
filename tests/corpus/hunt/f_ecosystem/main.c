#include "hunt.h"
/* C driver for ecosystem.f90: sensitivities of a census misfit to growth rates, interactions and the
   initial abundances. */
double census_misfit(const double *r, const double *a, const double *x0, const double *census, int n, int nt,
                     int steps);

enum { NS = 4, NT = 6, STEPS = 8 };
static double r[NS], a[NS * NS], x0[NS], census[NS * NT];

static double run(void) { return census_misfit(r, a, x0, census, NS, NT, STEPS); }

int main(void) {
  for (int i = 0; i < NS; i++) {
    r[i] = 0.6 - 0.15 * i;
    x0[i] = 1.0 + 0.2 * i;
    for (int j = 0; j < NS; j++) a[i + NS * j] = i == j ? -0.8 : 0.3 * sin(1.0 + i - 2.0 * j);
    for (int t = 0; t < NT; t++) census[i + NS * t] = x0[i] * (1 + 0.05 * (t + 1) * cos(i + t));
  }
  enum { NQ = 7 };
  double *prim[NQ] = {&r[0], &r[3], &a[1], &a[NS + 2], &a[NS * NS - 1], &x0[0], &x0[2]};
  double fd[NQ], ad[NQ];
  for (int q = 0; q < NQ; q++) fd[q] = HUNT_FD(run(), *prim[q]);
#ifdef MODE_REV
  double dr[NS] = {0}, da[NS * NS] = {0}, dx[NS] = {0};
  __enzyme_autodiff((void *)census_misfit, enzyme_dup, r, dr, enzyme_dup, a, da, enzyme_dup, x0, dx, enzyme_const,
                    census, enzyme_const, NS, enzyme_const, NT, enzyme_const, STEPS);
  double *shad[NQ] = {&dr[0], &dr[3], &da[1], &da[NS + 2], &da[NS * NS - 1], &dx[0], &dx[2]};
  for (int q = 0; q < NQ; q++) ad[q] = *shad[q];
#endif
#ifdef MODE_FWD
  for (int q = 0; q < NQ; q++) {
    double dr[NS] = {0}, da[NS * NS] = {0}, dx[NS] = {0};
    double *shad[NQ] = {&dr[0], &dr[3], &da[1], &da[NS + 2], &da[NS * NS - 1], &dx[0], &dx[2]};
    *shad[q] = 1;
    ad[q] = __enzyme_fwddiff((void *)census_misfit, enzyme_dup, r, dr, enzyme_dup, a, da, enzyme_dup, x0, dx,
                             enzyme_const, census, enzyme_const, NS, enzyme_const, NT, enzyme_const, STEPS);
  }
#endif
  hunt_check_vec("grad", ad, fd, NQ);
  return hunt_finish();
}

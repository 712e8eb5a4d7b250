#include "hunt.h"
/* C driver for truss.f90: compliance sensitivities with respect to each spring stiffness, the load
   components and the load angle. */
double compliance(const double *kel, int n_el, const double *load, double angle);

enum { NEL = 9 };
static double kel[NEL], load[2] = {3.0, 1.2}, angle = 0.3;

int main(void) {
  for (int e = 0; e < NEL; e++) kel[e] = 50.0 + 10.0 * sin(1.3 * e);
  double fd[NEL + 3], ad[NEL + 3];
  for (int e = 0; e < NEL; e++) fd[e] = HUNT_FD(compliance(kel, NEL, load, angle), kel[e]);
  fd[NEL] = HUNT_FD(compliance(kel, NEL, load, angle), load[0]);
  fd[NEL + 1] = HUNT_FD(compliance(kel, NEL, load, angle), load[1]);
  fd[NEL + 2] = HUNT_FD(compliance(kel, NEL, load, angle), angle);
#ifdef MODE_REV
  double dk[NEL] = {0}, dl[2] = {0};
  ad[NEL + 2] = __enzyme_autodiff((void *)compliance, enzyme_dup, kel, dk, enzyme_const, NEL, enzyme_dup, load, dl, angle);
  for (int e = 0; e < NEL; e++) ad[e] = dk[e];
  ad[NEL] = dl[0]; ad[NEL + 1] = dl[1];
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NEL + 3; k++) {
    double dk[NEL] = {0}, dl[2] = {0};
    if (k < NEL) dk[k] = 1; else if (k < NEL + 2) dl[k - NEL] = 1;
    ad[k] = __enzyme_fwddiff((void *)compliance, enzyme_dup, kel, dk, enzyme_const, NEL, enzyme_dup, load, dl, angle,
                             k == NEL + 2 ? 1.0 : 0.0);
  }
#endif
  hunt_check_vec("grad", ad, fd, NEL + 3);
  return hunt_finish();
}

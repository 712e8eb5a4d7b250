/* Return markers of the C ABI: enzyme_primal_return / enzyme_noret and enzyme_{const,active,dup}_return say
   what __enzyme_autodiff and __enzyme_fwddiff return besides the derivatives.  Checked against central
   differences and the plain function. */
#include "check.h"

extern int enzyme_primal_return, enzyme_noret, enzyme_const_return, enzyme_active_return, enzyme_dup_return;

typedef struct { double value; double dk; double dc; } value_and_grad;   /* {result, {adjoints}} */
typedef struct { double value; double tangent; } value_and_tangent;
value_and_grad __enzyme_autodiff_vg(void *, ...);
value_and_tangent __enzyme_fwddiff_vt(void *, ...);

/* Damped oscillator displacement at time t. */
static double displacement(double k, double c, double t) {
  double w = sqrt(k - 0.25 * c * c);
  return exp(-0.5 * c * t) * cos(w * t);
}

/* Accumulates a running energy and returns a diagnostic that must not be seeded (enzyme_const_return). */
static double accumulate(double v, double *energy) {
  *energy += 0.5 * v * v;
  return v * 1000.0;
}

int main(void) {
  double k = 4.0, c = 0.3, t = 1.7;
  value_and_grad g = __enzyme_autodiff_vg((void *)displacement, &enzyme_primal_return, &enzyme_active_return,
                                          enzyme_out, k, enzyme_out, c, enzyme_const, t);
  check("primal returned first", g.value, displacement(k, c, t), 1e-15);
  check("d/dk", g.dk, CENTRAL(displacement(k, c, t), k, k), 1e-6);
  check("d/dc", g.dc, CENTRAL(displacement(k, c, t), c, c), 1e-6);

  value_and_tangent f = __enzyme_fwddiff_vt((void *)displacement, &enzyme_primal_return, &enzyme_dup_return,
                                            enzyme_const, k, enzyme_const, c, enzyme_dup, t, 1.0);
  check("forward primal", f.value, displacement(k, c, t), 1e-15);
  check("forward tangent d/dt", f.tangent, CENTRAL(displacement(k, c, t), t, t), 1e-6);

  double value = __enzyme_fwddiff((void *)displacement, &enzyme_const_return, &enzyme_primal_return,
                                  enzyme_dup, k, 1.0, enzyme_const, c, enzyme_const, t);
  check("forward const return gives the primal", value, displacement(k, c, t), 1e-15);
  double tangent = __enzyme_fwddiff((void *)displacement, &enzyme_noret, enzyme_dup, k, 1.0, enzyme_const, c,
                                    enzyme_const, t);
  check("enzyme_noret gives the tangent", tangent, g.dk, 1e-12);

  double energy = 0.0, denergy = 1.0, v = 1.5;
  double dv = __enzyme_autodiff((void *)accumulate, &enzyme_const_return, enzyme_out, v, enzyme_dup, &energy,
                                &denergy);
  check("const return is not seeded", dv, v, 1e-15);   /* d(energy)/dv only, not 1000 */
  return finish();
}

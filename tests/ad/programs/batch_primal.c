/* __enzyme_batch: a function run on W lanes at once (enzyme_vector arguments take one value per lane,
   enzyme_scalar ones are shared), including a batched function that itself calls __enzyme_fwddiff and a
   batch of pointers to structs written in place.  Checked against the plain calls and an analytic derivative. */
#include "check.h"

extern int enzyme_width, enzyme_vector, enzyme_scalar;
typedef struct { double lane[4]; } four;
typedef struct { double a, b; } two;
four __enzyme_batch_four(void *, ...);
two __enzyme_batch_two(void *, ...);
void __enzyme_batch(void *, ...);

/* Drag force on a sphere (constant air density, drag coefficient per lane). */
static double drag(double rho, double cd, double v, double radius) {
  return 0.5 * rho * cd * v * v * M_PI * radius * radius;
}

static double ddrag_dv(double rho, double cd, double v, double radius) {
  return __enzyme_fwddiff((void *)drag, enzyme_const, rho, enzyme_const, cd, v, 1.0, enzyme_const, radius);
}

typedef struct { double mass, velocity, energy; } body;

static void kinetic(body *p) { p->energy = 0.5 * p->mass * p->velocity * p->velocity; }

int main(void) {
  double rho = 1.225, cd[4] = {0.47, 0.5, 0.42, 1.05}, v[4] = {3.0, 12.5, 30.0, 0.5}, r = 0.11;
  four f = __enzyme_batch_four((void *)drag, enzyme_width, 4, enzyme_scalar, rho, enzyme_vector, cd[0], cd[1],
                               cd[2], cd[3], enzyme_vector, v[0], v[1], v[2], v[3], enzyme_scalar, r);
  for (int i = 0; i < 4; i++) check("batched drag", f.lane[i], drag(rho, cd[i], v[i], r), 1e-15);

  two d = __enzyme_batch_two((void *)ddrag_dv, enzyme_width, 2, enzyme_scalar, rho, enzyme_vector, cd[0], cd[1],
                             enzyme_vector, v[0], v[1], enzyme_scalar, r);
  check("batched derivative lane 0", d.a, rho * cd[0] * v[0] * M_PI * r * r, 1e-13);
  check("batched derivative lane 1", d.b, rho * cd[1] * v[1] * M_PI * r * r, 1e-13);
  check("batched derivative vs central", d.b, CENTRAL(drag(rho, cd[1], v[1], r), v[1], v[1]), 1e-6);

  body bodies[3] = {{2.0, 1.5, 0}, {0.5, -4.0, 0}, {10.0, 0.25, 0}};
  __enzyme_batch((void *)kinetic, enzyme_width, 3, &bodies[0], &bodies[1], &bodies[2]);  /* vector by default */
  for (int i = 0; i < 3; i++)
    check("batched in-place energy", bodies[i].energy, 0.5 * bodies[i].mass * bodies[i].velocity * bodies[i].velocity,
          1e-15);
  return finish();
}

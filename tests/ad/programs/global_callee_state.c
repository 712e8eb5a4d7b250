#include "check.h"
/* A particle pushed through a field, with the integrator state in a global struct (COMMON-block style): the
   step routine updates it, the driver sets it up and reads it back.  The field coefficients reach the force
   routine through a global pointer set by the driver (the way callbacks get their data in older codes), and
   the drag coefficient is a global parameter that nothing differentiated writes.  After each step a hook chosen
   at run time through a global function pointer (damping, or nothing) changes the state again.  Derivatives with respect
   to the field and the initial position and velocity are checked against central differences in reverse,
   forward, batch and split mode, twice each. */
typedef struct { void *tape; double primal; } aug_t;
typedef struct { double d[2]; } v2;
extern int enzyme_width;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
v2 __enzyme_fwddiff_v2(void *, ...);

#define NCOEF 4
struct { double x, v, t; int nsteps; } particle;
double drag = 0.15;
static const double *field_coefs;

static void use_field(const double *c) { field_coefs = c; }

static double force(double x) {
  double f = 0, p = 1;
  for (int k = 0; k < NCOEF; k++) { f += field_coefs[k] * p; p *= x; }
  return f - drag * particle.v;
}

static void damp(void) { particle.v *= 0.98; }
static void no_damping(void) {}
void (*after_step)(void) = no_damping;
static void end_of_step(void) { after_step(); }

static void step(double dt) {  /* semi-implicit Euler */
  particle.v += dt * force(particle.x);
  particle.x += dt * particle.v;
  particle.t += dt;
  particle.nsteps++;
  end_of_step();
}

double flight(const double *coefs, double x0, double v0) {
  use_field(coefs);
  particle.x = x0;
  particle.v = v0;
  particle.t = 0;
  for (int k = 0; k < 25; k++) step(0.04);
  return particle.x * particle.x + 0.5 * particle.v;
}

int main(void) {
  after_step = damp;
  double c[NCOEF] = {0.2, -0.5, 0.1, -0.05}, fd[NCOEF];
  const double x0 = 0.7, v0 = -0.2;
  double cc[NCOEF];
  for (int k = 0; k < NCOEF; k++) cc[k] = c[k];
  for (int k = 0; k < NCOEF; k++) fd[k] = CENTRAL(flight(cc, x0, v0), cc[k], c[k]);
  double xv = x0, vv = v0;
  double fdx = CENTRAL(flight(c, xv, v0), xv, x0), fdv = CENTRAL(flight(c, x0, vv), vv, v0);

  for (int rep = 0; rep < 2; rep++) {
    double dc[NCOEF] = {0};
    v2 dxv;
    typedef v2 (*grad_fn)(void *, ...);
    dxv = ((grad_fn)__enzyme_autodiff)((void *)flight, enzyme_dup, c, dc, x0, v0);
    check("reverse dx0", dxv.d[0], fdx, 1e-6);
    check("reverse dv0", dxv.d[1], fdv, 1e-6);
    for (int k = 0; k < NCOEF; k++) check("reverse dcoef", dc[k], fd[k], 1e-6);
    double zero[NCOEF] = {0};
    check("forward dx0", __enzyme_fwddiff((void *)flight, c, zero, x0, 1.0, v0, 0.0), fdx, 1e-6);
    double dir[NCOEF] = {0};
    dir[2] = 1;
    check("forward dcoef", __enzyme_fwddiff((void *)flight, c, dir, x0, 0.0, v0, 0.0), fd[2], 1e-6);
  }
  check("the step counter counted", particle.nsteps >= 50 ? 1.0 : 0.0, 1.0, 0.0);

  double zero[NCOEF] = {0}, dir[NCOEF] = {0};
  dir[1] = 1;
  v2 both = __enzyme_fwddiff_v2((void *)flight, enzyme_width, 2, c, zero, dir, x0, 0.0, 0.0, v0, 1.0, 0.0);
  check("batch forward dv0", both.d[0], fdv, 1e-6);
  check("batch forward dcoef", both.d[1], fd[1], 1e-6);

  double s[NCOEF] = {0};
  aug_t aug = __enzyme_augmentfwd((void *)flight, enzyme_dup, c, s, enzyme_const, x0, enzyme_const, v0);
  flight(zero, 5.0, 1.0);  /* the globals change before the reverse sweep runs */
  __enzyme_reverse((void *)flight, enzyme_dup, c, s, enzyme_const, x0, enzyme_const, v0, 1.0, aug.tape);
  for (int k = 0; k < NCOEF; k++) check("split dcoef", s[k], fd[k], 1e-6);
  return finish();
}

#include "hunt.h"
/* Two-body orbit propagation with Kepler's equation solved by Newton iteration to a tolerance, vectors
   as a union of an array and named fields, hypot/atan2/cbrt/copysign, an early exit through goto when
   the orbit is not elliptic.  Objective: distance to a target point after time t.
   Inputs: initial position and velocity (dup), gravitational parameter mu (active). */
typedef union { double v[3]; struct { double x, y, z; } c; } vec3;

static double norm3(const vec3 *a) { return sqrt(a->c.x * a->c.x + a->c.y * a->c.y + a->c.z * a->c.z); }

double miss_distance(const double *state, double mu, double t, const double *target) {
  vec3 r, v;
  for (int i = 0; i < 3; i++) { r.v[i] = state[i]; v.v[i] = state[3 + i]; }
  double rn = norm3(&r), vn2 = v.c.x * v.c.x + v.c.y * v.c.y + v.c.z * v.c.z;
  double energy = 0.5 * vn2 - mu / rn;
  double result = NAN;
  if (energy >= 0) goto done; /* not an ellipse */
  {
    double a = -mu / (2 * energy);
    double n = sqrt(mu / (a * a * a));
    double rv = r.c.x * v.c.x + r.c.y * v.c.y + r.c.z * v.c.z;
    double ecosE0 = 1 - rn / a, esinE0 = rv / sqrt(mu * a);
    double e = hypot(ecosE0, esinE0);
    double E0 = atan2(esinE0, ecosE0);
    double M = E0 - esinE0 + n * t;
    double E = M + copysign(0.5 * e, sin(M));
    for (int it = 0; it < 50; it++) {
      double dE = (E - e * sin(E) - M) / (1 - e * cos(E));
      E -= dE;
      if (fabs(dE) < 1e-14) break;
    }
    double dEa = E - E0;
    double f = 1 - a / rn * (1 - cos(dEa));
    double g = t - (dEa - sin(dEa)) / n;
    vec3 rt;
    for (int i = 0; i < 3; i++) rt.v[i] = f * r.v[i] + g * v.v[i];
    vec3 d;
    for (int i = 0; i < 3; i++) d.v[i] = rt.v[i] - target[i];
    result = norm3(&d) + 0.0 * cbrt(a);
  }
done:
  return result;
}

int main(void) {
  double state[6] = {1.0, 0.1, 0.05, -0.05, 0.95, 0.2}, mu = 1.0, t = 2.3, target[3] = {-0.5, 0.6, 0.2};
  double fd[7], ad[7];
  for (int k = 0; k < 6; k++) fd[k] = HUNT_FD(miss_distance(state, mu, t, target), state[k]);
  fd[6] = HUNT_FD(miss_distance(state, mu, t, target), mu);
#ifdef MODE_REV
  double dstate[6] = {0};
  ad[6] = __enzyme_autodiff((void *)miss_distance, enzyme_dup, state, dstate, enzyme_out, mu, enzyme_const, t,
                            enzyme_const, target);
  for (int k = 0; k < 6; k++) ad[k] = dstate[k];
  hunt_check_vec("grad", ad, fd, 7);
#endif
#ifdef MODE_FWD
  double dstate[6] = {0};
  for (int k = 0; k < 6; k++) {
    dstate[k] = 1.0;
    ad[k] = __enzyme_fwddiff((void *)miss_distance, enzyme_dup, state, dstate, enzyme_dup, mu, 0.0, enzyme_const, t,
                             enzyme_const, target);
    dstate[k] = 0.0;
  }
  ad[6] = __enzyme_fwddiff((void *)miss_distance, enzyme_dup, state, dstate, enzyme_dup, mu, 1.0, enzyme_const, t,
                           enzyme_const, target);
  hunt_check_vec("grad", ad, fd, 7);
#endif
  return hunt_finish();
}

#include "hunt.h"
/* Satellite orbit with a J2 perturbation and atmospheric drag, written with a small vector library whose
   functions take and return structs by value (`vec3 v_add(vec3, vec3)`, 24-byte structs returned through
   memory, a 16-byte `vec2` returned in registers), a `state` struct of two vec3 passed and returned by
   value through an RK4 integrator, and compound literals.  Objective: final radial distance error and
   the in-plane angle via atan2 of a vec2 projection. */
typedef struct { double x, y, z; } vec3;
typedef struct { double u, v; } vec2;
typedef struct { vec3 r, v; } state;

static vec3 v_add(vec3 a, vec3 b) { return (vec3){a.x + b.x, a.y + b.y, a.z + b.z}; }
static vec3 v_scale(vec3 a, double s) { return (vec3){a.x * s, a.y * s, a.z * s}; }
static double v_dot(vec3 a, vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static double v_norm(vec3 a) { return sqrt(v_dot(a, a)); }
static vec2 v_project(vec3 a) { return (vec2){a.x, a.y}; }

typedef struct { double mu, j2, re, drag; } orbit_params;

static vec3 acceleration(vec3 r, vec3 v, const orbit_params *p) {
  double rn = v_norm(r), r2 = rn * rn;
  vec3 a = v_scale(r, -p->mu / (r2 * rn));
  double k = 1.5 * p->j2 * p->mu * p->re * p->re / (r2 * r2 * rn), zr2 = r.z * r.z / r2;
  vec3 j2acc = {k * r.x * (5 * zr2 - 1), k * r.y * (5 * zr2 - 1), k * r.z * (5 * zr2 - 3)};
  double rho = exp(-(rn - p->re) / 0.15);
  vec3 drag = v_scale(v, -p->drag * rho * v_norm(v));
  return v_add(v_add(a, j2acc), drag);
}

static state deriv(state s, const orbit_params *p) { return (state){s.v, acceleration(s.r, s.v, p)}; }
static state s_axpy(state s, double h, state d) { return (state){v_add(s.r, v_scale(d.r, h)), v_add(s.v, v_scale(d.v, h))}; }

static state rk4(state s, double h, const orbit_params *p) {
  state k1 = deriv(s, p), k2 = deriv(s_axpy(s, h / 2, k1), p), k3 = deriv(s_axpy(s, h / 2, k2), p);
  state k4 = deriv(s_axpy(s, h, k3), p);
  state out = s_axpy(s, h / 6, k1);
  out = s_axpy(out, h / 3, k2);
  out = s_axpy(out, h / 3, k3);
  return s_axpy(out, h / 6, k4);
}

double orbit_objective(const double *init, const orbit_params *p, int steps, double target_radius) {
  state s = {{init[0], init[1], init[2]}, {init[3], init[4], init[5]}};
  for (int i = 0; i < steps; i++) s = rk4(s, 0.02, p);
  vec2 q = v_project(s.r);
  double dr = v_norm(s.r) - target_radius;
  return dr * dr + 0.1 * atan2(q.v, q.u);
}

static double init[6] = {1.05, 0.0, 0.1, 0.0, 0.95, 0.15};
static orbit_params par = {1.0, 1.08e-3, 1.0, 0.02};

int main(void) {
  enum { STEPS = 150 };
  double fd[10], ad[10];
  for (int k = 0; k < 6; k++) fd[k] = HUNT_FD(orbit_objective(init, &par, STEPS, 1.1), init[k]);
  double *pp = &par.mu;
  for (int k = 0; k < 4; k++) {
    hunt_fd_step = fabs(pp[k]) < 1 ? 1e-4 * fabs(pp[k]) : 1e-4;
    fd[6 + k] = HUNT_FD(orbit_objective(init, &par, STEPS, 1.1), pp[k]);
  }
#ifdef MODE_REV
  double dinit[6] = {0};
  orbit_params dpar = {0};
  __enzyme_autodiff((void *)orbit_objective, enzyme_dup, init, dinit, enzyme_dup, &par, &dpar, enzyme_const, STEPS,
                    enzyme_const, 1.1);
  for (int k = 0; k < 6; k++) ad[k] = dinit[k];
  double *dp = &dpar.mu;
  for (int k = 0; k < 4; k++) ad[6 + k] = dp[k];
#endif
#ifdef MODE_FWD
  for (int k = 0; k < 10; k++) {
    double dinit[6] = {0};
    orbit_params dpar = {0};
    if (k < 6) dinit[k] = 1; else (&dpar.mu)[k - 6] = 1;
    ad[k] = __enzyme_fwddiff((void *)orbit_objective, enzyme_dup, init, dinit, enzyme_dup, &par, &dpar, enzyme_const,
                             STEPS, enzyme_const, 1.1);
  }
#endif
  for (int k = 6; k < 10; k++) { ad[k] *= pp[k - 6]; fd[k] *= pp[k - 6]; }
  hunt_check_vec("grad", ad, fd, 10);
  return hunt_finish();
}

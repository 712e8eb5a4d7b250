#include "hunt.h"
#include <stdarg.h>
/* Attitude dynamics of a rigid spacecraft: Euler's equations for the body rates with a gravity-gradient
   torque and a PD attitude controller, quaternion kinematics, classic RK4 on a state struct passed and
   returned by value (quaternion and vector typedef structs, a 3x3 inertia as a nested array), quaternion
   renormalised after every step, a variadic logger reporting the attitude error.  Objective: final
   pointing error (1 - |q . q_target|) plus rotational energy plus accumulated control effort.  Inputs:
   the principal inertias (dup), the initial body rates (dup) and the controller gain (active). */
typedef struct { double w, x, y, z; } quat;
typedef struct { double x, y, z; } vec3;
typedef struct { quat q; vec3 omega; double effort; } state;
typedef struct { double I[3][3]; double kp, kd, n_orbit; quat target; } craft;

static int log_level = 1;
static void logmsg(int level, const char *fmt, ...) {
  if (level > log_level) return;
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "[attitude] ");
  vfprintf(stderr, fmt, ap);
  va_end(ap);
}

static vec3 v3(double x, double y, double z) { vec3 r = {x, y, z}; return r; }
static vec3 vadd(vec3 a, vec3 b) { return v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static vec3 vscale(vec3 a, double s) { return v3(a.x * s, a.y * s, a.z * s); }
static vec3 cross(vec3 a, vec3 b) { return v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); }
static vec3 mat_vec(const double M[3][3], vec3 v) {
  return v3(M[0][0] * v.x + M[0][1] * v.y + M[0][2] * v.z, M[1][0] * v.x + M[1][1] * v.y + M[1][2] * v.z,
            M[2][0] * v.x + M[2][1] * v.y + M[2][2] * v.z);
}

static quat qmul(quat a, quat b) {
  quat r = {a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w};
  return r;
}
static quat qconj(quat a) { quat r = {a.w, -a.x, -a.y, -a.z}; return r; }
static quat qnormalize(quat a) {
  double n = sqrt(a.w * a.w + a.x * a.x + a.y * a.y + a.z * a.z);
  quat r = {a.w / n, a.x / n, a.y / n, a.z / n};
  return r;
}
static vec3 rotate_to_body(quat q, vec3 v) { /* q maps body to inertial: v_body = q* v q */
  quat p = {0, v.x, v.y, v.z};
  quat r = qmul(qmul(qconj(q), p), q);
  return v3(r.x, r.y, r.z);
}

static state derivative(const craft *c, state s) {
  /* gravity gradient: 3 n^2 (r x I r), r the nadir direction in body axes */
  vec3 nadir = rotate_to_body(s.q, v3(0, 0, 1));
  vec3 tau_gg = vscale(cross(nadir, mat_vec(c->I, nadir)), 3 * c->n_orbit * c->n_orbit);
  quat err = qmul(qconj(c->target), s.q);
  double sgn = err.w >= 0 ? 1.0 : -1.0;
  vec3 tau_c = vadd(vscale(v3(err.x, err.y, err.z), -2.0 * c->kp * sgn), vscale(s.omega, -c->kd));
  vec3 h = mat_vec(c->I, s.omega);
  vec3 rhs = vadd(vadd(tau_gg, tau_c), vscale(cross(s.omega, h), -1.0));
  state d;
  d.omega = v3(rhs.x / c->I[0][0], rhs.y / c->I[1][1], rhs.z / c->I[2][2]); /* principal axes */
  quat wq = {0, s.omega.x, s.omega.y, s.omega.z};
  d.q = qmul(s.q, wq);
  d.q.w *= 0.5; d.q.x *= 0.5; d.q.y *= 0.5; d.q.z *= 0.5;
  d.effort = tau_c.x * tau_c.x + tau_c.y * tau_c.y + tau_c.z * tau_c.z;
  return d;
}

static state axpy(state s, double h, state d) {
  state r;
  r.q.w = s.q.w + h * d.q.w; r.q.x = s.q.x + h * d.q.x; r.q.y = s.q.y + h * d.q.y; r.q.z = s.q.z + h * d.q.z;
  r.omega = vadd(s.omega, vscale(d.omega, h));
  r.effort = s.effort + h * d.effort;
  return r;
}

static state rk4(const craft *c, state s, double h) {
  state k1 = derivative(c, s);
  state k2 = derivative(c, axpy(s, h / 2, k1));
  state k3 = derivative(c, axpy(s, h / 2, k2));
  state k4 = derivative(c, axpy(s, h, k3));
  state r = s;
  r = axpy(r, h / 6, k1); r = axpy(r, h / 3, k2); r = axpy(r, h / 3, k3); r = axpy(r, h / 6, k4);
  r.q = qnormalize(r.q);
  return r;
}

double slew_cost(const double *inertia, const double *omega0, double kp, int steps) {
  craft c;
  memset(&c, 0, sizeof c);
  for (int i = 0; i < 3; i++) c.I[i][i] = inertia[i];
  c.kp = kp; c.kd = 2.0 * sqrt(kp * inertia[1]); c.n_orbit = 0.05;
  c.target = qnormalize((quat){cos(0.4), sin(0.4) * 0.6, 0.0, sin(0.4) * 0.8});
  state s = {{1, 0, 0, 0}, {omega0[0], omega0[1], omega0[2]}, 0.0};
  double h = 0.05;
  for (int k = 0; k < steps; k++) {
    s = rk4(&c, s, h);
    if ((k + 1) % 100 == 0) logmsg(2, "step %d |q.w| %.6f\n", k + 1, fabs(s.q.w));
  }
  quat err = qmul(qconj(c.target), s.q);
  double point = 1.0 - fabs(err.w);
  vec3 hb = mat_vec(c.I, s.omega);
  double energy = 0.5 * (s.omega.x * hb.x + s.omega.y * hb.y + s.omega.z * hb.z);
  logmsg(1, "pointing error %.3e, energy %.3e, effort %.3e\n", point, energy, s.effort);
  return point + energy + 1e-3 * s.effort;
}

enum { STEPS = 200 };
static double inertia[3] = {12.0, 9.0, 5.0}, omega0[3] = {0.05, -0.08, 0.12};
int main(void) {
  double kp = 0.6, fd[7], ad[7];
  printf("cost %.12g\n", slew_cost(inertia, omega0, kp, STEPS));
  log_level = 0;
  for (int i = 0; i < 3; i++) fd[i] = HUNT_FD(slew_cost(inertia, omega0, kp, STEPS), inertia[i]);
  for (int i = 0; i < 3; i++) fd[3 + i] = HUNT_FD(slew_cost(inertia, omega0, kp, STEPS), omega0[i]);
  fd[6] = HUNT_FD(slew_cost(inertia, omega0, kp, STEPS), kp);
  log_level = 1;
#ifdef MODE_REV
  double dI[3] = {0}, dw[3] = {0};
  ad[6] = __enzyme_autodiff((void *)slew_cost, enzyme_dup, inertia, dI, enzyme_dup, omega0, dw, enzyme_out, kp,
                            enzyme_const, STEPS);
  for (int i = 0; i < 3; i++) { ad[i] = dI[i]; ad[3 + i] = dw[i]; }
  hunt_check_vec("grad", ad, fd, 7);
#endif
#ifdef MODE_FWD
  double dI[3] = {0}, dw[3] = {0};
  for (int i = 0; i < 6; i++) {
    double *slot = i < 3 ? &dI[i] : &dw[i - 3];
    *slot = 1.0;
    ad[i] = __enzyme_fwddiff((void *)slew_cost, enzyme_dup, inertia, dI, enzyme_dup, omega0, dw, enzyme_const, kp,
                             enzyme_const, STEPS);
    *slot = 0.0;
  }
  ad[6] = __enzyme_fwddiff((void *)slew_cost, enzyme_dup, inertia, dI, enzyme_dup, omega0, dw, enzyme_dup, kp, 1.0,
                           enzyme_const, STEPS);
  hunt_check_vec("grad", ad, fd, 7);
#endif
  return hunt_finish();
}

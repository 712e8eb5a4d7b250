#define _GNU_SOURCE
#include "check.h"
/* glibc's sincos(x, &s, &c) (a GNU extension clang keeps as a call at every level): a planar
   rotation chain (a robot arm's forward kinematics) and a Kepler-orbit position solved by a few
   Newton steps, in double and single precision. */
typedef struct { double d[3]; } Grad3;

/* End-effector distance from a target for a 3-link arm with joint angles q[0..2]. */
double arm(const double *q, const double *len) {
  double x = 0, y = 0, angle = 0;
  for (int i = 0; i < 3; i++) {
    double s, c;
    angle += q[i];
    sincos(angle, &s, &c);
    x += len[i] * c;
    y += len[i] * s;
  }
  double dx = x - 1.2, dy = y - 0.7;
  return dx * dx + dy * dy;
}

/* Kepler: E - e sin E = M, position (cos E - e, sqrt(1-e^2) sin E). */
double kepler(double M, double e) {
  double E = M, s, c;
  for (int it = 0; it < 6; it++) {
    sincos(E, &s, &c);
    E -= (E - e * s - M) / (1 - e * c);
  }
  sincos(E, &s, &c);
  return (c - e) * (c - e) + 2.0 * sqrt(1 - e * e) * s;
}

double rotate_f(double t, double r) {  /* single precision inside */
  float s, c, acc = 0;
  for (int k = 1; k <= 4; k++) {
    sincosf((float)(t * k), &s, &c);
    acc += (float)r * (s * c + 0.5f * c);
  }
  return acc;
}

typedef struct { double da, db; } Pair;
typedef struct { double d[2]; } v2;
extern int enzyme_width;
v2 __enzyme_fwddiff_v2(void *, ...);

static double arm_at(const double *q, const double *len, int i, double v) {
  double qq[3] = {q[0], q[1], q[2]};
  qq[i] = v;
  return arm(qq, len);
}

int main(void) {
  double q[3] = {0.3, -0.5, 0.9}, dq[3] = {0, 0, 0}, len[3] = {1.0, 0.8, 0.5}, x;
  __enzyme_autodiff((void *)arm, enzyme_dup, q, dq, enzyme_const, len);
  for (int i = 0; i < 3; i++) {
    double t[3] = {0, 0, 0};
    t[i] = 1;
    check("d arm/dq", dq[i], CENTRAL(arm_at(q, len, i, x), x, q[i]), 1e-6);
    check("forward d arm/dq", __enzyme_fwddiff((void *)arm, enzyme_dup, q, t, enzyme_const, len), dq[i], 1e-10);
  }
  Pair (*rev2)(void *, double, double) = (Pair (*)(void *, double, double))__enzyme_autodiff;
  double M = 1.1, e = 0.3;
  Pair k = rev2((void *)kepler, M, e);
  check("d kepler/dM", k.da, CENTRAL(kepler(x, e), x, M), 1e-6);
  check("d kepler/de", k.db, CENTRAL(kepler(M, x), x, e), 1e-6);
  v2 both = __enzyme_fwddiff_v2((void *)kepler, enzyme_width, 2, M, 1.0, 0.0, e, 0.0, 1.0);
  check("batch forward kepler M", both.d[0], k.da, 1e-10);
  check("batch forward kepler e", both.d[1], k.db, 1e-10);
  double v, t = 0.4, r = 1.7;
  Pair f = rev2((void *)rotate_f, t, r);
  check("d rotate_f/dt", f.da, CENTRAL_H(rotate_f(v, r), v, t, 1e-3), 3e-3);
  check("d rotate_f/dr", f.db, CENTRAL_H(rotate_f(t, v), v, r, 1e-3), 3e-3);
  check("forward rotate_f t", __enzyme_fwddiff((void *)rotate_f, t, 1.0, r, 0.0), f.da, 1e-5);
  return finish();
}

#include "hunt.h"
/* Gravitational N-body, array of structs, Plummer softening, kick-drift-kick leapfrog.
   Objective: total energy drift plus the position of body 0 after the run; inputs: masses and the
   initial state (positions and velocities inside the structs). */
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);

typedef struct {
  double x[3], v[3], a[3];
  double m;
} Body;

static void accelerations(Body *b, int n, double eps2) {
  for (int i = 0; i < n; i++) b[i].a[0] = b[i].a[1] = b[i].a[2] = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      double d[3], r2 = eps2;
      for (int k = 0; k < 3; k++) { d[k] = b[j].x[k] - b[i].x[k]; r2 += d[k] * d[k]; }
      double inv = 1.0 / (r2 * sqrt(r2));
      for (int k = 0; k < 3; k++) {
        b[i].a[k] += b[j].m * inv * d[k];
        b[j].a[k] -= b[i].m * inv * d[k];
      }
    }
}

static double energy(const Body *b, int n, double eps2) {
  double e = 0.0;
  for (int i = 0; i < n; i++) {
    e += 0.5 * b[i].m * (b[i].v[0] * b[i].v[0] + b[i].v[1] * b[i].v[1] + b[i].v[2] * b[i].v[2]);
    for (int j = i + 1; j < n; j++) {
      double r2 = eps2;
      for (int k = 0; k < 3; k++) r2 += (b[j].x[k] - b[i].x[k]) * (b[j].x[k] - b[i].x[k]);
      e -= b[i].m * b[j].m / sqrt(r2);
    }
  }
  return e;
}

double simulate(Body *bodies, int n, double dt, int nsteps, double eps) {
  double eps2 = eps * eps, e0 = energy(bodies, n, eps2);
  accelerations(bodies, n, eps2);
  for (int s = 0; s < nsteps; s++) {
    for (Body *b = bodies; b < bodies + n; b++)
      for (int k = 0; k < 3; k++) { b->v[k] += 0.5 * dt * b->a[k]; b->x[k] += dt * b->v[k]; }
    accelerations(bodies, n, eps2);
    for (Body *b = bodies; b < bodies + n; b++)
      for (int k = 0; k < 3; k++) b->v[k] += 0.5 * dt * b->a[k];
  }
  double drift = energy(bodies, n, eps2) - e0;
  return drift * 10.0 + bodies[0].x[0] + 0.5 * bodies[0].x[1];
}

enum { N = 5, NSTEPS = 40, NP = 6 };
static Body init[N], work[N];
static double dt = 0.01, eps = 0.05;

static double run(void) {
  memcpy(work, init, sizeof work);
  return simulate(work, N, dt, NSTEPS, eps);
}

/* probe q: 0..2 position/velocity/mass of some bodies, the time step */
static double *probe(Body *b, int q) {
  switch (q) {
  case 0: return &b[0].x[0];
  case 1: return &b[2].x[1];
  case 2: return &b[3].v[2];
  case 3: return &b[1].m;
  case 4: return &b[4].x[2];
  default: return &b[4].m;
  }
}

int main(void) {
  for (int i = 0; i < N; i++) {
    double t = 2 * M_PI * i / N;
    init[i].x[0] = cos(t); init[i].x[1] = sin(t); init[i].x[2] = 0.1 * sin(3 * t);
    init[i].v[0] = -0.5 * sin(t); init[i].v[1] = 0.5 * cos(t); init[i].v[2] = 0.05 * cos(2 * t);
    init[i].m = 1.0 + 0.1 * i;
  }
  double fd[NP + 1], ad[NP + 1];
  for (int q = 0; q < NP; q++) fd[q] = HUNT_FD(run(), *probe(init, q));
  fd[NP] = HUNT_FD(run(), dt);
#ifdef MODE_REV
  Body d[N];
  memset(d, 0, sizeof d);
  memcpy(work, init, sizeof work);
  ad[NP] = __enzyme_autodiff((void *)simulate, enzyme_dup, work, d, enzyme_const, N, dt, enzyme_const, NSTEPS,
                             enzyme_const, eps);
  for (int q = 0; q < NP; q++) ad[q] = *probe(d, q);
  hunt_check_vec("grad", ad, fd, NP + 1);
#endif
#ifdef MODE_FWD
  Body d[N];
  for (int q = 0; q <= NP; q++) {
    memset(d, 0, sizeof d);
    if (q < NP) *probe(d, q) = 1.0;
    memcpy(work, init, sizeof work);
    ad[q] = __enzyme_fwddiff((void *)simulate, enzyme_dup, work, d, enzyme_const, N, dt, q == NP ? 1.0 : 0.0,
                             enzyme_const, NSTEPS, enzyme_const, eps);
  }
  hunt_check_vec("grad", ad, fd, NP + 1);
#endif
#ifdef MODE_BATCH
  Body da[N], db[N];
  for (int q = 0; q < NP; q += 2) {
    memset(da, 0, sizeof da); memset(db, 0, sizeof db);
    *probe(da, q) = 1.0; *probe(db, q + 1) = 1.0;
    memcpy(work, init, sizeof work);
    v2 t = __enzyme_fwddiff_v2((void *)simulate, enzyme_width, 2, enzyme_dup, work, da, db, enzyme_const, N, dt, 0.0,
                               0.0, enzyme_const, NSTEPS, enzyme_const, eps);
    ad[q] = t.d[0]; ad[q + 1] = t.d[1];
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_SPLIT
  Body d[N];
  memset(d, 0, sizeof d);
  memcpy(work, init, sizeof work);
  aug_t r = __enzyme_augmentfwd((void *)simulate, enzyme_dup, work, d, enzyme_const, N, dt, enzyme_const, NSTEPS,
                                enzyme_const, eps);
  hunt_check("primal", r.primal, run());
  ad[NP] = __enzyme_reverse((void *)simulate, enzyme_dup, work, d, enzyme_const, N, dt, enzyme_const, NSTEPS,
                            enzyme_const, eps, 1.0, r.tape);
  for (int q = 0; q < NP; q++) ad[q] = *probe(d, q);
  hunt_check_vec("grad", ad, fd, NP + 1);
#endif
  return hunt_finish();
}

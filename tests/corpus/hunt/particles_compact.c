#include "hunt.h"
/* Particle system in a box, the C way: a growable array of struct Particle (realloc doubling), particles
   injected at the left wall each step, pushed by a drag force towards a flow velocity, and particles that
   leave through the right wall removed by compacting the array with memmove.  A snapshot of the live
   particles is copied with memcpy(n * sizeof(Particle)).  Objective: kinetic energy of the snapshot plus the
   mass-weighted mean position.  Inputs: flow velocity, drag coefficient, injection speed. */
typedef struct {
  double x[3], v[3];
  int cell;
  double m;
} Particle;

typedef struct { Particle *p; size_t n, cap; } Swarm;

static void add_particle(Swarm *s, const Particle *q) {
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 2;
    s->p = realloc(s->p, s->cap * sizeof(Particle));
  }
  memcpy(&s->p[s->n], q, sizeof(Particle));
  s->n++;
}

static void remove_particle(Swarm *s, size_t i) {
  memmove(&s->p[i], &s->p[i + 1], (s->n - i - 1) * sizeof(Particle));
  s->n--;
}

double swarm_energy(const double *flow, double drag, double inject_speed, int steps) {
  Swarm s = {NULL, 0, 0};
  const double dt = 0.05, L = 1.0;
  for (int k = 0; k < steps; k++) {
    Particle q;
    q.x[0] = 0.0; q.x[1] = 0.1 * (k % 5); q.x[2] = 0.05 * (k % 3);
    q.v[0] = inject_speed * (1.0 + 0.1 * (k % 4)); q.v[1] = 0.0; q.v[2] = 0.01 * k;
    q.m = 1.0 + 0.05 * k; q.cell = 0;
    add_particle(&s, &q);
    for (size_t i = 0; i < s.n; i++) {
      Particle *p = &s.p[i];
      for (int d = 0; d < 3; d++) {
        double a = -drag / p->m * (p->v[d] - flow[d]);
        p->v[d] += dt * a;
        p->x[d] += dt * p->v[d];
      }
      p->cell = (int)(p->x[0] * 4.0);
    }
    for (size_t i = 0; i < s.n;) {
      if (s.p[i].x[0] > L) remove_particle(&s, i);
      else i++;
    }
  }
  Particle *snap = malloc(s.n * sizeof(Particle));
  memcpy(snap, s.p, s.n * sizeof(Particle));
  free(s.p);
  double ke = 0.0, mx = 0.0, mt = 0.0;
  for (size_t i = 0; i < s.n; i++) {
    for (int d = 0; d < 3; d++) ke += 0.5 * snap[i].m * snap[i].v[d] * snap[i].v[d];
    mx += snap[i].m * (snap[i].x[0] + snap[i].x[1] + 0.1 * snap[i].cell);
    mt += snap[i].m;
  }
  free(snap);
  return ke + mx / mt;
}

enum { NP = 5 };
static double flow[3] = {0.8, 0.1, -0.05}, drag = 0.7, vin = 0.9;

int main(void) {
  int steps = 40;
  double *prim[NP] = {&flow[0], &flow[1], &flow[2], &drag, &vin};
  double fd[NP], ad[NP];
  hunt_fd_step = 1e-7;
  for (int q = 0; q < NP; q++) fd[q] = HUNT_FD(swarm_energy(flow, drag, vin, steps), *prim[q]);
#ifdef MODE_REV
  typedef struct { double a, b; } g2;
  double dflow[3] = {0};
  g2 r = ((g2(*)(void *, ...))__enzyme_autodiff)((void *)swarm_energy, enzyme_dup, flow, dflow, enzyme_out, drag,
                                                 enzyme_out, vin, enzyme_const, steps);
  for (int d = 0; d < 3; d++) ad[d] = dflow[d];
  ad[3] = r.a; ad[4] = r.b;
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < NP; q++) {
    double dflow[3] = {0};
    if (q < 3) dflow[q] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)swarm_energy, enzyme_dup, flow, dflow, drag, q == 3 ? 1.0 : 0.0, vin,
                             q == 4 ? 1.0 : 0.0, enzyme_const, steps);
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

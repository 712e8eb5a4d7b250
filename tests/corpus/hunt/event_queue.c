#include "hunt.h"
/* Discrete-event simulation of a leaky reservoir: a list of inflow events {time, kind, amount} generated from
   the parameters, sorted by time with libc qsort (a struct comparator), then processed in order with
   exponential decay between events.  Events of kind 2 are doubled pulses.  Objective: the storage level at
   the end plus the integral of the level.  Inputs: decay rate, pulse amplitude, pulse spacing. */
typedef struct {
  double t;
  int kind;
  double amount;
  short tag;
} Event;

static int by_time(const void *a, const void *b) {
  const Event *x = a, *y = b;
  return (x->t > y->t) - (x->t < y->t);
}

double reservoir(const double *p, int nev) {
  double rate = p[0], amp = p[1], spacing = p[2];
  Event *ev = malloc(nev * sizeof(Event));
  for (int i = 0; i < nev; i++) {
    /* events generated out of order: two interleaved pulse trains */
    int j = (i * 7) % nev;
    ev[i].t = spacing * j + 0.3 * (j % 3) * spacing;
    ev[i].kind = j % 3;
    ev[i].amount = amp * (1.0 + 0.1 * j);
    ev[i].tag = (short)i;
  }
  qsort(ev, nev, sizeof(Event), by_time);
  double level = 0.0, t = 0.0, integral = 0.0;
  for (int i = 0; i < nev; i++) {
    double dt = ev[i].t - t;
    double decay = exp(-rate * dt);
    integral += level * (1.0 - decay) / rate;
    level *= decay;
    level += ev[i].kind == 2 ? 2.0 * ev[i].amount : ev[i].amount;
    t = ev[i].t;
  }
  free(ev);
  return level + 0.1 * integral;
}

enum { NP = 3, NEV = 13 };
static double p[NP] = {0.4, 1.3, 0.7};

int main(void) {
  double fd[NP], ad[NP];
  for (int q = 0; q < NP; q++) fd[q] = HUNT_FD(reservoir(p, NEV), p[q]);
  double dp[NP] = {0};
#ifdef MODE_REV
  __enzyme_autodiff((void *)reservoir, enzyme_dup, p, dp, enzyme_const, NEV);
  hunt_check_vec("grad", dp, fd, NP);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < NP; q++) {
    dp[q] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)reservoir, enzyme_dup, p, dp, enzyme_const, NEV);
    dp[q] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

/* Arrays of structs mixing int and double fields moved as whole records: a ghost row copied by struct
   assignment (the copy was once typed integer-only through `int nbr[4]` indexed inside the record, and
   its adjoints were dropped), qsort of event records, realloc growth with memmove compaction, and a
   constant memcpy of more than 512 bytes of records.  Every derivative against central differences,
   in reverse and forward mode. */
#include <string.h>
#include "check.h"

typedef struct { int nbr[4]; double u, flux; } Cell;

/* 1-D periodic diffusion with one ghost cell at each end, copied from the other end each step. */
double ghost_diffusion(const double *u0, int steps) {
  enum { N = 5 };
  Cell *c = calloc(N + 2, sizeof(Cell));
  for (int i = 1; i <= N; i++) {
    c[i].u = u0[i - 1];
    c[i].nbr[0] = i - 1; c[i].nbr[1] = i + 1; c[i].nbr[2] = c[i].nbr[3] = i;
  }
  for (int s = 0; s < steps; s++) {
    c[0] = c[N];
    c[N + 1] = c[1];
    for (int i = 1; i <= N; i++) {
      double lap = 0.0;
      for (int q = 0; q < 4; q++) lap += c[c[i].nbr[q]].u - c[i].u;
      c[i].flux = 0.2 * lap;
    }
    for (int i = 1; i <= N; i++) c[i].u += c[i].flux;
  }
  double e = 0.0;
  for (int i = 1; i <= N; i++) e += (i + 1) * c[i].u * c[i].u;
  free(c);
  return e;
}

typedef struct { double t; int kind; double amount; short tag; } Event;

static int by_time(const void *a, const void *b) {
  const Event *x = a, *y = b;
  return (x->t > y->t) - (x->t < y->t);
}

/* Decaying level fed by events sorted by time. */
double sorted_events(const double *p, int n) {
  Event *ev = malloc(n * sizeof(Event));
  for (int i = 0; i < n; i++) {
    int j = (i * 3) % n;
    ev[i].t = p[1] * j + 0.1 * (j % 2);
    ev[i].kind = j % 2;
    ev[i].amount = p[0] * (1.0 + 0.2 * j);
    ev[i].tag = (short)i;
  }
  qsort(ev, n, sizeof(Event), by_time);
  double level = 0.0, t = 0.0;
  for (int i = 0; i < n; i++) {
    level = level * exp(-0.5 * (ev[i].t - t)) + (ev[i].kind ? 2.0 : 1.0) * ev[i].amount;
    t = ev[i].t;
  }
  free(ev);
  return level;
}

typedef struct { double x[2], v[2]; int cell; double m; } Particle;
typedef struct { Particle *p; size_t n, cap; } Swarm;

static void swarm_add(Swarm *s, Particle q) {
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 1;
    s->p = realloc(s->p, s->cap * sizeof(Particle));
  }
  s->p[s->n++] = q;
}

/* Particles injected, drifted, and removed past x = 1 by compacting the array with memmove. */
double swarm(const double *p, int steps) {
  Swarm s = {NULL, 0, 0};
  for (int k = 0; k < steps; k++) {
    Particle q = {{0.0, 0.1 * k}, {p[0] * (1.0 + 0.1 * (k % 3)), p[1]}, 0, 1.0 + 0.1 * k};
    swarm_add(&s, q);
    for (size_t i = 0; i < s.n; i++) {
      for (int d = 0; d < 2; d++) s.p[i].x[d] += 0.3 * s.p[i].v[d];
      s.p[i].cell = (int)(4.0 * s.p[i].x[0]);
    }
    for (size_t i = 0; i < s.n;) {
      if (s.p[i].x[0] > 1.0) {
        memmove(&s.p[i], &s.p[i + 1], (s.n - i - 1) * sizeof(Particle));
        s.n--;
      } else {
        i++;
      }
    }
  }
  double e = 0.0;
  for (size_t i = 0; i < s.n; i++) e += s.p[i].m * (s.p[i].x[0] * s.p[i].x[0] + s.p[i].x[1] + 0.01 * s.p[i].cell);
  free(s.p);
  return e;
}

/* 24 records of 32 bytes (768 bytes) copied with one memcpy of constant size. */
double big_copy(const double *u0) {
  enum { M = 24 };
  Cell a[M], b[M];
  for (int i = 0; i < M; i++) {
    a[i].u = u0[i % 3] * (i + 1);
    a[i].flux = u0[(i + 1) % 3];
    for (int q = 0; q < 4; q++) a[i].nbr[q] = (i + q) % M;
  }
  memcpy(b, a, sizeof a);
  double e = 0.0;
  for (int i = 0; i < M; i++) e += b[i].u * b[b[i].nbr[1]].flux;
  return e;
}

/* Reverse and forward derivatives of f(x, arg) in each of x[0..n) against central differences (a macro:
   the function handed to __enzyme_* must be known at compile time). */
#define CHECK_GRADIENT(name, f, x, n, arg) do { double _g[8] = {0}, _dx[8] = {0}; char _w[64]; \
  __enzyme_autodiff((void *)f, enzyme_dup, x, _g, enzyme_const, arg); \
  for (int _k = 0; _k < (n); _k++) { \
    double _fd = CENTRAL(f(x, arg), x[_k], x[_k]); \
    snprintf(_w, sizeof _w, "%s reverse d%d", name, _k); check(_w, _g[_k], _fd, 1e-6); \
    _dx[_k] = 1.0; snprintf(_w, sizeof _w, "%s forward d%d", name, _k); \
    check(_w, __enzyme_fwddiff((void *)f, enzyme_dup, x, _dx, enzyme_const, arg), _fd, 1e-6); _dx[_k] = 0.0; \
  } } while (0)

static double big_copy_n(const double *u0, int unused) { (void)unused; return big_copy(u0); }

int main(void) {
  double u0[5] = {0.3, 0.7, -0.2, 0.5, 0.1};
  CHECK_GRADIENT("ghost_diffusion", ghost_diffusion, u0, 5, 3);
  double p[2] = {1.3, 0.7};
  CHECK_GRADIENT("sorted_events", sorted_events, p, 2, 7);
  double q[2] = {0.35, 0.05};
  CHECK_GRADIENT("swarm", swarm, q, 2, 6);
  double w[3] = {0.4, -0.3, 0.9};
  CHECK_GRADIENT("big_copy", big_copy_n, w, 3, 0);
  return finish();
}

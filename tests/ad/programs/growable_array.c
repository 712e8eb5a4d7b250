#include "check.h"
/* A growable array the usual C way: a struct {data, len, cap} whose buffer an out-of-line push() grows with
   realloc, appending a 24-byte struct passed by value (copied into the buffer with memcpy) and, in a second
   variant, through a pointer field.  The buffer's address lives in the struct, so its elements are read back
   through a reloaded pointer: the reverse sweep must still move every element's adjoint when realloc moves
   the buffer (it used to move none, losing all elements appended before the last growth).  Checked against
   central differences and forward mode. */
typedef struct { double t, x, v; } Sample;
typedef struct { Sample *data; size_t len, cap; } Trajectory;

__attribute__((noinline)) static void push(Trajectory *tr, Sample s) {
  if (tr->len == tr->cap) {
    tr->cap = tr->cap ? 2 * tr->cap : 2;
    tr->data = realloc(tr->data, tr->cap * sizeof(Sample));
  }
  tr->data[tr->len++] = s;
}

/* Damped oscillator, semi-implicit Euler, every state recorded; the objective sums over the record. */
double recorded(const double *p, int n) {
  Trajectory tr = {NULL, 0, 0};
  double x = p[0], v = p[1], h = 0.1;
  for (int i = 0; i < n; i++) {
    v -= h * (p[2] * x + 0.3 * v);
    x += h * v;
    push(&tr, (Sample){i * h, x, v});
  }
  double s = 0.0;
  for (size_t i = 0; i < tr.len; i++) s += tr.data[i].x * tr.data[i].x + 0.5 * tr.data[i].v * tr.data[i].t;
  free(tr.data);
  return s;
}

typedef struct { Trajectory *log; double scale; } Recorder;

__attribute__((noinline)) static void record(Recorder *r, double x) {
  push(r->log, (Sample){0.0, r->scale * x, x * x});
}

/* The trajectory reached through a pointer held in another struct. */
double through_recorder(const double *p, int n) {
  Trajectory tr = {NULL, 0, 0};
  Recorder r = {&tr, 2.0};
  double x = p[0];
  for (int i = 0; i < n; i++) {
    x = x * p[1] + 0.1;
    record(&r, x);
  }
  double s = 0.0;
  for (size_t i = 0; i < tr.len; i++) s += tr.data[i].x + tr.data[i].v;
  free(tr.data);
  return s;
}

enum { N = 9, P = 3 };

int main(void) {
  double p[P] = {1.0, 0.2, 4.0};
  for (int n = 1; n <= N; n += 4) {
    double dp[P] = {0};
    __enzyme_autodiff((void *)recorded, enzyme_dup, p, dp, enzyme_const, n);
    for (int k = 0; k < P; k++) {
      double q[P] = {p[0], p[1], p[2]}, t[P] = {0};
      t[k] = 1.0;
      check("recorded central", dp[k], CENTRAL(recorded(q, n), q[k], p[k]), 1e-6);
      check("recorded forward", __enzyme_fwddiff((void *)recorded, enzyme_dup, p, t, enzyme_const, n), dp[k], 1e-12);
    }
    double dq[2] = {0}, q0[2] = {0.7, 0.9};
    __enzyme_autodiff((void *)through_recorder, enzyme_dup, q0, dq, enzyme_const, n);
    for (int k = 0; k < 2; k++) {
      double q[2] = {q0[0], q0[1]};
      check("through_recorder central", dq[k], CENTRAL(through_recorder(q, n), q[k], q0[k]), 1e-6);
    }
  }
  return finish();
}

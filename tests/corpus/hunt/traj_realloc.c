#include "hunt.h"
/* A trajectory recorder as people write it in C: a growable array (capacity doubling with realloc)
   of structs {t, x, v} appended at every accepted step of a damped oscillator integrated with a
   step size that adapts to the velocity; the objective integrates x^2 over the recorded trajectory
   by the trapezoid rule and adds the final energy.  Inputs: stiffness, damping, initial state. */
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);

typedef struct { double t, x, v; } Sample;
typedef struct { Sample *data; size_t len, cap; } Trajectory;

static void push(Trajectory *tr, Sample s) {
  if (tr->len == tr->cap) {
    tr->cap = tr->cap ? 2 * tr->cap : 4;
    tr->data = realloc(tr->data, tr->cap * sizeof(Sample));
  }
  tr->data[tr->len++] = s;
}

double record_and_integrate(const double *params, const double *state0, double t_end) {
  double k = params[0], c = params[1];
  double x = state0[0], v = state0[1], t = 0.0;
  Trajectory tr = {NULL, 0, 0};
  push(&tr, (Sample){t, x, v});
  while (t < t_end) {
    double h = 0.02 / (1.0 + 0.5 * fabs(v));
    if (t + h > t_end) h = t_end - t;
    /* semi-implicit Euler */
    v += h * (-k * x - c * v);
    x += h * v;
    t += h;
    push(&tr, (Sample){t, x, v});
  }
  double integral = 0.0;
  for (size_t i = 1; i < tr.len; i++)
    integral += 0.5 * (tr.data[i].t - tr.data[i - 1].t) * (tr.data[i].x * tr.data[i].x + tr.data[i - 1].x * tr.data[i - 1].x);
  Sample last = tr.data[tr.len - 1];
  free(tr.data);
  return integral + 0.5 * (last.v * last.v + k * last.x * last.x);
}

enum { NP = 4 };
static double params[2] = {4.0, 0.3}, state0[2] = {1.0, 0.1};

int main(void) {
  double t_end = 2.0;
  double *prim[NP] = {&params[0], &params[1], &state0[0], &state0[1]};
  double fd[NP], ad[NP];
  hunt_fd_step = 1e-7; /* the number of steps is piecewise constant */
  for (int q = 0; q < NP; q++) fd[q] = HUNT_FD(record_and_integrate(params, state0, t_end), *prim[q]);
  double dparams[2] = {0}, dstate[2] = {0};
  double *shad[NP] = {&dparams[0], &dparams[1], &dstate[0], &dstate[1]};
#ifdef MODE_REV
  __enzyme_autodiff((void *)record_and_integrate, enzyme_dup, params, dparams, enzyme_dup, state0, dstate, enzyme_const,
                    t_end);
  for (int q = 0; q < NP; q++) ad[q] = *shad[q];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < NP; q++) {
    *shad[q] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)record_and_integrate, enzyme_dup, params, dparams, enzyme_dup, state0, dstate,
                             enzyme_const, t_end);
    *shad[q] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_BATCH
  double dparams2[2] = {0}, dstate2[2] = {0};
  dparams[0] = 1.0; dstate2[1] = 1.0;
  v2 t = __enzyme_fwddiff_v2((void *)record_and_integrate, enzyme_width, 2, enzyme_dup, params, dparams, dparams2,
                             enzyme_dup, state0, dstate, dstate2, enzyme_const, t_end);
  ad[0] = t.d[0]; ad[1] = t.d[1];
  double fd2[2] = {fd[0], fd[3]};
  hunt_check_vec("batch", ad, fd2, 2);
#endif
#ifdef MODE_SPLIT
  aug_t r = __enzyme_augmentfwd((void *)record_and_integrate, enzyme_dup, params, dparams, enzyme_dup, state0, dstate,
                                enzyme_const, t_end);
  hunt_check("primal", r.primal, record_and_integrate(params, state0, t_end));
  __enzyme_reverse((void *)record_and_integrate, enzyme_dup, params, dparams, enzyme_dup, state0, dstate, enzyme_const,
                   t_end, 1.0, r.tape);
  for (int q = 0; q < NP; q++) ad[q] = *shad[q];
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

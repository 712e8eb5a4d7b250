#include "check.h"
/* Split reverse mode with the tape in the caller's memory: __enzyme_augmentsize says how many bytes,
   enzyme_allocated, size, enzyme_tape, ptr hand them to __enzyme_augmentfwd and __enzyme_reverse (before the
   arguments or after them).  Also the primal result declared before the tape, { double, void * }.
   Checked against __enzyme_autodiff, an analytic formula and central differences. */
extern int enzyme_allocated, enzyme_tape;
typedef struct { double primal; void *tape; } primal_first_t;
unsigned long __enzyme_augmentsize(void *, ...);
double __enzyme_augmentfwd(void *, ...);              /* with a caller tape: just the primal result */
void __enzyme_augmentfwd_void(void *, ...);
primal_first_t __enzyme_augmentfwd_pf(void *, ...);
double __enzyme_reverse(void *, ...);
void __enzyme_reverse_void(void *, ...);

/* A damped oscillator stepped in place: the reverse sweep needs the states each step overwrote. */
void step_all(double *state, double k, int steps) {
  for (int i = 0; i < steps; i++) {
    double x = state[0], v = state[1];
    state[1] = v - 0.1 * (k * sin(x) + 0.3 * v);
    state[0] = x + 0.1 * state[1];
  }
}

/* Energy after the steps; overwrites state. */
double energy(double *state, double k, int steps) {
  step_all(state, k, steps);
  return 0.5 * state[1] * state[1] + k * (1 - cos(state[0]));
}

static double energy_of_k(double x0, double v0, double k, int steps) {
  double s[2] = {x0, v0};
  return energy(s, k, steps);
}

enum { STEPS = 25 };

int main(void) {
  const double x0 = 0.8, v0 = -0.2, k = 1.7;
  unsigned long need = __enzyme_augmentsize((void *)energy, enzyme_dup, enzyme_out, enzyme_const);
  check("size is positive", need > 0, 1.0, 0.0);

  /* Caller tape on the stack, markers after the arguments. */
  char tape[256];
  if (need > sizeof tape) { printf("tape needs %lu bytes\n", need); return 1; }
  double s[2] = {x0, v0}, ds[2] = {0, 0};
  double e = __enzyme_augmentfwd((void *)energy, enzyme_dup, s, ds, enzyme_out, k, enzyme_const, STEPS,
                                 enzyme_allocated, need, enzyme_tape, tape);
  check("energy primal", e, energy_of_k(x0, v0, k, STEPS), 1e-14);
  s[0] = s[1] = 99.0;  /* memory changes between the sweeps */
  double dk = __enzyme_reverse((void *)energy, enzyme_dup, s, ds, enzyme_out, k, enzyme_const, STEPS, 1.0,
                               enzyme_allocated, need, enzyme_tape, tape);

  double sc[2] = {x0, v0}, dsc[2] = {0, 0};
  double dk_combined = __enzyme_autodiff((void *)energy, enzyme_dup, sc, dsc, enzyme_out, k, enzyme_const, STEPS);
  check("dk split vs combined", dk, dk_combined, 1e-13);
  check("dx0 split vs combined", ds[0], dsc[0], 1e-13);
  check("dv0 split vs combined", ds[1], dsc[1], 1e-13);
  double kv, xv, vv;
  check("dk central", dk, CENTRAL(energy_of_k(x0, v0, kv, STEPS), kv, k), 1e-6);
  check("dx0 central", ds[0], CENTRAL(energy_of_k(xv, v0, k, STEPS), xv, x0), 1e-6);
  check("dv0 central", ds[1], CENTRAL(energy_of_k(x0, vv, k, STEPS), vv, v0), 1e-6);

  /* The same tape memory used again, from the heap, markers before the arguments; a void function. */
  void *heap = malloc(need);
  double t[2] = {x0, v0}, dt[2] = {0, 0};
  __enzyme_augmentfwd_void((void *)step_all, enzyme_allocated, need, enzyme_tape, heap,
                           enzyme_dup, t, dt, enzyme_const, k, enzyme_const, STEPS);
  double t_end[2] = {t[0], t[1]};
  dt[0] = 0.0; dt[1] = 1.0;  /* the adjoint of the final velocity */
  __enzyme_reverse_void((void *)step_all, enzyme_allocated, need, enzyme_tape, heap,
                        enzyme_dup, t, dt, enzyme_const, k, enzyme_const, STEPS);
  free(heap);
  double u[2], pv;
  check("final velocity", t_end[1], (u[0] = x0, u[1] = v0, step_all(u, k, STEPS), u[1]), 1e-14);
  check("d v_end / d v0", dt[1], CENTRAL((u[0] = x0, u[1] = pv, step_all(u, k, STEPS), u[1]), pv, v0), 1e-6);
  check("d v_end / d x0", dt[0], CENTRAL((u[0] = pv, u[1] = v0, step_all(u, k, STEPS), u[1]), pv, x0), 1e-6);

  /* Caller memory given to the forward sweep only: the reverse sweep, passed the bare pointer, must not free it. */
  double q[2] = {x0, v0}, dq[2] = {0, 0};
  __enzyme_augmentfwd((void *)energy, enzyme_dup, q, dq, enzyme_out, k, enzyme_const, STEPS,
                      enzyme_allocated, need, enzyme_tape, tape);
  double dk3 = __enzyme_reverse((void *)energy, enzyme_dup, q, dq, enzyme_out, k, enzyme_const, STEPS, 1.0, tape);
  check("bare tape pointer dk", dk3, dk_combined, 1e-13);

  /* The primal result declared before the tape: the fields are told apart by their types. */
  double r[2] = {x0, v0}, dr[2] = {0, 0};
  primal_first_t pf = __enzyme_augmentfwd_pf((void *)energy, enzyme_dup, r, dr, enzyme_out, k,
                                             enzyme_const, STEPS);
  check("primal-first primal", pf.primal, e, 1e-14);
  double dk2 = __enzyme_reverse((void *)energy, enzyme_dup, r, dr, enzyme_out, k, enzyme_const, STEPS, 2.0,
                                pf.tape);
  check("primal-first dk", dk2, 2.0 * dk_combined, 1e-13);
  check("primal-first dx0", dr[0], 2.0 * dsc[0], 1e-13);
  return finish();
}

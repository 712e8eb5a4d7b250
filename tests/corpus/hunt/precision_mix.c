#include "hunt.h"
/* Mixed precision as people write it: single-precision storage of a field (float arrays), double
   arithmetic per cell, a long double (x87) compensated accumulator, and float math functions (expf,
   sqrtf).  A 1-D advection-reaction step repeated; objective returned as double.  Input: the float
   field and a double rate. */
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);

double mixed_model(float *q, int n, double rate, int nsteps) {
  for (int s = 0; s < nsteps; s++) {
    float left = q[n - 1];
    for (int i = 0; i < n; i++) {
      float cur = q[i];
      double upwind = 0.3 * ((double)cur - (double)left);
      double react = rate * (double)cur * exp(-0.5 * (double)cur);
      q[i] = (float)((double)cur - upwind + 0.01 * react);
      left = cur;
    }
  }
  long double acc = 0.0L;
  for (int i = 0; i < n; i++) acc += (long double)q[i] * sqrtf(1.0f + q[i] * q[i]);
  return (double)acc + expf(-q[0]);
}

enum { N = 20, NSTEPS = 10 };
static float q0[N], q[N];
static double rate = 0.7;
static double run(void) { memcpy(q, q0, sizeof q); return mixed_model(q, N, rate, NSTEPS); }

int main(void) {
  for (int i = 0; i < N; i++) q0[i] = 0.5f + 0.4f * sinf(0.5f * i);
  hunt_rtol = 2e-3; /* single-precision storage: finite differences are coarse */
  double fd[3], ad[3];
  /* float inputs: central differences with a float-sized step, divided by the step actually taken */
  const int idx[2] = {0, 9};
  for (int k = 0; k < 2; k++) {
    float s = q0[idx[k]], hstep = 1e-2f;
    q0[idx[k]] = s + hstep; double p = run(); float xp = q0[idx[k]];
    q0[idx[k]] = s - hstep; double m = run(); float xm = q0[idx[k]];
    q0[idx[k]] = s;
    fd[k] = (p - m) / ((double)xp - (double)xm);
  }
  fd[2] = HUNT_FD(run(), rate);
  float dq[N] = {0};
#ifdef MODE_REV
  memcpy(q, q0, sizeof q);
  ad[2] = __enzyme_autodiff((void *)mixed_model, enzyme_dup, q, dq, enzyme_const, N, rate, enzyme_const, NSTEPS);
  ad[0] = dq[idx[0]]; ad[1] = dq[idx[1]];
  hunt_check_vec("grad", ad, fd, 3);
#endif
#ifdef MODE_FWD
  for (int k = 0; k < 3; k++) {
    memset(dq, 0, sizeof dq);
    if (k < 2) dq[idx[k]] = 1.0f;
    memcpy(q, q0, sizeof q);
    ad[k] = __enzyme_fwddiff((void *)mixed_model, enzyme_dup, q, dq, enzyme_const, N, rate, k == 2 ? 1.0 : 0.0,
                             enzyme_const, NSTEPS);
  }
  hunt_check_vec("grad", ad, fd, 3);
#endif
#ifdef MODE_SPLIT
  memcpy(q, q0, sizeof q);
  aug_t r = __enzyme_augmentfwd((void *)mixed_model, enzyme_dup, q, dq, enzyme_const, N, rate, enzyme_const, NSTEPS);
  ad[2] = __enzyme_reverse((void *)mixed_model, enzyme_dup, q, dq, enzyme_const, N, rate, enzyme_const, NSTEPS, 1.0,
                           r.tape);
  ad[0] = dq[idx[0]]; ad[1] = dq[idx[1]];
  hunt_check_vec("grad", ad, fd, 3);
#endif
  return hunt_finish();
}

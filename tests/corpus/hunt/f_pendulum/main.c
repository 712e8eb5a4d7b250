#include "hunt.h"
/* C driver for chain.f90: gradient of the final energy with respect to the initial angles and
   velocities (in place), the lengths and the damping. */
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);

double chain_energy(double *y, int n, const double *lengths, double damping, double coupling, double dt, int nsteps);

enum { N = 4, NSTEPS = 50, NP = 6 };
static double yinit[2 * N], y[2 * N], len[N], damping = 0.1, coupling = 0.7, dt = 0.01;
static double run(void) { memcpy(y, yinit, sizeof y); return chain_energy(y, N, len, damping, coupling, dt, NSTEPS); }

int main(void) {
  for (int i = 0; i < N; i++) { yinit[i] = 0.3 * sin(1.0 + i); yinit[N + i] = 0.1 * cos(2.0 * i); len[i] = 1.0 + 0.2 * i; }
  double *prim[NP] = {&yinit[0], &yinit[3], &yinit[N + 1], &len[0], &len[2], &damping};
  double fd[NP], ad[NP];
  for (int q = 0; q < NP; q++) fd[q] = HUNT_FD(run(), *prim[q]);
  double dy[2 * N] = {0}, dlen[N] = {0};
#ifdef MODE_REV
  memcpy(y, yinit, sizeof y);
  ad[5] = __enzyme_autodiff((void *)chain_energy, enzyme_dup, y, dy, enzyme_const, N, enzyme_dup, len, dlen, damping,
                            enzyme_const, coupling, enzyme_const, dt, enzyme_const, NSTEPS);
  ad[0] = dy[0]; ad[1] = dy[3]; ad[2] = dy[N + 1]; ad[3] = dlen[0]; ad[4] = dlen[2];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  double *shad[NP - 1] = {&dy[0], &dy[3], &dy[N + 1], &dlen[0], &dlen[2]};
  for (int q = 0; q < NP; q++) {
    memset(dy, 0, sizeof dy); memset(dlen, 0, sizeof dlen);
    if (q < NP - 1) *shad[q] = 1.0;
    memcpy(y, yinit, sizeof y);
    ad[q] = __enzyme_fwddiff((void *)chain_energy, enzyme_dup, y, dy, enzyme_const, N, enzyme_dup, len, dlen, damping,
                             q == NP - 1 ? 1.0 : 0.0, enzyme_const, coupling, enzyme_const, dt, enzyme_const, NSTEPS);
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_SPLIT
  memcpy(y, yinit, sizeof y);
  aug_t r = __enzyme_augmentfwd((void *)chain_energy, enzyme_dup, y, dy, enzyme_const, N, enzyme_dup, len, dlen,
                                damping, enzyme_const, coupling, enzyme_const, dt, enzyme_const, NSTEPS);
  hunt_check("primal", r.primal, run());
  ad[5] = __enzyme_reverse((void *)chain_energy, enzyme_dup, y, dy, enzyme_const, N, enzyme_dup, len, dlen, damping,
                           enzyme_const, coupling, enzyme_const, dt, enzyme_const, NSTEPS, 1.0, r.tape);
  ad[0] = dy[0]; ad[1] = dy[3]; ad[2] = dy[N + 1]; ad[3] = dlen[0]; ad[4] = dlen[2];
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

#include "hunt.h"
/* C driver for diffusion.f90: gradient of the Fortran objective with respect to the initial state
   (in place, so reset before each call) and the two rate constants. */
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
typedef struct { double d[3]; } g3;
g3 __enzyme_autodiff_g3(void *, ...);
typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);

double reaction_diffusion(double *u, int n, double diff, double k, double dt, int nsteps);

enum { N = 24, NSTEPS = 40, NP = 6 };
static double u0[N], u[N], diff = 0.8, k = 2.0, dt = 2e-4;
static double run(void) { memcpy(u, u0, sizeof u); return reaction_diffusion(u, N, diff, k, dt, NSTEPS); }

int main(void) {
  for (int i = 0; i < N; i++) u0[i] = 0.5 + 0.4 * sin(0.4 * i);
  double *prim[NP] = {&u0[0], &u0[7], &u0[12], &u0[N - 1], &diff, &k};
  double fd[NP], ad[NP];
  hunt_fd_step = 1e-6; /* maxval */
  for (int q = 0; q < NP; q++) fd[q] = HUNT_FD(run(), *prim[q]);
  double du[N] = {0};
#ifdef MODE_REV
  memcpy(u, u0, sizeof u);
  g3 g = __enzyme_autodiff_g3((void *)reaction_diffusion, enzyme_dup, u, du, enzyme_const, N, diff, k, dt,
                              enzyme_const, NSTEPS);
  ad[0] = du[0]; ad[1] = du[7]; ad[2] = du[12]; ad[3] = du[N - 1]; ad[4] = g.d[0]; ad[5] = g.d[1];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  const int idx[4] = {0, 7, 12, N - 1};
  for (int q = 0; q < NP; q++) {
    memset(du, 0, sizeof du);
    if (q < 4) du[idx[q]] = 1.0;
    memcpy(u, u0, sizeof u);
    ad[q] = __enzyme_fwddiff((void *)reaction_diffusion, enzyme_dup, u, du, enzyme_const, N, diff, q == 4 ? 1.0 : 0.0,
                             k, q == 5 ? 1.0 : 0.0, dt, 0.0, enzyme_const, NSTEPS);
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_BATCH
  const int idx[4] = {0, 7, 12, N - 1};
  double du2[N];
  for (int q = 0; q < 4; q += 2) {
    memset(du, 0, sizeof du); memset(du2, 0, sizeof du2);
    du[idx[q]] = 1.0; du2[idx[q + 1]] = 1.0;
    memcpy(u, u0, sizeof u);
    v2 t = __enzyme_fwddiff_v2((void *)reaction_diffusion, enzyme_width, 2, enzyme_dup, u, du, du2, enzyme_const, N,
                               diff, 0.0, 0.0, k, 0.0, 0.0, dt, 0.0, 0.0, enzyme_const, NSTEPS);
    ad[q] = t.d[0]; ad[q + 1] = t.d[1];
  }
  memset(du, 0, sizeof du); memset(du2, 0, sizeof du2);
  memcpy(u, u0, sizeof u);
  v2 t = __enzyme_fwddiff_v2((void *)reaction_diffusion, enzyme_width, 2, enzyme_dup, u, du, du2, enzyme_const, N,
                             diff, 1.0, 0.0, k, 0.0, 1.0, dt, 0.0, 0.0, enzyme_const, NSTEPS);
  ad[4] = t.d[0]; ad[5] = t.d[1];
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

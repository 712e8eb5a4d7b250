#include "hunt.h"
/* Semi-Lagrangian advection of a tracer on a periodic 2-D grid: departure points traced back along
   a velocity field, bilinear interpolation with floor() and wrapped integer indices, several steps
   with a buffer swap.  Objective: the tracer mass in a target window squared.  Inputs: initial tracer
   and the velocity field's amplitude. */
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);

static inline int wrapi(int i, int n) { i %= n; return i < 0 ? i + n : i; }

static double bilinear(const double *q, int nx, int ny, double x, double y) {
  double fx = floor(x), fy = floor(y);
  int i0 = wrapi((int)fx, nx), j0 = wrapi((int)fy, ny);
  int i1 = wrapi(i0 + 1, nx), j1 = wrapi(j0 + 1, ny);
  double tx = x - fx, ty = y - fy;
  return (1 - tx) * (1 - ty) * q[j0 * nx + i0] + tx * (1 - ty) * q[j0 * nx + i1] + (1 - tx) * ty * q[j1 * nx + i0] +
         tx * ty * q[j1 * nx + i1];
}

double advect(const double *q0, double amp, int nx, int ny, double dt, int nsteps) {
  double *q = malloc(sizeof(double) * nx * ny), *qn = malloc(sizeof(double) * nx * ny);
  memcpy(q, q0, sizeof(double) * nx * ny);
  for (int s = 0; s < nsteps; s++) {
    for (int j = 0; j < ny; j++)
      for (int i = 0; i < nx; i++) {
        double u = amp * sin(2 * M_PI * j / ny) + 0.3, v = amp * cos(2 * M_PI * i / nx);
        qn[j * nx + i] = bilinear(q, nx, ny, i - dt * u, j - dt * v);
      }
    double *t = q; q = qn; qn = t;
  }
  double m = 0.0;
  for (int j = ny / 4; j < ny / 2; j++)
    for (int i = nx / 4; i < nx / 2; i++) m += q[j * nx + i];
  free(q); free(qn);
  return m * m;
}

enum { NX = 16, NY = 12, NSTEPS = 6, NP = 6 };
static double q0[NX * NY], amp = 1.3, dt = 0.7;

int main(void) {
  for (int j = 0; j < NY; j++)
    for (int i = 0; i < NX; i++) q0[j * NX + i] = exp(-0.05 * ((i - 6) * (i - 6) + (j - 5) * (j - 5)));
  const int idx[NP - 1] = {0, 40, 77, 101, 150};
  double fd[NP], ad[NP];
  hunt_fd_step = 1e-6; /* floor() */
  for (int q = 0; q < NP - 1; q++) fd[q] = HUNT_FD(advect(q0, amp, NX, NY, dt, NSTEPS), q0[idx[q]]);
  fd[NP - 1] = HUNT_FD(advect(q0, amp, NX, NY, dt, NSTEPS), amp);
  double dq0[NX * NY] = {0};
#ifdef MODE_REV
  ad[NP - 1] = __enzyme_autodiff((void *)advect, enzyme_dup, q0, dq0, amp, enzyme_const, NX, enzyme_const, NY,
                                 enzyme_const, dt, enzyme_const, NSTEPS);
  for (int q = 0; q < NP - 1; q++) ad[q] = dq0[idx[q]];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < NP; q++) {
    if (q < NP - 1) dq0[idx[q]] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)advect, enzyme_dup, q0, dq0, amp, q == NP - 1 ? 1.0 : 0.0, enzyme_const, NX,
                             enzyme_const, NY, enzyme_const, dt, enzyme_const, NSTEPS);
    if (q < NP - 1) dq0[idx[q]] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_BATCH
  double dq2[NX * NY] = {0};
  dq0[idx[0]] = 1.0;
  v2 t = __enzyme_fwddiff_v2((void *)advect, enzyme_width, 2, enzyme_dup, q0, dq0, dq2, amp, 0.0, 1.0, enzyme_const,
                             NX, enzyme_const, NY, enzyme_const, dt, enzyme_const, NSTEPS);
  ad[0] = t.d[0]; ad[1] = t.d[1];
  double fd2[2] = {fd[0], fd[NP - 1]};
  hunt_check_vec("grad_batch", ad, fd2, 2);
#endif
#ifdef MODE_SPLIT
  aug_t r = __enzyme_augmentfwd((void *)advect, enzyme_dup, q0, dq0, amp, enzyme_const, NX, enzyme_const, NY,
                                enzyme_const, dt, enzyme_const, NSTEPS);
  hunt_check("primal", r.primal, advect(q0, amp, NX, NY, dt, NSTEPS));
  ad[NP - 1] = __enzyme_reverse((void *)advect, enzyme_dup, q0, dq0, amp, enzyme_const, NX, enzyme_const, NY,
                                enzyme_const, dt, enzyme_const, NSTEPS, 1.0, r.tape);
  for (int q = 0; q < NP - 1; q++) ad[q] = dq0[idx[q]];
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

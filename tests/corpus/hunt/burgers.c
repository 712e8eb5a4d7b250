#include "hunt.h"
/* 1D inviscid Burgers, finite volumes: MUSCL reconstruction with a slope limiter chosen at run time
   (function pointer), Rusanov flux, periodic boundaries by modular indexing, SSP-RK2 in time with a CFL
   time step from max |u| (so dt depends on the state).  Objective: a weighted integral of the final state.
   The state is advanced in place. */
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);

typedef double (*limiter_fn)(double a, double b);

static double minmod(double a, double b) {
  if (a * b <= 0.0) return 0.0;
  return fabs(a) < fabs(b) ? a : b;
}
static double van_leer(double a, double b) {
  if (a * b <= 0.0) return 0.0;
  return 2.0 * a * b / (a + b);
}
static double mc_limiter(double a, double b) {
  if (a * b <= 0.0) return 0.0;
  double s = copysign(1.0, a);
  return s * fmin(fmin(2.0 * fabs(a), 2.0 * fabs(b)), 0.5 * fabs(a + b));
}
static const limiter_fn LIMITERS[] = {minmod, van_leer, mc_limiter};

static void burgers_rhs(const double *u, double *dudt, double *slope, double *flux, int n, double dx,
                        limiter_fn limiter) {
  for (int i = 0; i < n; i++) {
    int im = (i - 1 + n) % n, ip = (i + 1) % n;
    slope[i] = limiter(u[i] - u[im], u[ip] - u[i]);
  }
  for (int i = 0; i < n; i++) { /* interface i+1/2 */
    int ip = (i + 1) % n;
    double ul = u[i] + 0.5 * slope[i], ur = u[ip] - 0.5 * slope[ip];
    double fl = 0.5 * ul * ul, fr = 0.5 * ur * ur;
    double a = fmax(fabs(ul), fabs(ur));
    flux[i] = 0.5 * (fl + fr) - 0.5 * a * (ur - ul);
  }
  for (int i = 0; i < n; i++) dudt[i] = -(flux[i] - flux[(i - 1 + n) % n]) / dx;
}

double burgers(double *u, const double *weight, int n, double cfl, double t_end, int limiter) {
  double dx = 1.0 / n, t = 0.0;
  double *work = malloc(5 * n * sizeof(double));
  double *k1 = work, *u1 = work + n, *k2 = work + 2 * n, *slope = work + 3 * n, *flux = work + 4 * n;
  limiter_fn lim = LIMITERS[limiter];
  while (t < t_end) {
    double umax = 0.0;
    for (int i = 0; i < n; i++) umax = fmax(umax, fabs(u[i]));
    double dt = cfl * dx / umax;
    if (t + dt > t_end) dt = t_end - t;
    burgers_rhs(u, k1, slope, flux, n, dx, lim);
    for (int i = 0; i < n; i++) u1[i] = u[i] + dt * k1[i];
    burgers_rhs(u1, k2, slope, flux, n, dx, lim);
    for (int i = 0; i < n; i++) u[i] = 0.5 * (u[i] + u1[i] + dt * k2[i]);
    t += dt;
  }
  double j = 0.0;
  for (int i = 0; i < n; i++) j += weight[i] * u[i] * u[i] * dx;
  free(work);
  return j;
}

enum { N = 32, NP = 6 };
static double u_init[N], w[N], u[N];
static const int probes[NP] = {0, 5, 11, 16, 23, 31};
static double cfl = 0.4, t_end = 0.15;

static double run(int limiter) {
  memcpy(u, u_init, sizeof u);
  return burgers(u, w, N, cfl, t_end, limiter);
}

int main(void) {
  hunt_fd_step = 1e-6; /* limiters have kinks near smooth extrema */
  for (int i = 0; i < N; i++) {
    double x = (i + 0.5) / N;
    u_init[i] = 1.0 + 0.5 * sin(2 * M_PI * x) + 0.1 * cos(6 * M_PI * x + 0.3);
    w[i] = 1.0 + 0.3 * x;
  }
  for (int lim = 0; lim < 3; lim++) {
    char name[32];
    snprintf(name, sizeof name, "grad_lim%d", lim);
    double fd[NP + 1], ad[NP + 1];
    for (int k = 0; k < NP; k++) fd[k] = HUNT_FD(run(lim), u_init[probes[k]]);
    fd[NP] = HUNT_FD(run(lim), cfl);
#ifdef MODE_REV
    double du[N] = {0};
    memcpy(u, u_init, sizeof u);
    ad[NP] = __enzyme_autodiff((void *)burgers, enzyme_dup, u, du, enzyme_const, w, enzyme_const, N, cfl,
                               enzyme_const, t_end, enzyme_const, lim);
    for (int k = 0; k < NP; k++) ad[k] = du[probes[k]];
    hunt_check_vec(name, ad, fd, NP + 1);
#endif
#ifdef MODE_FWD
    double du[N] = {0};
    for (int k = 0; k <= NP; k++) {
      memset(du, 0, sizeof du);
      if (k < NP) du[probes[k]] = 1.0;
      memcpy(u, u_init, sizeof u);
      ad[k] = __enzyme_fwddiff((void *)burgers, enzyme_dup, u, du, enzyme_const, w, enzyme_const, N, cfl,
                               k == NP ? 1.0 : 0.0, enzyme_const, t_end, enzyme_const, lim);
    }
    hunt_check_vec(name, ad, fd, NP + 1);
#endif
#ifdef MODE_BATCH
    double da[N], db[N];
    for (int k = 0; k < NP; k += 2) {
      memset(da, 0, sizeof da); memset(db, 0, sizeof db);
      da[probes[k]] = 1.0; db[probes[k + 1]] = 1.0;
      memcpy(u, u_init, sizeof u);
      v2 t = __enzyme_fwddiff_v2((void *)burgers, enzyme_width, 2, enzyme_dup, u, da, db, enzyme_const, w,
                                 enzyme_const, N, cfl, 0.0, 0.0, enzyme_const, t_end, enzyme_const, lim);
      ad[k] = t.d[0]; ad[k + 1] = t.d[1];
    }
    hunt_check_vec(name, ad, fd, NP);
#endif
#ifdef MODE_SPLIT
    double du[N] = {0};
    memcpy(u, u_init, sizeof u);
    aug_t r = __enzyme_augmentfwd((void *)burgers, enzyme_dup, u, du, enzyme_const, w, enzyme_const, N, cfl,
                                  enzyme_const, t_end, enzyme_const, lim);
    hunt_check("primal", r.primal, run(lim));
    ad[NP] = __enzyme_reverse((void *)burgers, enzyme_dup, u, du, enzyme_const, w, enzyme_const, N, cfl,
                              enzyme_const, t_end, enzyme_const, lim, 1.0, r.tape);
    for (int k = 0; k < NP; k++) ad[k] = du[probes[k]];
    hunt_check_vec(name, ad, fd, NP + 1);
#endif
  }
  return hunt_finish();
}

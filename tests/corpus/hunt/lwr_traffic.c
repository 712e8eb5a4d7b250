#include "hunt.h"
/* Traffic on a ring road with a signalised junction: the Lighthill-Whitham-Richards model with a
   Greenshields or triangular fundamental diagram (enum, switch), the Godunov flux as min(demand, supply),
   a traffic light that blocks the junction face in its red phase (phase from fmod of the time), an
   on-ramp source limited by the remaining capacity, and the time step from a CFL condition on the
   current wave speeds (fmax over cells).  Objective: total time spent plus queue length at the light.
   Inputs: the initial densities (dup), the free-flow speed and the jam density (active). */
typedef enum { GREENSHIELDS, TRIANGULAR } diagram_kind;
typedef struct { diagram_kind kind; double vmax, rho_jam, w; } road;
typedef struct { double cycle, green, offset; int cell; } signal_plan;

static double flux(const road *r, double rho) {
  switch (r->kind) {
  case GREENSHIELDS: return r->vmax * rho * (1 - rho / r->rho_jam);
  case TRIANGULAR: return fmin(r->vmax * rho, r->w * (r->rho_jam - rho));
  }
  return 0;
}

static double critical_density(const road *r) {
  return r->kind == GREENSHIELDS ? 0.5 * r->rho_jam : r->w * r->rho_jam / (r->vmax + r->w);
}

static double demand(const road *r, double rho) { return rho < critical_density(r) ? flux(r, rho) : flux(r, critical_density(r)); }
static double supply(const road *r, double rho) { return rho > critical_density(r) ? flux(r, rho) : flux(r, critical_density(r)); }

static double wave_speed(const road *r, double rho) {
  if (r->kind == GREENSHIELDS) return fabs(r->vmax * (1 - 2 * rho / r->rho_jam));
  return fmax(r->vmax, r->w);
}

double total_time(const double *rho0, int n, double vmax, double rho_jam, double horizon) {
  road r = {GREENSHIELDS, vmax, rho_jam, 5.0};
  signal_plan light = {60.0, 35.0, 7.0, n / 2};
  double dx = 0.1; /* km */
  double *rho = malloc(n * sizeof *rho), *f = malloc(n * sizeof *f);
  memcpy(rho, rho0, n * sizeof *rho);
  double t = 0, tts = 0, queue = 0;
  int steps = 0;
  while (t < horizon && steps < 10000) {
    double amax = 1e-6;
    for (int i = 0; i < n; i++) amax = fmax(amax, wave_speed(&r, rho[i]));
    double dt = 0.9 * dx / amax / 3600.0; /* hours */
    if (t + dt > horizon) dt = horizon - t;
    double phase = fmod(t * 3600.0 + light.offset, light.cycle);
    int red = phase >= light.green;
    for (int i = 0; i < n; i++) { /* face i between cell i and cell i+1 (ring) */
      int j = (i + 1) % n;
      f[i] = fmin(demand(&r, rho[i]), supply(&r, rho[j]));
      if (red && i == light.cell) f[i] = 0.0;
    }
    for (int i = 0; i < n; i++) {
      int k = (i + n - 1) % n;
      rho[i] += dt / dx * (f[k] - f[i]);
    }
    /* on-ramp at cell 2: 300 veh/h, limited by what the cell can take */
    double ramp = fmin(300.0, supply(&r, rho[2])) * dt / dx;
    rho[2] += ramp;
    for (int i = 0; i < n; i++) tts += rho[i] * dx * dt;
    t += dt;
    steps++;
  }
  for (int i = light.cell - 3; i <= light.cell; i++) queue += rho[i] * dx;
  free(rho); free(f);
  return tts + 0.1 * queue;
}

enum { N = 24 };
static double rho0[N];
int main(void) {
  for (int i = 0; i < N; i++) rho0[i] = 30.0 + 15.0 * sin(2 * M_PI * i / N) + 5.0 * cos(6.0 * i);
  double vmax = 90.0, jam = 150.0, horizon = 0.05, fd[N + 2], ad[N + 2];
  printf("total time %.12g veh h\n", total_time(rho0, N, vmax, jam, horizon));
  hunt_fd_step = 1e-6; /* the demand/supply switches and the red light are kinks */
  for (int i = 0; i < N; i++) fd[i] = HUNT_FD(total_time(rho0, N, vmax, jam, horizon), rho0[i]);
  fd[N] = HUNT_FD(total_time(rho0, N, vmax, jam, horizon), vmax);
  fd[N + 1] = HUNT_FD(total_time(rho0, N, vmax, jam, horizon), jam);
#ifdef MODE_REV
  double drho[N] = {0};
  ad[N] = __enzyme_autodiff((void *)total_time, enzyme_dup, rho0, drho, enzyme_const, N, enzyme_out, vmax,
                            enzyme_const, jam, enzyme_const, horizon);
  for (int i = 0; i < N; i++) ad[i] = drho[i];
  memset(drho, 0, sizeof drho);
  ad[N + 1] = __enzyme_autodiff((void *)total_time, enzyme_dup, rho0, drho, enzyme_const, N, enzyme_const, vmax,
                                enzyme_out, jam, enzyme_const, horizon);
  hunt_check_vec("grad", ad, fd, N + 2);
#endif
#ifdef MODE_FWD
  double drho[N] = {0};
  for (int i = 0; i < N; i++) {
    drho[i] = 1.0;
    ad[i] = __enzyme_fwddiff((void *)total_time, enzyme_dup, rho0, drho, enzyme_const, N, enzyme_const, vmax,
                             enzyme_const, jam, enzyme_const, horizon);
    drho[i] = 0.0;
  }
  ad[N] = __enzyme_fwddiff((void *)total_time, enzyme_dup, rho0, drho, enzyme_const, N, enzyme_dup, vmax, 1.0,
                           enzyme_const, jam, enzyme_const, horizon);
  ad[N + 1] = __enzyme_fwddiff((void *)total_time, enzyme_dup, rho0, drho, enzyme_const, N, enzyme_const, vmax,
                               enzyme_dup, jam, 1.0, enzyme_const, horizon);
  hunt_check_vec("grad", ad, fd, N + 2);
#endif
  return hunt_finish();
}

#include "hunt.h"
/* 2-D compressible Euler equations in a channel, first-order finite volumes: conserved variables per cell
   in a struct array, Rusanov fluxes stored in x- and y-face flux arrays of structs, ghost cells filled by a
   switch on each side's boundary type (reflecting wall, periodic, transmissive, fixed inflow state), forward
   Euler steps with a time step from the maximum wave speed.  Objective: the pressure force on the lower wall
   accumulated over the steps.  Inputs: inflow Mach number, bump amplitude of the initial density, gamma. */
enum { NX = 10, NY = 6 };
typedef enum { BC_WALL, BC_PERIODIC, BC_OUTFLOW, BC_INFLOW } BcKind;
typedef struct { double rho, mx, my, E; } State;
typedef struct { double f[4]; } Flux;

static State cells[NY + 2][NX + 2];
static Flux fx[NY][NX + 1], fy[NY + 1][NX];

static double pressure(State q, double gam) {
  return (gam - 1.0) * (q.E - 0.5 * (q.mx * q.mx + q.my * q.my) / q.rho);
}

static void phys_flux(State q, double gam, int dir, double out[4]) {
  double p = pressure(q, gam);
  double un = (dir == 0 ? q.mx : q.my) / q.rho;
  out[0] = q.rho * un;
  out[1] = q.mx * un + (dir == 0 ? p : 0.0);
  out[2] = q.my * un + (dir == 1 ? p : 0.0);
  out[3] = (q.E + p) * un;
}

static double wave_speed(State q, double gam, int dir) {
  double c = sqrt(gam * pressure(q, gam) / q.rho);
  return fabs((dir == 0 ? q.mx : q.my) / q.rho) + c;
}

static Flux rusanov(State l, State r, double gam, int dir) {
  double fl[4], fr[4];
  phys_flux(l, gam, dir, fl);
  phys_flux(r, gam, dir, fr);
  double a = fmax(wave_speed(l, gam, dir), wave_speed(r, gam, dir));
  double ql[4] = {l.rho, l.mx, l.my, l.E}, qr[4] = {r.rho, r.mx, r.my, r.E};
  Flux F;
  for (int k = 0; k < 4; k++) F.f[k] = 0.5 * (fl[k] + fr[k]) - 0.5 * a * (qr[k] - ql[k]);
  return F;
}

static void fill_ghosts(const BcKind side[4], State inflow) {
  /* side order: west, east, south, north */
  for (int j = 1; j <= NY; j++) {
    switch (side[0]) {
      case BC_INFLOW: cells[j][0] = inflow; break;
      case BC_PERIODIC: cells[j][0] = cells[j][NX]; break;
      case BC_OUTFLOW: cells[j][0] = cells[j][1]; break;
      case BC_WALL: cells[j][0] = cells[j][1]; cells[j][0].mx = -cells[j][1].mx; break;
    }
    switch (side[1]) {
      case BC_INFLOW: cells[j][NX + 1] = inflow; break;
      case BC_PERIODIC: cells[j][NX + 1] = cells[j][1]; break;
      case BC_OUTFLOW: cells[j][NX + 1] = cells[j][NX]; break;
      case BC_WALL: cells[j][NX + 1] = cells[j][NX]; cells[j][NX + 1].mx = -cells[j][NX].mx; break;
    }
  }
  for (int i = 1; i <= NX; i++) {
    switch (side[2]) {
      case BC_WALL: cells[0][i] = cells[1][i]; cells[0][i].my = -cells[1][i].my; break;
      case BC_PERIODIC: cells[0][i] = cells[NY][i]; break;
      default: cells[0][i] = cells[1][i]; break;
    }
    switch (side[3]) {
      case BC_WALL: cells[NY + 1][i] = cells[NY][i]; cells[NY + 1][i].my = -cells[NY][i].my; break;
      case BC_PERIODIC: cells[NY + 1][i] = cells[1][i]; break;
      default: cells[NY + 1][i] = cells[NY][i]; break;
    }
  }
}

double channel_flow(const double *p, int nsteps) {
  double mach = p[0], bump = p[1], gam = p[2];
  const double dx = 1.0 / NX, dy = 0.6 / NY;
  const BcKind side[4] = {BC_INFLOW, BC_OUTFLOW, BC_WALL, BC_WALL};
  double c0 = sqrt(gam * 1.0 / 1.0);
  State inflow = {1.0, mach * c0, 0.0, 1.0 / (gam - 1.0) + 0.5 * mach * mach * c0 * c0};
  for (int j = 1; j <= NY; j++)
    for (int i = 1; i <= NX; i++) {
      double x = (i - 0.5) * dx, y = (j - 0.5) * dy;
      double rho = 1.0 + bump * exp(-40.0 * ((x - 0.4) * (x - 0.4) + (y - 0.3) * (y - 0.3)));
      State q = {rho, rho * inflow.mx, 0.05 * rho * sin(6.0 * x), 0.0};
      q.E = 1.0 / (gam - 1.0) + 0.5 * (q.mx * q.mx + q.my * q.my) / rho;
      cells[j][i] = q;
    }
  double force = 0.0;
  for (int n = 0; n < nsteps; n++) {
    fill_ghosts(side, inflow);
    double amax = 0.0;
    for (int j = 1; j <= NY; j++)
      for (int i = 1; i <= NX; i++)
        amax = fmax(amax, fmax(wave_speed(cells[j][i], gam, 0), wave_speed(cells[j][i], gam, 1)));
    double dt = 0.4 / (amax / dx + amax / dy);
    for (int j = 0; j < NY; j++)
      for (int i = 0; i <= NX; i++) fx[j][i] = rusanov(cells[j + 1][i], cells[j + 1][i + 1], gam, 0);
    for (int j = 0; j <= NY; j++)
      for (int i = 0; i < NX; i++) fy[j][i] = rusanov(cells[j][i + 1], cells[j + 1][i + 1], gam, 1);
    for (int j = 1; j <= NY; j++)
      for (int i = 1; i <= NX; i++) {
        State *q = &cells[j][i];
        double d[4];
        for (int k = 0; k < 4; k++)
          d[k] = -dt / dx * (fx[j - 1][i].f[k] - fx[j - 1][i - 1].f[k]) - dt / dy * (fy[j][i - 1].f[k] - fy[j - 1][i - 1].f[k]);
        q->rho += d[0]; q->mx += d[1]; q->my += d[2]; q->E += d[3];
      }
    for (int i = 1; i <= NX; i++) force += dt * dx * pressure(cells[1][i], gam);
  }
  return force;
}

static double p[3] = {0.4, 0.3, 1.4};

int main(void) {
  const int nsteps = 12;
  double fd[3], ad[3], dp[3] = {0};
  for (int q = 0; q < 3; q++) fd[q] = HUNT_FD(channel_flow(p, nsteps), p[q]);
#ifdef MODE_REV
  __enzyme_autodiff((void *)channel_flow, enzyme_dup, p, dp, enzyme_const, nsteps);
  hunt_check_vec("grad", dp, fd, 3);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < 3; q++) {
    dp[q] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)channel_flow, enzyme_dup, p, dp, enzyme_const, nsteps);
    dp[q] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, 3);
#endif
  (void)ad;
  return hunt_finish();
}

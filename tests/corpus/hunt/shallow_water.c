#include "hunt.h"
/* 1-D shallow water over a bump (dam-break-like initial state), second-order MUSCL with a limiter picked
   by a switch on a configuration integer, HLL fluxes with wave-speed estimates from fmin/fmax, reflective
   walls by ghost cells, Heun time stepping with a CFL time step.  The work arrays are file-scope `static`
   buffers, sized once, the way older Fortran-ported codes keep them.  Objective: energy of the final
   state in the right half of the channel plus a gauge reading. */
#define NX 40
#define NG 2
#define G 9.81

static double h_w[NX + 2 * NG], q_w[NX + 2 * NG];   /* ghost-padded copies of the state */
static double fh[NX + 1], fq[NX + 1];                 /* interface fluxes */
static double dh[NX], dq[NX];

typedef double (*slope_fn)(double, double);
static double lim_minmod(double a, double b) { return a * b <= 0 ? 0 : (fabs(a) < fabs(b) ? a : b); }
static double lim_superbee(double a, double b) {
  if (a * b <= 0) return 0;
  double s = a > 0 ? 1.0 : -1.0;
  a = fabs(a); b = fabs(b);
  return s * fmax(fmin(2 * a, b), fmin(a, 2 * b));
}
static double lim_vanalbada(double a, double b) {
  if (a * b <= 0) return 0;
  return (a * b * (a + b)) / (a * a + b * b);
}

static slope_fn pick_limiter(int kind) {
  switch (kind) {
  case 1: return lim_superbee;
  case 2: return lim_vanalbada;
  default: return lim_minmod;
  }
}

static void fill_ghosts(const double *h, const double *q) {
  for (int i = 0; i < NX; i++) { h_w[i + NG] = h[i]; q_w[i + NG] = q[i]; }
  for (int g = 0; g < NG; g++) { /* reflective walls: depth mirrored, momentum negated */
    h_w[NG - 1 - g] = h_w[NG + g];          q_w[NG - 1 - g] = -q_w[NG + g];
    h_w[NX + NG + g] = h_w[NX + NG - 1 - g]; q_w[NX + NG + g] = -q_w[NX + NG - 1 - g];
  }
}

static void hll(double hl, double ql, double hr, double qr, double *fhout, double *fqout) {
  double ul = ql / hl, ur = qr / hr, cl = sqrt(G * hl), cr = sqrt(G * hr);
  double sl = fmin(ul - cl, ur - cr), sr = fmax(ul + cl, ur + cr);
  double fhl = ql, fhr = qr, fql = ql * ul + 0.5 * G * hl * hl, fqr = qr * ur + 0.5 * G * hr * hr;
  if (sl >= 0) { *fhout = fhl; *fqout = fql; }
  else if (sr <= 0) { *fhout = fhr; *fqout = fqr; }
  else {
    *fhout = (sr * fhl - sl * fhr + sl * sr * (hr - hl)) / (sr - sl);
    *fqout = (sr * fql - sl * fqr + sl * sr * (qr - ql)) / (sr - sl);
  }
}

static void rhs(const double *h, const double *q, double dx, slope_fn lim, double friction) {
  fill_ghosts(h, q);
  for (int f = 0; f <= NX; f++) { /* interface between cells f-1 and f (ghost index f+NG-1, f+NG) */
    int l = f + NG - 1, r = f + NG;
    double sh_l = lim(h_w[l] - h_w[l - 1], h_w[l + 1] - h_w[l]);
    double sq_l = lim(q_w[l] - q_w[l - 1], q_w[l + 1] - q_w[l]);
    double sh_r = lim(h_w[r] - h_w[r - 1], h_w[r + 1] - h_w[r]);
    double sq_r = lim(q_w[r] - q_w[r - 1], q_w[r + 1] - q_w[r]);
    hll(h_w[l] + 0.5 * sh_l, q_w[l] + 0.5 * sq_l, h_w[r] - 0.5 * sh_r, q_w[r] - 0.5 * sq_r, &fh[f], &fq[f]);
  }
  for (int i = 0; i < NX; i++) {
    dh[i] = -(fh[i + 1] - fh[i]) / dx;
    dq[i] = -(fq[i + 1] - fq[i]) / dx - friction * q[i] * fabs(q[i]) / (h[i] * h[i]);
  }
}

double swe(double *h, double *q, double friction, int limiter, double t_end) {
  static double h0[NX], q0[NX];
  double dx = 1.0 / NX, t = 0;
  slope_fn lim = pick_limiter(limiter);
  while (t < t_end) {
    double smax = 0;
    for (int i = 0; i < NX; i++) smax = fmax(smax, fabs(q[i] / h[i]) + sqrt(G * h[i]));
    double dt = 0.4 * dx / smax;
    if (t + dt > t_end) dt = t_end - t;
    memcpy(h0, h, sizeof h0); memcpy(q0, q, sizeof q0);
    rhs(h, q, dx, lim, friction);
    for (int i = 0; i < NX; i++) { h[i] += dt * dh[i]; q[i] += dt * dq[i]; }
    rhs(h, q, dx, lim, friction);
    for (int i = 0; i < NX; i++) {
      h[i] = 0.5 * (h0[i] + h[i] + dt * dh[i]);
      q[i] = 0.5 * (q0[i] + q[i] + dt * dq[i]);
    }
    t += dt;
  }
  double e = 0;
  for (int i = NX / 2; i < NX; i++) e += (0.5 * q[i] * q[i] / h[i] + 0.5 * G * h[i] * h[i]) * dx;
  return e + 0.3 * h[3 * NX / 4];
}

enum { NP = 5 };
static double hinit[NX], qinit[NX], h[NX], q[NX];
static double fric = 0.02, tend = 0.05;
static const int probes[NP] = {4, 15, 19, 28, 37};

static double run(int lim) {
  memcpy(h, hinit, sizeof h); memcpy(q, qinit, sizeof q);
  return swe(h, q, fric, lim, tend);
}

int main(void) {
  hunt_fd_step = 1e-6;
  for (int i = 0; i < NX; i++) {
    double x = (i + 0.5) / NX;
    hinit[i] = 1.0 + 0.4 * exp(-40 * (x - 0.35) * (x - 0.35)) + 0.05 * sin(3 * x);
    qinit[i] = 0.1 * sin(2 * M_PI * x) * hinit[i];
  }
  for (int lim = 0; lim < 3; lim++) {
    char name[32];
    snprintf(name, sizeof name, "grad_lim%d", lim);
    double fd[NP + 2], ad[NP + 2];
    for (int k = 0; k < NP; k++) fd[k] = HUNT_FD(run(lim), hinit[probes[k]]);
    fd[NP] = HUNT_FD(run(lim), qinit[10]);
    fd[NP + 1] = HUNT_FD(run(lim), fric);
#ifdef MODE_REV
    double dhh[NX] = {0}, dqq[NX] = {0};
    memcpy(h, hinit, sizeof h); memcpy(q, qinit, sizeof q);
    ad[NP + 1] = __enzyme_autodiff((void *)swe, enzyme_dup, h, dhh, enzyme_dup, q, dqq, fric, enzyme_const, lim,
                                   enzyme_const, tend);
    for (int k = 0; k < NP; k++) ad[k] = dhh[probes[k]];
    ad[NP] = dqq[10];
#endif
#ifdef MODE_FWD
    for (int k = 0; k < NP + 2; k++) {
      double dhh[NX] = {0}, dqq[NX] = {0};
      if (k < NP) dhh[probes[k]] = 1; else if (k == NP) dqq[10] = 1;
      memcpy(h, hinit, sizeof h); memcpy(q, qinit, sizeof q);
      ad[k] = __enzyme_fwddiff((void *)swe, enzyme_dup, h, dhh, enzyme_dup, q, dqq, fric, k == NP + 1 ? 1.0 : 0.0,
                               enzyme_const, lim, enzyme_const, tend);
    }
#endif
    hunt_check_vec(name, ad, fd, NP + 2);
  }
  return hunt_finish();
}

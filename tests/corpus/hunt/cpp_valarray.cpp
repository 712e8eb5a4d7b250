#include "hunt.h"
#include <valarray>
/* Reaction-diffusion (Gray-Scott, 1-D periodic) written with std::valarray as numerical C++ of the
   Fortran-90 school does: whole-array expressions, cshift for the periodic Laplacian, std::slice to
   read every other cell, apply() with a function, sum(), max(), and std::exp over a valarray.
   Objective: a functional of the final pattern; derivatives with respect to feed/kill rates and a
   few initial values. */
using va = std::valarray<double>;

static double softclip(double x) { return x / (1.0 + std::fabs(x)); }

extern "C" double gray_scott(const double *u0, const double *v0, int n, double feed, double kill, int steps) {
  va u(u0, n), v(v0, n);
  const double du = 0.16, dv = 0.08, dt = 0.5;
  for (int s = 0; s < steps; s++) {
    va lu = u.cshift(1) + u.cshift(-1) - 2.0 * u;
    va lv = v.cshift(1) + v.cshift(-1) - 2.0 * v;
    va uvv = u * v * v;
    u += dt * (du * lu - uvv + feed * (1.0 - u));
    v += dt * (dv * lv + uvv - (feed + kill) * v);
  }
  va even = v[std::slice(0, n / 2, 2)];
  va shaped = va(u.apply(softclip));
  double peak = v.max();
  return (shaped * shaped).sum() / n + 0.5 * even.sum() / (n / 2) + 0.1 * peak + 0.05 * std::exp(-u).sum() / n;
}

struct two { double a, b; };
extern "C" two __enzyme_autodiff_two(void *, ...);

enum { N = 64, STEPS = 60, NP = 4 };
static double u0[N], v0[N];
static const int probes[NP] = {5, 30, 33, 60};

int main(void) {
  for (int i = 0; i < N; i++) {
    double x = (i + 0.5) / N;
    u0[i] = 1.0 - 0.5 * std::exp(-80 * (x - 0.5) * (x - 0.5));
    v0[i] = 0.25 * std::exp(-80 * (x - 0.5) * (x - 0.5)) + 0.01 * std::sin(7 * x);
  }
  double feed = 0.04, kill = 0.06;
  double fd[NP + 2], ad[NP + 2];
  hunt_fd_step = 1e-6; /* v.max() has a kink where two cells tie */
  for (int k = 0; k < NP; k++) fd[k] = HUNT_FD(gray_scott(u0, v0, N, feed, kill, STEPS), v0[probes[k]]);
  fd[NP] = HUNT_FD(gray_scott(u0, v0, N, feed, kill, STEPS), feed);
  fd[NP + 1] = HUNT_FD(gray_scott(u0, v0, N, feed, kill, STEPS), kill);
#ifdef MODE_REV
  double du[N] = {0}, dv[N] = {0};
  two g = __enzyme_autodiff_two((void *)gray_scott, enzyme_dup, u0, du, enzyme_dup, v0, dv, enzyme_const, N, feed,
                                kill, enzyme_const, STEPS);
  for (int k = 0; k < NP; k++) ad[k] = dv[probes[k]];
  ad[NP] = g.a; ad[NP + 1] = g.b;
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP + 2; k++) {
    double du[N] = {0}, dv[N] = {0};
    if (k < NP) dv[probes[k]] = 1;
    ad[k] = __enzyme_fwddiff((void *)gray_scott, enzyme_dup, u0, du, enzyme_dup, v0, dv, enzyme_const, N, feed,
                             k == NP ? 1.0 : 0.0, kill, k == NP + 1 ? 1.0 : 0.0, enzyme_const, STEPS);
  }
#endif
  hunt_check_vec("grad", ad, fd, NP + 2);
  return hunt_finish();
}

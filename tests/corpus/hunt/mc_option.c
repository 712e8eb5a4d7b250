#include "hunt.h"
#include <stdint.h>
/* Monte Carlo pricing of an arithmetic Asian call under geometric Brownian motion with pathwise
   sensitivities: a xorshift64* generator (integer state), Box-Muller normals (log, sqrt, cos of
   uniforms), a payoff max(avg - K, 0) and discounting.  Inputs (market[]: spot, vol, rate). */
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);

typedef struct { uint64_t s; } Rng;

static double uniform(Rng *r) {
  r->s ^= r->s >> 12; r->s ^= r->s << 25; r->s ^= r->s >> 27;
  return ((r->s * 2685821657736338717ull) >> 11) * (1.0 / 9007199254740992.0);
}

static double normal(Rng *r) {
  double u1 = uniform(r), u2 = uniform(r);
  if (u1 < 1e-300) u1 = 1e-300;
  return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

double asian_price(const double *market, double strike, double maturity, int nsteps, int npaths, uint64_t seed) {
  double spot = market[0], vol = market[1], rate = market[2];
  double dt = maturity / nsteps, drift = (rate - 0.5 * vol * vol) * dt, diffusion = vol * sqrt(dt);
  Rng rng = {seed};
  double sum = 0.0;
  for (int p = 0; p < npaths; p++) {
    double s = spot, avg = 0.0;
    for (int k = 0; k < nsteps; k++) {
      s *= exp(drift + diffusion * normal(&rng));
      avg += s;
    }
    avg /= nsteps;
    sum += fmax(avg - strike, 0.0);
  }
  return exp(-rate * maturity) * sum / npaths;
}

static double market[3] = {100.0, 0.25, 0.03};

int main(void) {
  double K = 102.0, T = 1.0;
  int nsteps = 12, npaths = 2000;
  uint64_t seed = 0x9E3779B97F4A7C15ull;
  double fd[3], ad[3];
  hunt_fd_step = 1e-7; /* the payoff kink */
  for (int q = 0; q < 3; q++) fd[q] = HUNT_FD(asian_price(market, K, T, nsteps, npaths, seed), market[q]);
  double dmarket[3] = {0};
#ifdef MODE_REV
  __enzyme_autodiff((void *)asian_price, enzyme_dup, market, dmarket, enzyme_const, K, enzyme_const, T, enzyme_const,
                    nsteps, enzyme_const, npaths, enzyme_const, seed);
  hunt_check_vec("grad", dmarket, fd, 3);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < 3; q++) {
    dmarket[q] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)asian_price, enzyme_dup, market, dmarket, enzyme_const, K, enzyme_const, T,
                             enzyme_const, nsteps, enzyme_const, npaths, enzyme_const, seed);
    dmarket[q] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, 3);
#endif
#ifdef MODE_BATCH
  double dm2[3] = {0};
  dmarket[0] = 1.0; dm2[1] = 1.0;
  v2 t = __enzyme_fwddiff_v2((void *)asian_price, enzyme_width, 2, enzyme_dup, market, dmarket, dm2, enzyme_const, K,
                             enzyme_const, T, enzyme_const, nsteps, enzyme_const, npaths, enzyme_const, seed);
  ad[0] = t.d[0]; ad[1] = t.d[1];
  hunt_check_vec("grad", ad, fd, 2);
#endif
#ifdef MODE_SPLIT
  aug_t r = __enzyme_augmentfwd((void *)asian_price, enzyme_dup, market, dmarket, enzyme_const, K, enzyme_const, T,
                                enzyme_const, nsteps, enzyme_const, npaths, enzyme_const, seed);
  hunt_check("primal", r.primal, asian_price(market, K, T, nsteps, npaths, seed));
  __enzyme_reverse((void *)asian_price, enzyme_dup, market, dmarket, enzyme_const, K, enzyme_const, T, enzyme_const,
                   nsteps, enzyme_const, npaths, enzyme_const, seed, 1.0, r.tape);
  hunt_check_vec("grad", dmarket, fd, 3);
#endif
  return hunt_finish();
}

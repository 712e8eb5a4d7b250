#include "check.h"
/* Lennard-Jones cluster energy the way older molecular-dynamics codes write it: the pair routine adds into
   global accumulators (potential energy, virial), the driver zeroes them, loops over pairs and returns the
   energy.  A second routine keeps accumulating across calls (a running total of the energy over a trajectory).
   Both read the model parameters from mutable globals that nothing differentiated writes (they stay inactive).
   The gradient (forces) is checked against central differences in reverse, forward, batch and split mode,
   and calling the derivative twice must give the same answer: the shadows of the globals start at zero. */
typedef struct { void *tape; double primal; } aug_t;
typedef struct { double d[2]; } v2;
extern int enzyme_width;
aug_t __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
v2 __enzyme_fwddiff_v2(void *, ...);
void __enzyme_autodiff_v2(void *, ...);

#define NATOM 5
double lj_sigma = 1.1, lj_epsilon = 0.8;  /* set once by the input reader */
double cutoff = 3.0;
static double epot, virial;
double trajectory_energy;               /* sum of the energies of every evaluation so far */

static void pair_lj(const double *ri, const double *rj) {
  double d[3], r2 = 0;
  for (int k = 0; k < 3; k++) { d[k] = ri[k] - rj[k]; r2 += d[k] * d[k]; }
  if (r2 > cutoff * cutoff) return;
  double s2 = lj_sigma * lj_sigma / r2, s6 = s2 * s2 * s2;
  epot += 4 * lj_epsilon * (s6 * s6 - s6);
  virial += 24 * lj_epsilon * (2 * s6 * s6 - s6);
}

double lj_energy(const double *pos) {
  epot = 0;
  virial = 0;
  for (int i = 0; i < NATOM; i++)
    for (int j = i + 1; j < NATOM; j++) pair_lj(&pos[3 * i], &pos[3 * j]);
  return epot + 0.01 * virial;
}

/* accumulates across calls: the returned running total depends on this call's positions through this
   call's contribution only */
double lj_running_total(const double *pos) {
  trajectory_energy += lj_energy(pos);
  return trajectory_energy;
}

static const double START[3 * NATOM] = {0.0, 0.0, 0.0,  1.1, 0.1, 0.0,  0.2, 1.2, 0.1,
                                        1.0, 1.1, 0.9,  -0.3, 0.6, 1.0};

static void fd_gradient(const double *pos, double *g) {
  double p[3 * NATOM];
  for (int i = 0; i < 3 * NATOM; i++) p[i] = pos[i];
  for (int i = 0; i < 3 * NATOM; i++) g[i] = CENTRAL(lj_energy(p), p[i], pos[i]);
}

int main(void) {
  double pos[3 * NATOM], fd[3 * NATOM], g1[3 * NATOM] = {0}, g2[3 * NATOM] = {0};
  for (int i = 0; i < 3 * NATOM; i++) pos[i] = START[i];
  fd_gradient(pos, fd);

  __enzyme_autodiff((void *)lj_energy, enzyme_dup, pos, g1);
  __enzyme_autodiff((void *)lj_energy, enzyme_dup, pos, g2);
  for (int i = 0; i < 3 * NATOM; i++) {
    check("reverse vs central", g1[i], fd[i], 1e-6);
    check("reverse twice", g2[i], g1[i], 1e-14);
  }
  check("primal epot left by the derivative", epot + 0.01 * virial, lj_energy(pos), 1e-14);

  for (int i = 0; i < 3 * NATOM; i++) {
    double dir[3 * NATOM] = {0};
    dir[i] = 1;
    check("forward vs central", __enzyme_fwddiff((void *)lj_energy, pos, dir), fd[i], 1e-6);
  }

  /* the running total: derivative of this call's contribution, whatever was accumulated before */
  double t1[3 * NATOM] = {0}, t2[3 * NATOM] = {0};
  trajectory_energy = 0;
  __enzyme_autodiff((void *)lj_running_total, enzyme_dup, pos, t1);
  double after_one = trajectory_energy;
  __enzyme_autodiff((void *)lj_running_total, enzyme_dup, pos, t2);
  check("running total accumulated", trajectory_energy, 2 * after_one, 1e-14);
  for (int i = 0; i < 3 * NATOM; i++) {
    check("running total reverse", t1[i], fd[i], 1e-6);
    check("running total reverse again", t2[i], fd[i], 1e-6);
  }
  double dir0[3 * NATOM] = {0};
  dir0[4] = 1;
  check("running total forward", __enzyme_fwddiff((void *)lj_running_total, pos, dir0), fd[4], 1e-6);
  check("running total forward again", __enzyme_fwddiff((void *)lj_running_total, pos, dir0), fd[4], 1e-6);

  /* batch: two directions at once, forward and reverse */
  double da[3 * NATOM] = {0}, db[3 * NATOM] = {0};
  da[0] = 1;
  db[7] = 1;
  v2 both = __enzyme_fwddiff_v2((void *)lj_energy, enzyme_width, 2, pos, da, db);
  check("batch forward 0", both.d[0], fd[0], 1e-6);
  check("batch forward 1", both.d[1], fd[7], 1e-6);
  double ba[3 * NATOM] = {0}, bb[3 * NATOM] = {0};
  __enzyme_autodiff_v2((void *)lj_energy, enzyme_width, 2, enzyme_dup, pos, ba, bb);
  for (int i = 0; i < 3 * NATOM; i++) {
    check("batch reverse 0", ba[i], fd[i], 1e-6);
    check("batch reverse 1", bb[i], fd[i], 1e-6);
  }

  /* split: the forward sweep now, the reverse sweep later (another derivative call in between) */
  double s[3 * NATOM] = {0}, other[3 * NATOM] = {0};
  aug_t aug = __enzyme_augmentfwd((void *)lj_energy, enzyme_dup, pos, s);
  __enzyme_fwddiff((void *)lj_energy, pos, dir0);
  __enzyme_autodiff((void *)lj_energy, enzyme_dup, pos, other);
  __enzyme_reverse((void *)lj_energy, enzyme_dup, pos, s, 1.0, aug.tape);
  for (int i = 0; i < 3 * NATOM; i++) check("split reverse", s[i], fd[i], 1e-6);
  check("split primal", aug.primal, lj_energy(pos), 1e-14);
  return finish();
}

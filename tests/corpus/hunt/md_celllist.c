#include "hunt.h"
/* Lennard-Jones molecular dynamics in a periodic cubic box with cell lists (head/next linked lists
   rebuilt every step), minimum-image convention with round(), truncated and shifted potential,
   velocity Verlet.  Derivatives: the energy gradient against the analytic forces, and the final
   kinetic energy of a short run with respect to the initial positions and the time step. */
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);

typedef struct {
  int ncell;       /* cells per side */
  double cell;     /* cell edge */
  int *head, *next;
} CellList;

static int wrap(int c, int n) { return (c % n + n) % n; }

static void build_cells(CellList *cl, const double *pos, int n, double box) {
  int nc = cl->ncell;
  for (int c = 0; c < nc * nc * nc; c++) cl->head[c] = -1;
  for (int i = 0; i < n; i++) {
    int cx = wrap((int)floor(pos[3 * i] / cl->cell), nc);
    int cy = wrap((int)floor(pos[3 * i + 1] / cl->cell), nc);
    int cz = wrap((int)floor(pos[3 * i + 2] / cl->cell), nc);
    int c = (cz * nc + cy) * nc + cx;
    cl->next[i] = cl->head[c];
    cl->head[c] = i;
  }
}

static double pair_energy(double r2, double rc2, double shift) {
  if (r2 >= rc2) return 0.0;
  double s2 = 1.0 / r2, s6 = s2 * s2 * s2;
  return 4.0 * (s6 * s6 - s6) - shift;
}

/* Potential energy; forces (if non-null) are -dE/dx computed by hand. */
double lj_energy(const double *pos, double *force, int n, double box, double rc) {
  CellList cl;
  cl.ncell = (int)(box / rc);
  cl.cell = box / cl.ncell;
  cl.head = malloc(sizeof(int) * cl.ncell * cl.ncell * cl.ncell);
  cl.next = malloc(sizeof(int) * n);
  build_cells(&cl, pos, n, box);
  double rc2 = rc * rc, src6 = 1.0 / (rc2 * rc2 * rc2), shift = 4.0 * (src6 * src6 - src6);
  double e = 0.0;
  if (force) memset(force, 0, sizeof(double) * 3 * n);
  int nc = cl.ncell;
  for (int cz = 0; cz < nc; cz++)
    for (int cy = 0; cy < nc; cy++)
      for (int cx = 0; cx < nc; cx++)
        for (int i = cl.head[(cz * nc + cy) * nc + cx]; i >= 0; i = cl.next[i])
          for (int dz = -1; dz <= 1; dz++)
            for (int dy = -1; dy <= 1; dy++)
              for (int dx = -1; dx <= 1; dx++) {
                int c2 = (wrap(cz + dz, nc) * nc + wrap(cy + dy, nc)) * nc + wrap(cx + dx, nc);
                for (int j = cl.head[c2]; j >= 0; j = cl.next[j]) {
                  if (j <= i) continue;
                  double d[3], r2 = 0.0;
                  for (int k = 0; k < 3; k++) {
                    d[k] = pos[3 * i + k] - pos[3 * j + k];
                    d[k] -= box * round(d[k] / box);
                    r2 += d[k] * d[k];
                  }
                  e += pair_energy(r2, rc2, shift);
                  if (force && r2 < rc2) {
                    double s2 = 1.0 / r2, s6 = s2 * s2 * s2;
                    double fr = 24.0 * s2 * (2.0 * s6 * s6 - s6);
                    for (int k = 0; k < 3; k++) { force[3 * i + k] += fr * d[k]; force[3 * j + k] -= fr * d[k]; }
                  }
                }
              }
  free(cl.head);
  free(cl.next);
  return e;
}

/* Velocity Verlet with unit masses; returns the final kinetic energy.  pos and vel are advanced in place. */
double md_run(double *pos, double *vel, int n, double box, double rc, double dt, int nsteps) {
  double *f = malloc(sizeof(double) * 3 * n);
  lj_energy(pos, f, n, box, rc);
  for (int s = 0; s < nsteps; s++) {
    for (int i = 0; i < 3 * n; i++) {
      vel[i] += 0.5 * dt * f[i];
      pos[i] += dt * vel[i];
    }
    lj_energy(pos, f, n, box, rc);
    for (int i = 0; i < 3 * n; i++) vel[i] += 0.5 * dt * f[i];
  }
  double ke = 0.0;
  for (int i = 0; i < 3 * n; i++) ke += 0.5 * vel[i] * vel[i];
  free(f);
  return ke;
}

enum { SIDE = 4, N = SIDE * SIDE * SIDE, NP = 6, NSTEPS = 10 };
static double pos0[3 * N], vel0[3 * N], pos[3 * N], vel[3 * N];
static double box = 4 * 1.15, rc = 1.5, dt = 0.004;
static const int probes[NP] = {0, 4, 17, 40, 66, 190};

static double run_md(void) {
  memcpy(pos, pos0, sizeof pos); memcpy(vel, vel0, sizeof vel);
  return md_run(pos, vel, N, box, rc, dt, NSTEPS);
}

int main(void) {
  unsigned s = 12345u;
  for (int i = 0; i < SIDE; i++)
    for (int j = 0; j < SIDE; j++)
      for (int k = 0; k < SIDE; k++) {
        int p = (i * SIDE + j) * SIDE + k;
        double c[3] = {i, j, k};
        for (int d = 0; d < 3; d++) {
          s = s * 1103515245u + 12345u;
          pos0[3 * p + d] = 1.15 * c[d] + 0.3 + 0.1 * ((s >> 8) % 1000) / 1000.0;
          s = s * 1103515245u + 12345u;
          vel0[3 * p + d] = 0.5 * (((s >> 8) % 1000) / 1000.0 - 0.5);
        }
      }
  double force[3 * N], fd[NP + 1], ad[NP + 1], fe[NP];
  lj_energy(pos0, force, N, box, rc);
  for (int k = 0; k < NP; k++) {
    fe[k] = HUNT_FD(lj_energy(pos0, NULL, N, box, rc), pos0[probes[k]]);
    fd[k] = HUNT_FD(run_md(), pos0[probes[k]]);
  }
  fd[NP] = HUNT_FD(run_md(), dt);
  for (int k = 0; k < NP; k++) ad[k] = -force[probes[k]];
  hunt_check_vec("hand forces vs fd", ad, fe, NP); /* the program's own forces are right */
#ifdef MODE_REV
  double dpos[3 * N] = {0};
  double fscratch[3 * N], dfscratch[3 * N] = {0}; /* the forces are an output: dup with a zero seed */
  __enzyme_autodiff((void *)lj_energy, enzyme_dup, pos0, dpos, enzyme_dup, fscratch, dfscratch, enzyme_const, N,
                    enzyme_const, box, enzyme_const, rc);
  for (int k = 0; k < NP; k++) ad[k] = dpos[probes[k]];
  hunt_check_vec("energy grad", ad, fe, NP);
  double dvel[3 * N] = {0};
  memset(dpos, 0, sizeof dpos);
  memcpy(pos, pos0, sizeof pos); memcpy(vel, vel0, sizeof vel);
  ad[NP] = __enzyme_autodiff((void *)md_run, enzyme_dup, pos, dpos, enzyme_dup, vel, dvel, enzyme_const, N,
                             enzyme_const, box, enzyme_const, rc, dt, enzyme_const, NSTEPS);
  for (int k = 0; k < NP; k++) ad[k] = dpos[probes[k]];
  hunt_check_vec("md grad", ad, fd, NP + 1);
#endif
#ifdef MODE_FWD
  double dpos[3 * N] = {0}, dvel[3 * N] = {0};
  for (int k = 0; k < NP; k++) {
    dpos[probes[k]] = 1.0;
    double fscratch[3 * N], dfscratch[3 * N];
    ad[k] = __enzyme_fwddiff((void *)lj_energy, enzyme_dup, pos0, dpos, enzyme_dup, fscratch, dfscratch,
                             enzyme_const, N, enzyme_const, box, enzyme_const, rc);
    dpos[probes[k]] = 0.0;
  }
  hunt_check_vec("energy grad", ad, fe, NP);
  for (int k = 0; k <= NP; k++) {
    memset(dpos, 0, sizeof dpos); memset(dvel, 0, sizeof dvel);
    if (k < NP) dpos[probes[k]] = 1.0;
    memcpy(pos, pos0, sizeof pos); memcpy(vel, vel0, sizeof vel);
    ad[k] = __enzyme_fwddiff((void *)md_run, enzyme_dup, pos, dpos, enzyme_dup, vel, dvel, enzyme_const, N,
                             enzyme_const, box, enzyme_const, rc, dt, k == NP ? 1.0 : 0.0, enzyme_const, NSTEPS);
  }
  hunt_check_vec("md grad", ad, fd, NP + 1);
#endif
#ifdef MODE_BATCH
  double pa[3 * N], pb[3 * N], va[3 * N] = {0}, vb[3 * N] = {0};
  for (int k = 0; k < NP; k += 2) {
    memset(pa, 0, sizeof pa); memset(pb, 0, sizeof pb); memset(va, 0, sizeof va); memset(vb, 0, sizeof vb);
    pa[probes[k]] = 1.0; pb[probes[k + 1]] = 1.0;
    memcpy(pos, pos0, sizeof pos); memcpy(vel, vel0, sizeof vel);
    v2 t = __enzyme_fwddiff_v2((void *)md_run, enzyme_width, 2, enzyme_dup, pos, pa, pb, enzyme_dup, vel, va, vb,
                               enzyme_const, N, enzyme_const, box, enzyme_const, rc, dt, 0.0, 0.0, enzyme_const,
                               NSTEPS);
    ad[k] = t.d[0]; ad[k + 1] = t.d[1];
  }
  hunt_check_vec("md grad", ad, fd, NP);
#endif
#ifdef MODE_SPLIT
  double dpos[3 * N] = {0}, dvel[3 * N] = {0};
  memcpy(pos, pos0, sizeof pos); memcpy(vel, vel0, sizeof vel);
  aug_t r = __enzyme_augmentfwd((void *)md_run, enzyme_dup, pos, dpos, enzyme_dup, vel, dvel, enzyme_const, N,
                                enzyme_const, box, enzyme_const, rc, dt, enzyme_const, NSTEPS);
  hunt_check("primal", r.primal, run_md());
  ad[NP] = __enzyme_reverse((void *)md_run, enzyme_dup, pos, dpos, enzyme_dup, vel, dvel, enzyme_const, N,
                            enzyme_const, box, enzyme_const, rc, dt, enzyme_const, NSTEPS, 1.0, r.tape);
  for (int k = 0; k < NP; k++) ad[k] = dpos[probes[k]];
  hunt_check_vec("md grad", ad, fd, NP + 1);
#endif
  return hunt_finish();
}

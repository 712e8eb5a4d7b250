#include "hunt.h"
/* Weakly compressible SPH: a small 2-D water column settling under gravity in a box.  Particles are an
   array of structs; neighbours are found each step by binning particles into grid cells (cell index per
   particle, then qsort of (cell, particle) pairs and a cell-start table), the density is summed with the
   cubic-spline kernel, the pressure comes from the Tait equation, and momentum has a Monaghan artificial
   viscosity; walls are penalty forces.  Symplectic Euler steps.  Objective: potential plus kinetic energy
   at the end.  Inputs: initial positions (dup), the Tait stiffness B and the viscosity alpha (active). */
typedef struct { double x[2], v[2], a[2]; double rho, p; int cell; } particle;
typedef struct { int cell, id; } cell_entry;
typedef struct { double h, mass, rho0, gamma, g, dt, box; int steps; } sph_params;

static const sph_params P = {0.12, 0.01, 1.0, 7.0, 1.0, 0.004, 1.0, 25};
enum { GRID = 4 }; /* cells of side box / GRID >= 2h */

static double kernel(double r, double h) {
  double q = r / h, sigma = 10.0 / (7.0 * M_PI * h * h);
  if (q < 1.0) return sigma * (1 - 1.5 * q * q + 0.75 * q * q * q);
  if (q < 2.0) { double t = 2 - q; return sigma * 0.25 * t * t * t; }
  return 0.0;
}

static double kernel_deriv(double r, double h) { /* dW/dr */
  double q = r / h, sigma = 10.0 / (7.0 * M_PI * h * h);
  if (q < 1.0) return sigma * (-3 * q + 2.25 * q * q) / h;
  if (q < 2.0) { double t = 2 - q; return -sigma * 0.75 * t * t / h; }
  return 0.0;
}

static int by_cell(const void *a, const void *b) {
  const cell_entry *p = a, *q = b;
  if (p->cell != q->cell) return p->cell < q->cell ? -1 : 1;
  return p->id - q->id;
}

static int cell_of(const double x[2], double box) {
  int i = (int)floor(x[0] / box * GRID), j = (int)floor(x[1] / box * GRID);
  if (i < 0) i = 0;
  if (i >= GRID) i = GRID - 1;
  if (j < 0) j = 0;
  if (j >= GRID) j = GRID - 1;
  return j * GRID + i;
}

/* cell of every particle, particles sorted by cell, start[c] = first entry of cell c in the list */
static void build_cells(particle *ps, int n, cell_entry *list, int *start) {
  for (int i = 0; i < n; i++) { ps[i].cell = cell_of(ps[i].x, P.box); list[i].cell = ps[i].cell; list[i].id = i; }
  qsort(list, n, sizeof *list, by_cell);
  for (int c = 0; c <= GRID * GRID; c++) start[c] = n;
  for (int k = n - 1; k >= 0; k--) start[list[k].cell] = k;
  for (int c = GRID * GRID - 1; c >= 0; c--) if (start[c] > start[c + 1]) start[c] = start[c + 1];
}

static void compute_density(particle *ps, int n, const cell_entry *list, const int *start) {
  for (int i = 0; i < n; i++) ps[i].rho = P.mass * kernel(0.0, P.h);
  for (int i = 0; i < n; i++) {
    int ci = ps[i].cell % GRID, cj = ps[i].cell / GRID;
    for (int dj = -1; dj <= 1; dj++)
      for (int di = -1; di <= 1; di++) {
        int a = ci + di, b = cj + dj;
        if (a < 0 || a >= GRID || b < 0 || b >= GRID) continue;
        int c = b * GRID + a;
        for (int k = start[c]; k < start[c + 1]; k++) {
          int j = list[k].id;
          if (j <= i) continue;
          double r = hypot(ps[i].x[0] - ps[j].x[0], ps[i].x[1] - ps[j].x[1]);
          double w = P.mass * kernel(r, P.h);
          ps[i].rho += w;
          ps[j].rho += w;
        }
      }
  }
}

static void compute_forces(particle *ps, int n, const cell_entry *list, const int *start, double B, double alpha) {
  double c0 = sqrt(B * P.gamma / P.rho0);
  for (int i = 0; i < n; i++) {
    ps[i].p = B * (pow(ps[i].rho / P.rho0, P.gamma) - 1.0);
    ps[i].a[0] = 0.0;
    ps[i].a[1] = -P.g;
  }
  for (int i = 0; i < n; i++) {
    int ci = ps[i].cell % GRID, cj = ps[i].cell / GRID;
    for (int dj = -1; dj <= 1; dj++)
      for (int di = -1; di <= 1; di++) {
        int a = ci + di, b = cj + dj;
        if (a < 0 || a >= GRID || b < 0 || b >= GRID) continue;
        int c = b * GRID + a;
        for (int k = start[c]; k < start[c + 1]; k++) {
          int j = list[k].id;
          if (j <= i) continue;
          double dx = ps[i].x[0] - ps[j].x[0], dy = ps[i].x[1] - ps[j].x[1];
          double r = sqrt(dx * dx + dy * dy);
          if (r >= 2 * P.h || r < 1e-12) continue;
          double dvx = ps[i].v[0] - ps[j].v[0], dvy = ps[i].v[1] - ps[j].v[1];
          double vr = dvx * dx + dvy * dy, visc = 0.0;
          if (vr < 0) { /* approaching: Monaghan viscosity */
            double mu = P.h * vr / (r * r + 0.01 * P.h * P.h);
            double rho_bar = 0.5 * (ps[i].rho + ps[j].rho);
            visc = -alpha * c0 * mu / rho_bar;
          }
          double term = ps[i].p / (ps[i].rho * ps[i].rho) + ps[j].p / (ps[j].rho * ps[j].rho) + visc;
          double f = -P.mass * term * kernel_deriv(r, P.h) / r;
          ps[i].a[0] += f * dx; ps[i].a[1] += f * dy;
          ps[j].a[0] -= f * dx; ps[j].a[1] -= f * dy;
        }
      }
  }
  for (int i = 0; i < n; i++) /* penalty walls */
    for (int d = 0; d < 2; d++) {
      double lo = ps[i].x[d] - 0.5 * P.h, hi = ps[i].x[d] - (P.box - 0.5 * P.h);
      if (lo < 0) ps[i].a[d] -= 400.0 * lo;
      if (hi > 0) ps[i].a[d] -= 400.0 * hi;
    }
}

double column_energy(const double *x0, int n, double B, double alpha) {
  particle *ps = calloc(n, sizeof *ps);
  cell_entry *list = malloc(n * sizeof *list);
  int *start = malloc((GRID * GRID + 1) * sizeof *start);
  for (int i = 0; i < n; i++) { ps[i].x[0] = x0[2 * i]; ps[i].x[1] = x0[2 * i + 1]; }
  for (int s = 0; s < P.steps; s++) {
    build_cells(ps, n, list, start);
    compute_density(ps, n, list, start);
    compute_forces(ps, n, list, start, B, alpha);
    for (int i = 0; i < n; i++)
      for (int d = 0; d < 2; d++) { ps[i].v[d] += P.dt * ps[i].a[d]; ps[i].x[d] += P.dt * ps[i].v[d]; }
  }
  double e = 0;
  for (int i = 0; i < n; i++)
    e += P.mass * (0.5 * (ps[i].v[0] * ps[i].v[0] + ps[i].v[1] * ps[i].v[1]) + P.g * ps[i].x[1]);
  free(ps); free(list); free(start);
  return e;
}

enum { NPART = 20, NP = 4 };
static double x0[2 * NPART];
static const int probes[NP] = {0, 7, 21, 38};
int main(void) {
  for (int i = 0; i < NPART; i++) { /* 4 wide, 5 high, slightly jittered */
    x0[2 * i] = 0.1 + 0.09 * (i % 4) + 0.004 * sin(3.0 * i);
    x0[2 * i + 1] = 0.08 + 0.09 * (i / 4) + 0.004 * cos(5.0 * i);
  }
  hunt_fd_step = 1e-6; /* wall penalties and the viscosity switch are kinks a 1e-4 stencil straddles */
  double B = 2.0, alpha = 0.3, fd[NP + 2], ad[NP + 2];
  printf("energy %.12g\n", column_energy(x0, NPART, B, alpha));
  fd[0] = HUNT_FD(column_energy(x0, NPART, B, alpha), B);
  fd[1] = HUNT_FD(column_energy(x0, NPART, B, alpha), alpha);
  for (int k = 0; k < NP; k++) fd[k + 2] = HUNT_FD(column_energy(x0, NPART, B, alpha), x0[probes[k]]);
#ifdef MODE_REV
  double dx0[2 * NPART] = {0};
  ad[0] = __enzyme_autodiff((void *)column_energy, enzyme_dup, x0, dx0, enzyme_const, NPART, enzyme_out, B,
                            enzyme_const, alpha);
  for (int k = 0; k < NP; k++) ad[k + 2] = dx0[probes[k]];
  ad[1] = __enzyme_autodiff((void *)column_energy, enzyme_const, x0, enzyme_const, NPART, enzyme_const, B,
                            enzyme_out, alpha);
  hunt_check_vec("grad", ad, fd, NP + 2);
#endif
#ifdef MODE_FWD
  double dx0[2 * NPART] = {0};
  ad[0] = __enzyme_fwddiff((void *)column_energy, enzyme_const, x0, enzyme_const, NPART, enzyme_dup, B, 1.0,
                           enzyme_const, alpha);
  ad[1] = __enzyme_fwddiff((void *)column_energy, enzyme_const, x0, enzyme_const, NPART, enzyme_const, B,
                           enzyme_dup, alpha, 1.0);
  for (int k = 0; k < NP; k++) {
    dx0[probes[k]] = 1.0;
    ad[k + 2] = __enzyme_fwddiff((void *)column_energy, enzyme_dup, x0, dx0, enzyme_const, NPART, enzyme_const, B,
                                 enzyme_const, alpha);
    dx0[probes[k]] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP + 2);
#endif
  return hunt_finish();
}

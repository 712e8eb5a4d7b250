#include "hunt.h"
#include <complex.h>
/* AC power flow on a small transmission grid by Newton-Raphson in polar coordinates.  Lines come from a
   const table of pi-models (series r + jx, shunt b, off-nominal tap); the bus admittance matrix is built
   in a calloc'd C99 double complex array; power injections S = V conj(YV); the Jacobian blocks dP/dtheta,
   dP/d|V|, dQ/dtheta, dQ/d|V| are formed from the complex derivative formulas, and the correction is
   solved by Gaussian elimination with partial pivoting in a VLA; Newton stops on a mismatch tolerance.
   Objective: real losses plus a voltage-deviation penalty.  Inputs: the PQ loads (dup) and a scale on
   every line reactance (active). */
typedef enum { SLACK, PV, PQ } bus_type;
typedef struct { bus_type type; double p_spec, q_spec, v_spec; } bus;
typedef struct { int from, to; double r, x, b, tap; } line;

enum { NB = 5, NL = 6 };
static const line LINES[NL] = {
    {0, 1, 0.02, 0.06, 0.06, 1.0}, {0, 2, 0.08, 0.24, 0.05, 1.0}, {1, 2, 0.06, 0.18, 0.04, 1.0},
    {1, 3, 0.06, 0.18, 0.04, 0.98}, {2, 3, 0.01, 0.03, 0.02, 1.0}, {3, 4, 0.08, 0.24, 0.05, 1.0}};
static int newton_iterations = 0;

static void build_ybus(double complex *Y, double x_scale) {
  memset(Y, 0, NB * NB * sizeof *Y);
  for (int k = 0; k < NL; k++) {
    const line *ln = &LINES[k];
    double complex ys = 1.0 / (ln->r + I * ln->x * x_scale), ysh = I * ln->b / 2;
    int f = ln->from, t = ln->to;
    double a = ln->tap;
    Y[f * NB + f] += (ys + ysh) / (a * a);
    Y[t * NB + t] += ys + ysh;
    Y[f * NB + t] -= ys / a;
    Y[t * NB + f] -= ys / a;
  }
}

static void injections(const double complex *Y, const double *vm, const double *va, double complex *S, double complex *Ibus) {
  for (int i = 0; i < NB; i++) {
    double complex cur = 0;
    for (int j = 0; j < NB; j++) cur += Y[i * NB + j] * vm[j] * cexp(I * va[j]);
    Ibus[i] = cur;
    S[i] = vm[i] * cexp(I * va[i]) * conj(cur);
  }
}

static int solve_pivot(int n, double A[n][n], double *b) {
  for (int k = 0; k < n; k++) {
    int p = k;
    for (int i = k + 1; i < n; i++) if (fabs(A[i][k]) > fabs(A[p][k])) p = i;
    if (fabs(A[p][k]) < 1e-14) return -1;
    if (p != k) {
      double row[n];
      memcpy(row, A[k], sizeof row); memcpy(A[k], A[p], sizeof row); memcpy(A[p], row, sizeof row);
      double t = b[k]; b[k] = b[p]; b[p] = t;
    }
    for (int i = k + 1; i < n; i++) {
      double m = A[i][k] / A[k][k];
      for (int j = k; j < n; j++) A[i][j] -= m * A[k][j];
      b[i] -= m * b[k];
    }
  }
  for (int i = n - 1; i >= 0; i--) {
    double s = b[i];
    for (int j = i + 1; j < n; j++) s -= A[i][j] * b[j];
    b[i] = s / A[i][i];
  }
  return 0;
}

double power_flow(bus *buses, const double *loads, double x_scale) {
  double complex *Y = calloc(NB * NB, sizeof *Y), S[NB], Ibus[NB];
  double vm[NB], va[NB];
  int ang[NB], mag[NB], na = 0, nm = 0;
  for (int i = 0, l = 0; i < NB; i++) {
    vm[i] = buses[i].type == PQ ? 1.0 : buses[i].v_spec;
    va[i] = 0.0;
    if (buses[i].type == PQ) { buses[i].p_spec = -loads[2 * l]; buses[i].q_spec = -loads[2 * l + 1]; l++; }
    if (buses[i].type != SLACK) ang[na++] = i;
    if (buses[i].type == PQ) mag[nm++] = i;
  }
  build_ybus(Y, x_scale);
  int n = na + nm;
  for (int it = 0; it < 30; it++) {
    injections(Y, vm, va, S, Ibus);
    double mis[n], worst = 0;
    for (int k = 0; k < na; k++) mis[k] = buses[ang[k]].p_spec - creal(S[ang[k]]);
    for (int k = 0; k < nm; k++) mis[na + k] = buses[mag[k]].q_spec - cimag(S[mag[k]]);
    for (int k = 0; k < n; k++) worst = fmax(worst, fabs(mis[k]));
    if (worst < 1e-13) break;
    newton_iterations++;
    double J[n][n];
    for (int r = 0; r < n; r++) {
      int i = r < na ? ang[r] : mag[r - na];
      double complex Vi = vm[i] * cexp(I * va[i]);
      for (int c = 0; c < n; c++) {
        int j = c < na ? ang[c] : mag[c - na];
        double complex Vj = vm[j] * cexp(I * va[j]), dS;
        if (c < na) { /* dS_i / dtheta_j = j V_i conj(delta_ij I_i - Y_ij V_j) */
          dS = I * Vi * conj((i == j ? Ibus[i] : 0) - Y[i * NB + j] * Vj);
        } else { /* dS_i / d|V_j| = V_i conj(Y_ij V_j/|V_j|) + delta_ij conj(I_i) V_i/|V_i| */
          dS = Vi * conj(Y[i * NB + j] * Vj / vm[j]) + (i == j ? conj(Ibus[i]) * Vi / vm[i] : 0);
        }
        J[r][c] = r < na ? creal(dS) : cimag(dS);
      }
    }
    if (solve_pivot(n, J, mis) != 0) { fprintf(stderr, "singular Jacobian\n"); break; }
    for (int k = 0; k < na; k++) va[ang[k]] += mis[k];
    for (int k = 0; k < nm; k++) vm[mag[k]] += mis[na + k];
  }
  injections(Y, vm, va, S, Ibus);
  double losses = 0, dev = 0;
  for (int i = 0; i < NB; i++) { losses += creal(S[i]); dev += (vm[i] - 1.0) * (vm[i] - 1.0); }
  free(Y);
  return losses + 10.0 * dev + 0.5 * carg(cexp(I * va[NB - 1]));
}

static bus grid[NB] = {{SLACK, 0, 0, 1.06}, {PV, 0.4, 0, 1.045}, {PQ, 0, 0, 0}, {PQ, 0, 0, 0}, {PQ, 0, 0, 0}};
enum { NLOAD = 6 };
static double loads[NLOAD] = {0.45, 0.15, 0.40, 0.05, 0.60, 0.10};
int main(void) {
  double xs = 1.0, fd[NLOAD + 1], ad[NLOAD + 1];
  printf("objective %.12g", power_flow(grid, loads, xs));
  printf(" after %d Newton iterations\n", newton_iterations);
  for (int k = 0; k < NLOAD; k++) fd[k] = HUNT_FD(power_flow(grid, loads, xs), loads[k]);
  fd[NLOAD] = HUNT_FD(power_flow(grid, loads, xs), xs);
#ifdef MODE_REV
  double dloads[NLOAD] = {0};
  bus dgrid[NB];
  memset(dgrid, 0, sizeof dgrid);
  ad[NLOAD] = __enzyme_autodiff((void *)power_flow, enzyme_dup, grid, dgrid, enzyme_dup, loads, dloads, enzyme_out, xs);
  for (int k = 0; k < NLOAD; k++) ad[k] = dloads[k];
  hunt_check_vec("grad", ad, fd, NLOAD + 1);
#endif
#ifdef MODE_FWD
  double dloads[NLOAD] = {0};
  bus dgrid[NB];
  memset(dgrid, 0, sizeof dgrid);
  for (int k = 0; k < NLOAD; k++) {
    dloads[k] = 1.0;
    ad[k] = __enzyme_fwddiff((void *)power_flow, enzyme_dup, grid, dgrid, enzyme_dup, loads, dloads, enzyme_const, xs);
    dloads[k] = 0.0;
  }
  ad[NLOAD] = __enzyme_fwddiff((void *)power_flow, enzyme_dup, grid, dgrid, enzyme_const, loads, enzyme_dup, xs, 1.0);
  hunt_check_vec("grad", ad, fd, NLOAD + 1);
#endif
  return hunt_finish();
}

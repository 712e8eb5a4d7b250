/* Gradient time against the reference compiler's -O3 primal (clang, flang or rustc) for the kernels of
   benchmarks/bench_adbench.py: ADBench's bundle adjustment (ba.c) and LSTM (lstm.c), a Fortran heat-equation
   kernel (heat.f90) and a Rust spring-chain energy (springs.rs).  <name> is built by pyenzyme (primal and
   grad_<name>), clang_<name> by the language's own compiler at -O3.  Each gradient is checked against central
   differences in one component of each differentiated input. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Bytes the gradient pushed on its tape: counted when built with PYENZYME_TAPE_STATS=1, else 0. */
long __pyenzyme_tape_bytes;

double ba_objective(int, int, int, const double *, const double *, const double *, const int *, const double *);
double clang_ba_objective(int, int, int, const double *, const double *, const double *, const int *, const double *);
void grad_ba(int, int, int, const double *, double *, const double *, double *, const double *, double *, const int *,
             const double *);
void lstm_objective(int, int, int, const double *, const double *, const double *, const double *, double *);
void clang_lstm_objective(int, int, int, const double *, const double *, const double *, const double *, double *);
void grad_lstm(int, int, int, const double *, double *, const double *, double *, const double *, const double *,
               double *, double *);
double heat_energy(const double *, long, long), clang_heat_energy(const double *, long, long);
void grad_heat(const double *, double *, long, long);
double springs_energy(const double *, unsigned long), clang_springs_energy(const double *, unsigned long);
void grad_springs(const double *, double *, unsigned long);

static int reps = 20, failed = 0;
static double now(void) { struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts); return ts.tv_sec + 1e-9 * ts.tv_nsec; }
#define BEST(expr) ({ double _best = 1e30; for (int _r = 0; _r < reps; _r++) { double _t = now(); expr; double _d = now() - _t; if (_d < _best) _best = _d; } _best; })
static long tape_bytes(void) { return *(volatile long *)&__pyenzyme_tape_bytes; }
static unsigned seed = 12345;
static double rnd(void) { seed = seed * 1103515245u + 12345u; return seed / 4294967296.0; }
volatile double sink;

static void report(const char *name, double t_ref, double t_own, double t_grad, long tape, const char *what, double got,
                   double fd) {
  int ok = fabs(got - fd) <= 1e-4 * fabs(fd) + 1e-8; /* relative: some LSTM gradients are ~1e-6 */
  printf("%-8s reference -O3 primal %10.1f us  own primal %10.1f us  gradient %10.1f us  ratio %6.2f  tape %10ld B  "
         "%s %.8g vs fd %.8g%s\n", name, t_ref * 1e6, t_own * 1e6, t_grad * 1e6, t_grad / t_ref, tape, what, got, fd,
         ok ? "" : "  DISAGREES");
  failed |= !ok;
}

static void bench_ba(int scale) {
  int n = 20, m = 200 * scale, p = 800 * scale;
  double *cams = malloc(11 * n * sizeof(double)), *X = malloc(3 * m * sizeof(double)), *w = malloc(p * sizeof(double));
  double *feats = malloc(2 * p * sizeof(double)), *dcams = calloc(11 * n, sizeof(double));
  double *dX = calloc(3 * m, sizeof(double)), *dw = calloc(p, sizeof(double));
  int *obs = malloc(2 * p * sizeof(int));
  for (int i = 0; i < n; i++) {
    double cam[11] = {0.1 * rnd(), 0.1 * rnd(), 0.1 * rnd(), rnd(), rnd(), -5 - rnd(), 500 + 10 * rnd(),
                      rnd(), rnd(), 1e-3 * rnd(), 1e-4 * rnd()};
    memcpy(&cams[11 * i], cam, sizeof cam);
  }
  for (int i = 0; i < 3 * m; i++) X[i] = rnd();
  for (int i = 0; i < p; i++) {
    w[i] = 0.5 + 0.5 * rnd();
    obs[2 * i] = i % n; obs[2 * i + 1] = i % m;
    feats[2 * i] = 100 * rnd(); feats[2 * i + 1] = 100 * rnd();
  }
  double tr = BEST(sink = clang_ba_objective(n, m, p, cams, X, w, obs, feats));
  double to = BEST(sink = ba_objective(n, m, p, cams, X, w, obs, feats));
  long t0 = tape_bytes();
  grad_ba(n, m, p, cams, dcams, X, dX, w, dw, obs, feats);
  long tape = tape_bytes() - t0;
  double tg = BEST((memset(dcams, 0, 11 * n * sizeof(double)), memset(dX, 0, 3 * m * sizeof(double)),
                    memset(dw, 0, p * sizeof(double)), grad_ba(n, m, p, cams, dcams, X, dX, w, dw, obs, feats)));
  double *args[3] = {cams, X, w}, *grads[3] = {dcams, dX, dw};
  int idx[3] = {11 + 1, 3 * 5 + 2, 7};
  const char *what[3] = {"d/dcam", "d/dX", "d/dw"};
  for (int a = 0; a < 3; a++) {
    double h = 1e-6 * (1 + fabs(args[a][idx[a]])), v = args[a][idx[a]];
    args[a][idx[a]] = v + h; double fp = ba_objective(n, m, p, cams, X, w, obs, feats);
    args[a][idx[a]] = v - h; double fm = ba_objective(n, m, p, cams, X, w, obs, feats);
    args[a][idx[a]] = v;
    report(a ? "" : "BA", tr, to, tg, tape, what[a], grads[a][idx[a]], (fp - fm) / (2 * h));
  }
  free(cams); free(X); free(w); free(feats); free(dcams); free(dX); free(dw); free(obs);
}

static void bench_lstm(int scale) {
  int l = 2, c = 64 * scale, b = 14, nmain = 2 * l * 4 * b, nextra = 3 * b;
  double *main_p = malloc(nmain * sizeof(double)), *extra = malloc(nextra * sizeof(double));
  double *state = malloc(2 * l * b * sizeof(double)), *seq = malloc(c * b * sizeof(double));
  double *dmain = calloc(nmain, sizeof(double)), *dextra = calloc(nextra, sizeof(double)), loss, dloss;
  for (int i = 0; i < nmain; i++) main_p[i] = 2 * rnd() - 1;
  for (int i = 0; i < nextra; i++) extra[i] = 2 * rnd() - 1;
  for (int i = 0; i < 2 * l * b; i++) state[i] = 2 * rnd() - 1;
  for (int i = 0; i < c * b; i++) seq[i] = rnd();
  double tr = BEST(clang_lstm_objective(l, c, b, main_p, extra, state, seq, &loss));
  double to = BEST(lstm_objective(l, c, b, main_p, extra, state, seq, &loss));
#define GRAD_LSTM() (memset(dmain, 0, nmain * sizeof(double)), memset(dextra, 0, nextra * sizeof(double)), dloss = 1.0, \
                     grad_lstm(l, c, b, main_p, dmain, extra, dextra, state, seq, &loss, &dloss))
  long t0 = tape_bytes();
  GRAD_LSTM();
  long tape = tape_bytes() - t0;
  double tg = BEST(GRAD_LSTM());
  double *args[2] = {main_p, extra}, *grads[2] = {dmain, dextra};
  int idx[2] = {4 * b + 3, b + 5};
  const char *what[2] = {"d/dmain", "d/dextra"};
  for (int a = 0; a < 2; a++) {
    double h = 1e-6, v = args[a][idx[a]], fp, fm;
    args[a][idx[a]] = v + h; lstm_objective(l, c, b, main_p, extra, state, seq, &fp);
    args[a][idx[a]] = v - h; lstm_objective(l, c, b, main_p, extra, state, seq, &fm);
    args[a][idx[a]] = v;
    report(a ? "" : "LSTM", tr, to, tg, tape, what[a], grads[a][idx[a]], (fp - fm) / (2 * h));
  }
  free(main_p); free(extra); free(state); free(seq); free(dmain); free(dextra);
}

static void bench_heat(int scale) {
  long n = 100 * scale, steps = 100 * scale;
  double *u = malloc(n * sizeof(double)), *du = calloc(n, sizeof(double));
  for (long i = 0; i < n; i++) u[i] = sin(3.0 * i / n) + 0.1 * rnd();
  double tr = BEST(sink = clang_heat_energy(u, n, steps)), to = BEST(sink = heat_energy(u, n, steps));
  long t0 = tape_bytes();
  grad_heat(u, du, n, steps);
  long tape = tape_bytes() - t0;
  double tg = BEST((memset(du, 0, n * sizeof(double)), grad_heat(u, du, n, steps)));
  long k = n / 3;
  double h = 1e-6, v = u[k];
  u[k] = v + h; double fp = heat_energy(u, n, steps);
  u[k] = v - h; double fm = heat_energy(u, n, steps);
  u[k] = v;
  report("heat.f90", tr, to, tg, tape, "d/du0", du[k], (fp - fm) / (2 * h));
  free(u); free(du);
}

static void bench_springs(int scale) {
  unsigned long n = 100 * scale;
  double *x = malloc(2 * n * sizeof(double)), *dx = calloc(2 * n, sizeof(double));
  for (unsigned long i = 0; i < n; i++) { x[2 * i] = i + 0.1 * rnd(); x[2 * i + 1] = 0.2 * rnd(); }
  double tr = BEST(sink = clang_springs_energy(x, n)), to = BEST(sink = springs_energy(x, n));
  long t0 = tape_bytes();
  grad_springs(x, dx, n);
  long tape = tape_bytes() - t0;
  double tg = BEST((memset(dx, 0, 2 * n * sizeof(double)), grad_springs(x, dx, n)));
  unsigned long k = n + 1;
  double h = 1e-6, v = x[k];
  x[k] = v + h; double fp = springs_energy(x, n);
  x[k] = v - h; double fm = springs_energy(x, n);
  x[k] = v;
  report("springs.rs", tr, to, tg, tape, "d/dx", dx[k], (fp - fm) / (2 * h));
  free(x); free(dx);
}

int main(int argc, char **argv) {
  int scale = argc > 1 ? atoi(argv[1]) : 4;
  if (argc > 2) reps = atoi(argv[2]);
  bench_ba(scale);
  bench_lstm(scale);
  bench_heat(scale);
  bench_springs(scale);
  return failed;
}

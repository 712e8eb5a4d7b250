#include "check.h"
/* Forward split mode: __enzyme_augmentfwd runs the primal and keeps a tape, __enzyme_fwdsplit later computes
   the tangents from that tape without running the primal again.  The primal pointers given to
   __enzyme_fwdsplit are null (as in upstream's examples): every primal value must come from the tape.  The
   functions overwrite their inputs, so recomputing from memory would give other numbers.  Checked against
   __enzyme_fwddiff on a copy of the inputs and against central differences. */
extern int enzyme_allocated, enzyme_tape, enzyme_width, enzyme_nofree;
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
void __enzyme_augmentfwd_alloc(void *, ...);
unsigned long __enzyme_augmentsize(void *, ...);
double __enzyme_fwdsplit(void *, ...);
void __enzyme_fwdsplit_void(void *, ...);
typedef struct { double d[2]; } two_t;
two_t __enzyme_fwdsplit_two(void *, ...);

/* Branches on the data, a loop, a libm call, and the input doubled in place. */
double branchy(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    if (x[i] > 0.5) s += sin(x[i]) * x[i];
    else s += x[i] * x[i] * x[i];
    x[i] = 2 * x[i];
  }
  return s;
}

typedef struct { double *a; double *b; double w; } pair_t;

/* Through pointers stored in a struct, a heap scratch buffer, a switch, and outputs written in place. */
void mix(pair_t *p, double *out, int n) {
  double *tmp = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) tmp[i] = p->a[i] * p->w + p->b[i];
  for (int i = 0; i < n; i++) {
    switch (i % 3) {
    case 0: out[i] = tmp[i] * tmp[i]; break;
    case 1: out[i] = exp(tmp[i]) - p->a[i]; break;
    default: out[i] = tmp[i] / (1 + p->b[i] * p->b[i]);
    }
    p->a[i] = out[i];  /* overwritten: the replay must not read it back */
  }
  free(tmp);
}

/* Calls of functions with a body that are not inlined: one with a tangent, one without (an integer of
   constant data), each replayed from the same log. */
__attribute__((noinline)) static double poly(const double *c, double x) { return c[0] + x * (c[1] + x * c[2]); }
__attribute__((noinline)) static int count_positive(const double *c, int n) {
  int k = 0;
  for (int i = 0; i < n; i++) k += c[i] > 0;
  return k;
}
double with_calls(double *x, const double *c, int n) {
  double s = 0;
  int k = count_positive(c, n);
  for (int i = 0; i < n; i++) {
    s += poly(c, x[i]) * k;
    x[i] = s;
  }
  return s;
}

/* Computes with the primal pointers' values (their difference), not only with what they point to. */
double spread(double *begin, double *end) {
  double s = 0;
  long n = end - begin;
  for (double *p = begin; p != end; p++) s += *p * *p * (double)n;
  return s;
}

enum { N = 5 };

static double with_calls_of(const double *x0, const double *c, int k, double xk) {
  double x[N];
  for (int i = 0; i < N; i++) x[i] = x0[i];
  x[k] = xk;
  return with_calls(x, c, N);
}

static double branchy_of(const double *x0, int k, double xk) {
  double x[N];
  for (int i = 0; i < N; i++) x[i] = x0[i];
  x[k] = xk;
  return branchy(x, N);
}

static double mix_of(const double *a0, const double *b0, double w, int which, int k, double v, int j) {
  double a[N], b[N], out[N];
  for (int i = 0; i < N; i++) { a[i] = a0[i]; b[i] = b0[i]; }
  if (which == 0) a[k] = v; else b[k] = v;
  pair_t p = {a, b, w};
  mix(&p, out, N);
  return out[j];
}

int main(void) {
  double v = 0;
  const double x0[N] = {0.1, 0.7, 0.3, 1.2, 0.55};
  const double dx0[N] = {1, 2, 3, 4, -1};

  /* 1. A returned tangent; heap tape; primal pointer null in the split call. */
  double x[N], dx[N], x2[N], dx2[N];
  for (int i = 0; i < N; i++) { x[i] = x2[i] = x0[i]; dx[i] = dx2[i] = dx0[i]; }
  double ref = __enzyme_fwddiff((void *)branchy, x2, dx2, enzyme_const, N);
  aug_t a = __enzyme_augmentfwd((void *)branchy, x, (double *)NULL, enzyme_const, N);
  check("branchy primal", a.primal, branchy_of(x0, 0, x0[0]), 1e-15);
  double got = __enzyme_fwdsplit((void *)branchy, (double *)NULL, dx, enzyme_const, N, a.tape);
  check("branchy split vs fwddiff", got, ref, 1e-15);
  double fd = 0;
  for (int k = 0; k < N; k++) fd += dx0[k] * CENTRAL(branchy_of(x0, k, v), v, x0[k]);
  check("branchy split vs central differences", got, fd, 1e-7);
  for (int i = 0; i < N; i++) check("branchy split leaves dx as fwddiff does", dx[i], dx2[i], 0);

  /* 2. Outputs through pointers, the caller's tape memory (enzyme_allocated), markers after the arguments. */
  const double a0[N] = {0.4, 0.8, -0.2, 0.6, 1.0};
  const double b0[N] = {0.3, -0.4, 0.25, 0.9, -1.1}, da0[N] = {0.5, -1, 2, 0.25, 1}, db0[N] = {1, 1, -0.5, 0, 2};
  const double w = 1.3;
  unsigned long need = __enzyme_augmentsize((void *)mix, enzyme_dup, enzyme_dup, enzyme_const);
  char tape[256];
  if (need > sizeof tape) { printf("tape needs %lu bytes\n", need); return 1; }
  double av[N], bv[N], out[N], dav[N], dbv[N], dout[N];
  for (int i = 0; i < N; i++) { av[i] = a0[i]; bv[i] = b0[i]; dav[i] = da0[i]; dbv[i] = db0[i]; dout[i] = 0; }
  pair_t p = {av, bv, w}, dp = {dav, dbv, 0};
  __enzyme_augmentfwd_alloc((void *)mix, enzyme_nofree, &p, (pair_t *)NULL, out, (double *)NULL, enzyme_const, N,
                            enzyme_allocated, need, enzyme_tape, tape);
  for (int j = 0; j < N; j++) check("mix primal", out[j], mix_of(a0, b0, w, 0, 0, a0[0], j), 1e-15);
  __enzyme_fwdsplit_void((void *)mix, (pair_t *)NULL, &dp, (double *)NULL, dout, enzyme_const, N,
                         enzyme_allocated, need, enzyme_tape, tape);
  double ra[N], rb[N], rda[N], rdb[N], rout[N], rdout[N];
  for (int i = 0; i < N; i++) { ra[i] = a0[i]; rb[i] = b0[i]; rda[i] = da0[i]; rdb[i] = db0[i]; rdout[i] = 0; }
  pair_t rp = {ra, rb, w}, rdp = {rda, rdb, 0};
  __enzyme_fwddiff((void *)mix, &rp, &rdp, rout, rdout, enzyme_const, N);
  for (int j = 0; j < N; j++) {
    check("mix split vs fwddiff", dout[j], rdout[j], 1e-15);
    check("mix split writes the tangent of a[j] as fwddiff does", dav[j], rda[j], 1e-15);
    double fdj = 0;
    for (int k = 0; k < N; k++)
      fdj += da0[k] * CENTRAL(mix_of(a0, b0, w, 0, k, v, j), v, a0[k])
           + db0[k] * CENTRAL(mix_of(a0, b0, w, 1, k, v, j), v, b0[k]);
    check("mix split vs central differences", dout[j], fdj, 1e-7);
  }

  /* 3. Two directions at once from one tape (enzyme_width 2). */
  for (int i = 0; i < N; i++) x[i] = x0[i];
  double e1[N] = {1, 0, 0, 0, 0}, e4[N] = {0, 0, 0, 1, 0};
  aug_t a3 = __enzyme_augmentfwd((void *)branchy, x, (double *)NULL, enzyme_const, N);
  for (int i = 0; i < N; i++) x[i] = -1;  /* memory changes between the calls */
  two_t both = __enzyme_fwdsplit_two((void *)branchy, enzyme_width, 2, x, e1, e4, enzyme_const, N, a3.tape);
  check("width 2, direction 0", both.d[0], CENTRAL(branchy_of(x0, 0, v), v, x0[0]), 1e-7);
  check("width 2, direction 1", both.d[1], CENTRAL(branchy_of(x0, 3, v), v, x0[3]), 1e-7);
  /* 4. Calls of functions with a body; the constant data's pointer is null in the split call too. */
  const double c[N] = {0.5, -1.5, 2.0, 0.25, -0.75};
  for (int i = 0; i < N; i++) { x[i] = x0[i]; dx[i] = dx0[i]; }
  aug_t a4 = __enzyme_augmentfwd((void *)with_calls, x, (double *)NULL, enzyme_const, c, enzyme_const, N);
  check("with_calls primal", a4.primal, with_calls_of(x0, c, 0, x0[0]), 1e-15);
  double got4 = __enzyme_fwdsplit((void *)with_calls, (double *)NULL, dx, enzyme_const, (double *)NULL,
                                  enzyme_const, N, a4.tape);
  double fd4 = 0;
  for (int k = 0; k < N; k++) fd4 += dx0[k] * CENTRAL(with_calls_of(x0, c, k, v), v, x0[k]);
  check("with_calls split vs central differences", got4, fd4, 1e-7);
  /* 5. The primal pointers are null in the split call, yet the replay needs their difference. */
  for (int i = 0; i < N; i++) { x[i] = x0[i]; dx[i] = dx0[i]; }
  aug_t a5 = __enzyme_augmentfwd((void *)spread, x, (double *)NULL, x + N, (double *)NULL);
  double got5 = __enzyme_fwdsplit((void *)spread, (double *)NULL, dx, (double *)NULL, dx + N, a5.tape);
  double want5 = 0;
  for (int i = 0; i < N; i++) want5 += 2 * x0[i] * dx0[i] * N;
  check("spread split vs analytic", got5, want5, 1e-14);
  /* 6. enzyme_nofree: the tape stays for another direction; the last call (without it) frees it. */
  for (int i = 0; i < N; i++) x[i] = x0[i];
  double f1[N] = {1, 0, 0, 0, 0}, f4[N] = {0, 0, 0, 1, 0};  /* (e1, e4 hold the tangents of x written above) */
  aug_t a6 = __enzyme_augmentfwd((void *)branchy, x, (double *)NULL, enzyme_const, N);
  double first = __enzyme_fwdsplit((void *)branchy, enzyme_nofree, (double *)NULL, f1, enzyme_const, N, a6.tape);
  double second = __enzyme_fwdsplit((void *)branchy, (double *)NULL, f4, enzyme_const, N, a6.tape);
  check("nofree, first direction", first, CENTRAL(branchy_of(x0, 0, v), v, x0[0]), 1e-7);
  check("nofree, the tape used again", second, CENTRAL(branchy_of(x0, 3, v), v, x0[3]), 1e-7);
  if (failures) return 1;
  printf("ALL OK\n");
  return 0;
}

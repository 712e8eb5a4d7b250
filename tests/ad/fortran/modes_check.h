/* Driver side of the Fortran programs in this folder (never differentiated): one objective checked in reverse,
 * forward, batched forward (width 2) and split mode against central differences.  A driver defines REAL (double
 * unless it says otherwise) and five wrappers around its bind(C) entry point, which reset any in-place state:
 *   objective(x)            the primal value
 *   gradient(x, dx)         __enzyme_autodiff: dx += df/dx
 *   tangent(x, t)           __enzyme_fwddiff: df/dx . t
 *   tangent2(x, t1, t2, r)  __enzyme_fwddiff with enzyme_width 2: r[0], r[1]
 *   split(x, dx)            __enzyme_augmentfwd then __enzyme_reverse: returns the augmented primal
 * check_modes() prints one line per input and component of the gradient and returns the number of mismatches. */
#ifndef MODES_CHECK_H
#define MODES_CHECK_H
#include <math.h>
#include <stdio.h>
#include <string.h>

#ifndef REAL
#define REAL double
#endif
#ifndef FD_STEP
#define FD_STEP 1e-6
#endif
#ifndef TOLERANCE
#define TOLERANCE 1e-6
#endif

extern int enzyme_dup, enzyme_const, enzyme_width, enzyme_out;
typedef struct { void *tape; REAL primal; } augmented_t;
typedef struct { REAL d[2]; } pair_t;

static REAL objective(REAL *x);
static void gradient(REAL *x, REAL *dx);
static REAL tangent(REAL *x, REAL *t);
static void tangent2(REAL *x, REAL *t1, REAL *t2, REAL r[2]);
static REAL split(REAL *x, REAL *dx);

static int agrees(double a, double b) { return fabs(a - b) <= TOLERANCE * (1 + fabs(b)); }

static int check_modes(const char *name, REAL *x, int n) {
  enum { MAX = 64 };
  REAL rev[MAX] = {0}, spl[MAX] = {0}, t[MAX] = {0}, t2[MAX] = {0};
  int bad = 0;
  gradient(x, rev);
  REAL primal = split(x, spl);
  if (!agrees(primal, objective(x))) {
    printf("%s: split primal %.12g, primal %.12g  WRONG\n", name, (double)primal, (double)objective(x));
    bad++;
  }
  for (int k = 0; k < n; k++) {
    REAL o = x[k], h = (REAL)FD_STEP * (fabs(o) > 1 ? fabs(o) : 1);
    x[k] = o + h; double up = objective(x); x[k] = o - h; double down = objective(x); x[k] = o;
    double fd = (up - down) / (2 * (double)h);
    t[k] = 1;
    double fw = tangent(x, t);
    REAL pair[2];
    int other = (k + 1) % n;
    t2[other] = 1;
    tangent2(x, t, t2, pair);
    t[k] = 0; t2[other] = 0;
    int ok = agrees(rev[k], fd) && agrees(fw, fd) && agrees(spl[k], rev[k]) && agrees(pair[0], fw) &&
             agrees(pair[1], rev[other]);
    printf("%s d[%d]: reverse %.10g forward %.10g batch %.10g split %.10g central %.10g%s\n", name, k,
           (double)rev[k], fw, (double)pair[0], (double)spl[k], fd, ok ? "" : "  WRONG");
    bad += !ok;
  }
  return bad;
}
#endif

/* Shared checking code for the hunt corpus (harness only, never differentiated).
   Each program is built once per mode: -DMODE_REV, -DMODE_FWD, -DMODE_BATCH (forward, width 2),
   -DMODE_BATCHREV (reverse, width 2) or -DMODE_SPLIT.
   Every derivative is printed as "D <name> <index> <value>" so the driver can compare modes with each
   other, and is checked here against central differences. */
#ifndef HUNT_H
#define HUNT_H
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif
extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out, enzyme_width;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
void __enzyme_autodiff_void(void *, ...);
#ifdef __cplusplus
}
#endif

static int hunt_failures = 0;
static double hunt_rtol = 1e-5;
static double hunt_fd_step = 1e-4; /* relative; programs with kinks (limiters) take a smaller one */

/* ad[i] against fd[i]; components far below the vector's size are judged against that size (FD noise). */
static void hunt_check_vec(const char *what, const double *ad, const double *fd, int n) {
  double big = 0;
  for (int i = 0; i < n; i++) big = fabs(fd[i]) > big ? fabs(fd[i]) : big;
  for (int i = 0; i < n; i++) {
    double scale = fabs(fd[i]) > 1e-3 * big ? fabs(fd[i]) : 1e-3 * big;
    if (scale < 1e-9) scale = 1e-9;
    printf("D %s %d %.17g\n", what, i, ad[i]);
    if (!(fabs(ad[i] - fd[i]) <= hunt_rtol * scale)) {
      printf("MISMATCH %s[%d]: ad %.15g fd %.15g\n", what, i, ad[i], fd[i]);
      hunt_failures++;
    }
  }
}

static void hunt_check(const char *what, double ad, double fd) { hunt_check_vec(what, &ad, &fd, 1); }

/* Fourth-order central difference of expr with respect to the double lvalue var (restored afterwards). */
#define HUNT_FD(expr, var) ({ double _s = (var); double _h = hunt_fd_step * (fabs(_s) > 1 ? fabs(_s) : 1.0); \
  (var) = _s + 2 * _h; double _p2 = (expr); (var) = _s + _h; double _p1 = (expr); \
  (var) = _s - _h; double _m1 = (expr); (var) = _s - 2 * _h; double _m2 = (expr); (var) = _s; \
  (_m2 - _p2 + 8 * (_p1 - _m1)) / (12 * _h); })

static int hunt_finish(void) {
  printf(hunt_failures ? "FAILED %d\n" : "ALL OK\n", hunt_failures);
  return hunt_failures != 0;
}
#endif

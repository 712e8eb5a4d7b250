/* A printf-style logger with its own `...` (va_start, vfprintf / vsnprintf, va_end), called with active
   doubles inside the differentiated code: it only prints, so the derivative ignores the call.  A second
   logger also counts its calls in a static int and formats into a stack buffer first; a third hands its
   va_list to a `vlog` helper writing to a log file opened on first use (`static FILE *`). */
#include "check.h"
#include <stdarg.h>
#include <string.h>

static int verbosity = 1;
static int lines_logged = 0;

static void logmsg(const char *fmt, ...) {
  if (verbosity < 1) return;
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
}

static int logf_tagged(int level, const char *fmt, ...) {
  char line[160];
  va_list ap, again;
  if (level > verbosity) return 0;
  va_start(ap, fmt);
  va_copy(again, ap);
  int n = vsnprintf(line, sizeof line, fmt, ap);
  if (n >= (int)sizeof line) vfprintf(stderr, fmt, again); /* too long for the buffer: print directly */
  else fprintf(stderr, "[model] %s", line);
  va_end(again);
  va_end(ap);
  lines_logged++;
  return n;
}

static FILE *trace_file = NULL;

static void vtrace(const char *fmt, va_list ap) {
  if (!trace_file) trace_file = fopen("/dev/null", "w");
  if (!trace_file) return;
  vfprintf(trace_file, fmt, ap);
  fflush(trace_file);
}

static void trace(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vtrace(fmt, ap);
  va_end(ap);
}

/* f(x, k) = sum_i x_i^2 sin(k x_i), logging intermediate values */
double model(const double *x, int n, double k) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double t = x[i] * x[i] * sin(k * x[i]);
    s += t;
    if (i % 2 == 0) logmsg("i=%d x=%.4f term=%.6e partial=%.6e\n", i, x[i], t, s);
    trace("%d %.17g %.17g\n", i, t, k);
  }
  logf_tagged(1, "k=%g sum=%.10f (%s)\n", k, s, "done");
  return s;
}

static double xs[4] = {0.3, -1.2, 0.8, 2.1};
int main(void) {
  double k = 0.7, dx[4] = {0};
  double dk = __enzyme_autodiff((void *)model, enzyme_dup, xs, dx, enzyme_const, 4, k);
  double dk_analytic = 0;
  for (int i = 0; i < 4; i++) {
    double x = xs[i];
    check("reverse d/dx", dx[i], 2 * x * sin(k * x) + x * x * k * cos(k * x), 1e-11);
    dk_analytic += x * x * x * cos(k * x);
  }
  check("reverse d/dk", dk, dk_analytic, 1e-11);
  double tx[4] = {0};
  check("forward d/dk", __enzyme_fwddiff((void *)model, enzyme_dup, xs, tx, enzyme_const, 4, k, 1.0), dk_analytic, 1e-11);
  tx[2] = 1.0;
  check("forward d/dx2", __enzyme_fwddiff((void *)model, enzyme_dup, xs, tx, enzyme_const, 4, enzyme_const, k),
        2 * xs[2] * sin(k * xs[2]) + xs[2] * xs[2] * k * cos(k * xs[2]), 1e-11);
  check("central d/dk", CENTRAL(model(xs, 4, k), k, k), dk_analytic, 1e-6);
  if (lines_logged != 5) { printf("MISMATCH logger ran %d times, expected 5\n", lines_logged); failures++; }
  return finish();
}

/* Code that calls functions whose derivatives come from custom rules (prefix ext_). */
#include <math.h>

/* The "external" functions: defined here so the JIT can run them, kept out of line so calls stay calls. */
__attribute__((noinline)) double ext_scale(double x) { return 3.0 * x; }
__attribute__((noinline)) void ext_square_into(const double *x, double *y, int n) {
    for (int i = 0; i < n; i++)
        y[i] = x[i] * x[i];
}
__attribute__((noinline)) double ext_log_counter(double x) { return log(fabs(x) + 1.0); }

double uses_scale(double x) { return ext_scale(x) * x; }            /* d/dx = 6x with a correct rule */

double uses_square(const double *x, int n) {                          /* sum x_i^2 via ext_square_into */
    double y[8], s = 0.0;
    ext_square_into(x, y, n);
    for (int i = 0; i < n; i++)
        s += y[i];
    return s;
}

double uses_counter(double x) { return x * x + ext_log_counter(x); } /* inactive counter: d/dx = 2x */

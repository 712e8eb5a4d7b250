/* Correct functions for the enzyme.testing checkers: scalars, arrays, in-place updates, several outputs,
 * constant arguments mixed in, float32.  Every derivative is compared with finite differences. */
#include <math.h>

/* two scalars in, one out */
double scalar2(double x, double y) { return x * x * y + sin(x) * exp(0.3 * y); }

/* array in, scalar out */
double sumsq(const double *x, int n) {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += x[i] * x[i];
    return s;
}

/* mutates its argument */
void square_inplace(double *x, int n) {
    for (int i = 0; i < n; i++) x[i] = x[i] * x[i];
}

/* several outputs, written to an array */
void polar(double r, double th, double *out) {
    out[0] = r * cos(th);
    out[1] = r * sin(th);
}

/* a return value and an output array: returns the variance, writes the mean */
double mean_var(const double *x, int n, double *mean) {
    double m = 0.0, v = 0.0;
    for (int i = 0; i < n; i++) m += x[i];
    m /= n;
    for (int i = 0; i < n; i++) v += (x[i] - m) * (x[i] - m);
    *mean = m;
    return v / n;
}

/* y += a * x: reads x, accumulates into y */
void axpy(double a, const double *x, double *y, int n) {
    for (int i = 0; i < n; i++) y[i] += a * x[i];
}

/* weights w (usually Const) mixed with active data */
double weighted(const double *w, const double *x, int n, double s) {
    double t = 0.0;
    for (int i = 0; i < n; i++) t += w[i] * tanh(s * x[i]);
    return t;
}

/* single precision */
float scalar_f32(float x, float y) { return x * y + sinf(x); }

/* a longer array: the reverse checker uses random directions instead of per-element gradients */
double rosenbrock(const double *x, int n) {
    double s = 0.0;
    for (int i = 0; i + 1 < n; i++) {
        double a = 1.0 - x[i], b = x[i + 1] - x[i] * x[i];
        s += a * a + 100.0 * b * b;
    }
    return s;
}

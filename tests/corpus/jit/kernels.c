/* C kernels with a C ABI over (pointer, length) arrays and scalars, built both
 * natively and through enzyme + the JIT; results must agree bit for bit. */
#include <math.h>
#include <stdint.h>

double c_weighted_norm(const double *x, int64_t n, double w) {
    double s = 0.0;
    for (int64_t i = 0; i < n; ++i)
        s += w * x[i] * x[i] + sin(x[i]) * exp(-fabs(x[i]));
    return sqrt(s);
}

void c_axpy(double *y, const double *x, int64_t n, double a) {
    for (int64_t i = 0; i < n; ++i)
        y[i] = a * x[i] + y[i] / (1.0 + (double)i);
}

double c_prefix_max(double *out, const double *x, int64_t n) {
    double best = -INFINITY, total = 0.0;
    for (int64_t i = 0; i < n; ++i) {
        total += x[i];
        best = fmax(best, total);
        out[i] = best * pow(fabs(total) + 1.0, 0.25);
    }
    return best;
}

/* The functions of the Enzyme.jl reference examples, in C (prefix c_). */
#include <math.h>

/* f(x) = x[1]*x[2] */
double c_prod2(const double *x) { return x[0] * x[1]; }

/* f(a, b, c, d) = a * sqrt(b[1]^2 + b[2]^2) + c^2 * d^2 */
double c_mixed(double a, const double *b, int c, double d) {
    return a * sqrt(b[0] * b[0] + b[1] * b[1]) + (double)c * c * d * d;
}

/* f(x) = x*x */
double c_square(double x) { return x * x; }

/* f(x) = [x[1]*x[2], x[2]], written into y */
void c_vecf(const double *x, double *y) {
    y[0] = x[0] * x[1];
    y[1] = x[1];
}

/* The autodiff_thunk example: res = A[1] * v; A[1] = 0; res */
double c_split(double *A, double v) {
    double res = A[0] * v;
    A[0] = 0;
    return res;
}

/* The temporary-storage caveat: tmp[1] = 1; for i in 1:n tmp[1] *= x end; tmp[1] */
double c_tmp_power(double x, double *tmp, long n) {
    tmp[0] = 1;
    for (long i = 0; i < n; i++)
        tmp[0] *= x;
    return tmp[0];
}

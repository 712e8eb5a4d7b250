/* A C program calling a Fortran bind(C) routine and Rust extern "C" functions,
 * all linked into one module by `enzyme compile main.c solver.f90 stats.rs`. */
#include <stdint.h>
#include <stdio.h>

/* Fortran (solver.f90) */
void f_tridiagonal_solve(int64_t n, const double *lower, const double *diag, const double *upper, double *rhs);
double f_residual_norm(int64_t n, const double *x);
void f_greet(int32_t k);
/* Rust (stats.rs) */
double rs_mean(const double *x, size_t n);
double rs_stddev(const double *x, size_t n);
size_t rs_describe(const double *x, size_t n);

int main(void) {
    enum { N = 6 };
    double lower[N], diag[N], upper[N], rhs[N];
    for (int i = 0; i < N; ++i) {
        lower[i] = -1.0;
        diag[i] = 4.0;
        upper[i] = -1.0;
        rhs[i] = (double)(i + 1);
    }
    f_greet(N);
    f_tridiagonal_solve(N, lower, diag, upper, rhs);
    printf("c: x =");
    for (int i = 0; i < N; ++i)
        printf(" %.6f", rhs[i]);
    printf("\n");
    printf("c: residual %.3e\n", f_residual_norm(N, rhs));
    printf("c: mean %.6f stddev %.6f\n", rs_mean(rhs, N), rs_stddev(rhs, N));
    fflush(stdout);
    size_t chars = rs_describe(rhs, N);
    printf("c: rust wrote %zu characters\n", chars);
    return 0;
}

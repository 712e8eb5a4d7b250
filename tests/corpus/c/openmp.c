/* OpenMP (clang -fopenmp): outlined parallel regions, reductions, tasks and
 * critical sections become runtime calls with closures over captured state. */
int omp_get_thread_num(void); /* from omp.h, which the runtime package ships */

double parallel_sum_squares(const double *x, int n) {
    double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(dynamic, 4)
    for (int i = 0; i < n; ++i)
        s += x[i] * x[i];
    return s;
}

void parallel_update(double *x, int n) {
#pragma omp parallel
    {
#pragma omp single
        {
#pragma omp task firstprivate(n)
            x[0] += omp_get_thread_num() + n;
        }
#pragma omp critical
        x[1] += 1;
#pragma omp for simd
        for (int i = 2; i < n; ++i)
            x[i] *= 0.5;
    }
}

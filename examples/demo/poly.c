/* Weighted sum of squares: c * sum_i x[i]^2. */
double poly(const double *x, long n, double c) {
    double sum = 0.0;
    for (long i = 0; i < n; ++i)
        sum += x[i] * x[i];
    return c * sum;
}

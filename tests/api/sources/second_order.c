/* Objectives a user would take second derivatives of: an extended Rosenbrock function, a log-likelihood with
   data passed as constant arguments, and an energy whose Hessian needs memory written inside the function. */
#include <math.h>
#include <stdlib.h>

double rosenbrock(const double *x, int n) {
    double f = 0.0;
    for (int i = 0; i + 1 < n; i++) {
        double a = x[i + 1] - x[i] * x[i], b = 1.0 - x[i];
        f += 100.0 * a * a + b * b;
    }
    return f;
}

/* Negative log-likelihood of a logistic regression: weights w, data X (m x n, row-major) and labels y. */
double logistic_nll(const double *w, const double *X, const double *y, int m, int n) {
    double nll = 0.0;
    for (int i = 0; i < m; i++) {
        double z = 0.0;
        for (int j = 0; j < n; j++) z += X[i * n + j] * w[j];
        nll += log1p(exp(-z)) + (1.0 - y[i]) * z;
    }
    return nll;
}

/* Pairwise Lennard-Jones-like energy of points on a line, with a scratch array of distances. */
double chain_energy(const double *p, int n) {
    double *d = malloc(sizeof(double) * (size_t)n);
    for (int i = 0; i + 1 < n; i++) d[i] = p[i + 1] - p[i];
    double e = 0.0;
    for (int i = 0; i + 1 < n; i++) {
        double r6 = pow(d[i], -6.0);
        e += r6 * r6 - 2.0 * r6 + sin(p[i]) * d[i];
    }
    free(d);
    return e;
}

int count_positive(const double *x, int n) {
    int c = 0;
    for (int i = 0; i < n; i++) c += x[i] > 0;
    return c;
}

/* A regularized objective: the derivative with respect to the weight lambda is sum(x^2). */
double ridge(const double *x, int n, double lambda) {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += x[i] * x[i];
    return rosenbrock(x, n) + lambda * s;
}

/* A small model whose derivatives the tests check against finite differences. */
#include <math.h>

/* logistic growth rate */
double logistic(double x, double r) { return r * x * (1.0 - x) / (1.0 + exp(-r * x)); }

/* energy of a chain of springs with stiffness k */
double chain_energy(const double *x, int n, double k) {
    double e = 0.0;
    for (int i = 0; i + 1 < n; i++) {
        double d = x[i + 1] - x[i] - 1.0;
        e += 0.5 * k * d * d;
    }
    return e;
}

/* one symplectic Euler step of the chain: updates positions x and velocities v in place */
void chain_step(double *x, double *v, int n, double dt, double k) {
    for (int i = 0; i < n; i++) {
        double f = 0.0;
        if (i > 0) f -= k * (x[i] - x[i - 1] - 1.0);
        if (i + 1 < n) f += k * (x[i + 1] - x[i] - 1.0);
        v[i] += dt * f;
    }
    for (int i = 0; i < n; i++) x[i] += dt * v[i];
}

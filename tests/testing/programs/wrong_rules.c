/* Deliberately wrong custom derivatives: the checkers must catch them. */
#include <stddef.h>

typedef struct { double primal; void *tape; } aug_result;

/* noinline: the rule applies to calls of cube, which the pre-AD optimisation would otherwise inline away */
__attribute__((noinline)) double cube(double x) { return x * x * x; }
/* the tangent should be 3 x^2 dx; this rule forgets the factor 3 */
double cube_fwd_wrong(double x, double dx) { return x * x * dx; }
void *__enzyme_register_derivative_cube[2] = {(void *)cube, (void *)cube_fwd_wrong};

double uses_cube(double x, double y) { return cube(x) * y; }

/* an in-place update whose rule forgets the factor 2 in the shadow */
__attribute__((noinline)) void square_all(double *x, int n) {
    for (int i = 0; i < n; i++) x[i] = x[i] * x[i];
}
void square_all_fwd_wrong(double *x, double *dx, int n) {
    for (int i = 0; i < n; i++) dx[i] = x[i] * dx[i];
}
void *__enzyme_register_derivative_square_all[2] = {(void *)square_all, (void *)square_all_fwd_wrong};

void uses_square_all(double *x, int n) { square_all(x, n); }

__attribute__((noinline)) double quart(double x) { return x * x * x * x; }
aug_result quart_aug(double x) { aug_result r = {quart(x), NULL}; return r; }
/* the adjoint should be 4 x^3 dret; this rule returns 4 x^2 dret */
double quart_rev_wrong(double x, double dret, void *tape) { (void)tape; return 4.0 * x * x * dret; }
void *__enzyme_register_gradient_quart[3] = {(void *)quart, (void *)quart_aug, (void *)quart_rev_wrong};

double uses_quart(double x) { return quart(x) + x; }

/* a rule with a correct tangent that also writes primal memory: the differentiated call then leaves other
 * contents in x than the plain call (the checkers compare the arrays after both calls) */
__attribute__((noinline)) void double_all(double *x, int n) {
    for (int i = 0; i < n; i++) x[i] = 2.0 * x[i];
}
void double_all_fwd_clobbers(double *x, double *dx, int n) {
    for (int i = 0; i < n; i++) {
        dx[i] = 2.0 * dx[i];
        x[i] = x[i] + 1.0;
    }
}
void *__enzyme_register_derivative_double_all[2] = {(void *)double_all, (void *)double_all_fwd_clobbers};

void uses_double_all(double *x, int n) { double_all(x, n); }

/* a reduction whose gradient rule forgets the factor 2 (the shadow of x should receive 2 x dret) */
__attribute__((noinline)) double sumsq(const double *x, int n) {
    double s = 0;
    for (int i = 0; i < n; i++) s += x[i] * x[i];
    return s;
}
aug_result sumsq_aug(const double *x, double *dx, int n) { (void)dx; aug_result r = {sumsq(x, n), NULL}; return r; }
void sumsq_rev_wrong(const double *x, double *dx, int n, double dret, void *tape) {
    (void)tape;
    for (int i = 0; i < n; i++) dx[i] += x[i] * dret;
}
void *__enzyme_register_gradient_sumsq[3] = {(void *)sumsq, (void *)sumsq_aug, (void *)sumsq_rev_wrong};

double uses_sumsq(const double *x, int n) { return sumsq(x, n); }

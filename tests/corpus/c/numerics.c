/* Everyday numerical C: scalar math, loops, structs, heap memory, switch,
 * varargs, function pointers, unions and bitfields. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct particle {
    int id;
    double mass;
    float charge;
    long steps;
    double pos[3];
};

union bits64 {
    double d;
    unsigned long long u;
    unsigned char bytes[8];
};

struct flags {
    unsigned active : 1;
    unsigned kind : 3;
    signed level : 5;
    unsigned : 0;
    unsigned wide : 20;
};

typedef double (*unary_fn)(double);

double smooth(double x) {
    return sin(x) * exp(-0.5 * x * x) + pow(fabs(x), 1.5) + sqrt(1.0 + x * x) + log1p(x * x) + tanh(x);
}

float smoothf(float x) { return sinf(x) * cosf(x) + expf(-x) + fmaxf(x, 0.0f); }

double dot(const double *a, const double *b, long n) {
    double s = 0.0;
    for (long i = 0; i < n; ++i)
        s += a[i] * b[i];
    return s;
}

void matvec(int n, int m, const double *A, const double *x, double *restrict y) {
    for (int i = 0; i < n; ++i) {
        double acc = 0;
        for (int j = 0; j < m; ++j)
            acc += A[i * m + j] * x[j];
        y[i] = acc;
    }
}

double kinetic(const struct particle *p, int n) {
    double e = 0;
    int i = 0;
    while (i < n) {
        double v2 = p[i].pos[0] * p[i].pos[0] + p[i].pos[1] * p[i].pos[1] + p[i].pos[2] * p[i].pos[2];
        e += 0.5 * p[i].mass * v2 + p[i].charge * (double)p[i].steps;
        i++;
    }
    return e;
}

struct particle *make_particles(int n) {
    struct particle *p = malloc(sizeof *p * (size_t)n);
    if (!p)
        return NULL;
    memset(p, 0, sizeof *p * (size_t)n);
    for (int i = 0; i < n; ++i) {
        p[i].id = i;
        p[i].mass = 1.0 + i;
        p[i].pos[i % 3] = 0.25 * i;
    }
    return p;
}

double simulate(int n) {
    struct particle *p = make_particles(n);
    double *scratch = calloc((size_t)n, sizeof(double));
    double e = kinetic(p, n);
    scratch = realloc(scratch, 2 * sizeof(double) * (size_t)n);
    for (int i = 0; i < 2 * n; ++i)
        scratch[i] = e / (i + 1);
    e += dot(scratch, scratch, 2 * n);
    free(scratch);
    free(p);
    return e;
}

double apply_op(int op, double a, double b) {
    switch (op) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return a / b;
    case 7: return fmod(a, b);
    case 42: return atan2(a, b);
    default: return NAN;
    }
}

double sum_varargs(int count, ...) {
    va_list ap;
    va_start(ap, count);
    double total = 0;
    for (int i = 0; i < count; ++i)
        total += va_arg(ap, double);
    va_end(ap);
    return total;
}

int report(const char *label, double value, int n) {
    return printf("%s: value=%.17g n=%d hex=%a\n", label, value, n, value);
}

double integrate(unary_fn f, double a, double b, int steps) {
    double h = (b - a) / steps, s = 0.5 * (f(a) + f(b));
    for (int i = 1; i < steps; ++i)
        s += f(a + i * h);
    return s * h;
}

static unary_fn const table[] = {sin, cos, smooth, exp};

double integrate_all(double a, double b) {
    double s = 0;
    for (unsigned i = 0; i < sizeof table / sizeof table[0]; ++i)
        s += integrate(table[i], a, b, 64);
    return s;
}

unsigned long long double_bits(double d) {
    union bits64 u;
    u.d = d;
    return u.u ^ u.bytes[7];
}

int pack_flags(struct flags *f, int kind, int level) {
    f->active = kind != 0;
    f->kind = (unsigned)kind;
    f->level = level;
    f->wide = 0xABCDE;
    return f->active + f->kind + f->level + (int)f->wide;
}

int classify(double x) {
    if (isnan(x)) return -1;
    if (isinf(x)) return 2;
    return x > 0 ? 1 : 0;
}

int main(int argc, char **argv) {
    (void)argv;
    double x = simulate(8 + argc);
    report("simulate", x, argc);
    report("integral", integrate_all(0.0, 1.0), 4);
    report("varargs", sum_varargs(3, 1.0, 2.0, 3.5), 3);
    struct flags fl = {0};
    return pack_flags(&fl, argc, -3) + classify(apply_op(argc, x, 2.0)) + (int)(double_bits(x) & 1);
}

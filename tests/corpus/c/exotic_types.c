/* Types and instructions beyond plain scalars: vectors, atomics, complex,
 * x86_fp80, i128, half, inline assembly (with asm goto), computed goto, alloca, overflow builtins. */
#include <complex.h>
#include <stdatomic.h>
#include <stdint.h>

typedef double v4d __attribute__((vector_size(32)));
typedef float v8f __attribute__((vector_size(32)));
typedef int v4i __attribute__((vector_size(16)));

v4d axpy4(double a, v4d x, v4d y) { return a * x + y; }

double hsum4(v4d v) { return v[0] + v[1] + v[2] + v[3]; }

v8f shuffle_mix(v8f a, v8f b) {
    v4i mask = {0, 5, 2, 7};
    (void)mask;
    v8f c = __builtin_shufflevector(a, b, 0, 9, 2, 11, 4, 13, 6, 15);
    return c * (v8f){1, 2, 3, 4, 5, 6, 7, 8};
}

v4i compare_select(v4i a, v4i b) { v4i m = a > b; return (a & m) | (b & ~m); }

static _Atomic long hits;
static atomic_int flag;
static int plain_flag;
double shared_sum;

long count_hit(long n) {
    atomic_fetch_add_explicit(&hits, n, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
    atomic_signal_fence(memory_order_acquire);
    int expected = 0;
    atomic_compare_exchange_strong(&flag, &expected, 1);
    atomic_compare_exchange_weak_explicit(&flag, &expected, 2, memory_order_acq_rel, memory_order_relaxed);
    __atomic_store_n(&plain_flag, 3, __ATOMIC_RELEASE);
    return atomic_load(&hits) + __atomic_exchange_n(&plain_flag, 0, __ATOMIC_SEQ_CST) + __atomic_fetch_nand(&plain_flag, 5, __ATOMIC_ACQ_REL);
}

double atomic_accumulate(double x) {
    double old;
    __atomic_load(&shared_sum, &old, __ATOMIC_ACQUIRE);
    double desired;
    do {
        desired = old + x;
    } while (!__atomic_compare_exchange(&shared_sum, &old, &desired, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
    return desired;
}

double _Complex cmul(double _Complex a, double _Complex b) { return a * b + cexp(a) / b; }

double cabs_sum(const double _Complex *z, int n) {
    double s = 0;
    for (int i = 0; i < n; ++i)
        s += cabs(z[i]) + creal(z[i]) * cimag(z[i]);
    return s;
}

float _Complex cfloat_conj(float _Complex z) { return conjf(z) * 2.0f; }

long double ldouble_poly(long double x) { return 1.0L + x * (0.5L + x * (1.0L / 6.0L + x * 0.041666666666666666666L)); }

long double ldouble_from(double d) { return (long double)d * 3.0L; }

__int128 mul_wide(int64_t a, int64_t b) { return (__int128)a * b; }

unsigned __int128 u128_ops(unsigned __int128 a, unsigned __int128 b) { return (a / (b | 1)) ^ (a << 65) ^ (b >> 3); }

_Float16 half_axpy(_Float16 a, _Float16 x, _Float16 y) { return a * x + y; }

float half_round_trip(float f) { return (float)(_Float16)f; }

uint64_t read_tsc(void) {
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
}

int asm_add(int a, int b) {
    int r;
    __asm__("leal (%1,%2), %0" : "=r"(r) : "r"(a), "r"(b) : "cc");
    return r;
}

int asm_goto_nonzero(int x) {
    __asm__ goto("testl %0, %0; jne %l1" : : "r"(x) : "cc" : nonzero);
    return 0;
nonzero:
    return 1;
}

void compiler_barrier(void) { __asm__ __volatile__("" ::: "memory"); }

int checked_add(int a, int b, int *overflow) {
    int r;
    *overflow = __builtin_add_overflow(a, b, &r);
    return r;
}

unsigned bit_tricks(unsigned x) { return __builtin_popcount(x) + __builtin_clz(x | 1) + __builtin_ctz(x | 0x80000000u) + __builtin_bswap32(x); }

int computed_goto(int op, int x) {
    static void *labels[] = {&&inc, &&dbl, &&neg};
    goto *labels[op % 3];
inc:
    return x + 1;
dbl:
    return x * 2;
neg:
    return -x;
}

double stack_array(int n) {
    double *tmp = __builtin_alloca(sizeof(double) * (unsigned)n);
    double vla[n + 1];
    for (int i = 0; i < n; ++i) {
        tmp[i] = i * 0.5;
        vla[i] = tmp[i] * tmp[i];
    }
    vla[n] = 0;
    double s = 0;
    for (int i = 0; i <= n; ++i)
        s += vla[i];
    return s;
}

__attribute__((noinline, cold)) void fail_hard(void) { __builtin_trap(); }

int expect_and_assume(int x) {
    __builtin_assume(x > 0);
    if (__builtin_expect(x > 1000, 0))
        fail_hard();
    return x / 4;
}

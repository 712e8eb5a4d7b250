/* Global data: initializers of every shape, constant expressions over
 * addresses, string tables, thread-locals, weak and aliased symbols. */
#include <stddef.h>
#include <stdint.h>

struct vec3 { double x, y, z; };
struct material {
    const char *name;
    int id;
    struct vec3 color;
    double coeffs[4];
    const struct material *fallback;
    unsigned char tag[6];
};

static const struct material base_material = {
    "base", 0, {0.5, 0.5, 0.5}, {1.0, 0.0, -0.0, 1e-300}, NULL, "abc",
};

const struct material materials[3] = {
    {"steel \"hard\"\n", 1, {0.2, 0.3, 0.4}, {7.8, 210e9, 0.3}, &base_material, {1, 2, 3, 4, 5, 6}},
    {"wood", 2, {.x = 0.6}, {0.7}, &materials[0], "\x01\x7f\xff"},
    {0},
};

static int counters[4][3] = {{1, 2, 3}, {4, 5, 6}, {0}, {[2] = 9}};
static double zeros[1024];
static float mixed[5] = {1.5f, -0.0f, 3.4028235e38f, 1e-45f, 0.1f};
long long big_values[] = {INT64_MAX, INT64_MIN, -1, 0x123456789ABCDEFLL};
unsigned short halves[] = {0xffff, 1, 2};
char greeting[] = "hello, world";
const char *const words[] = {"alpha", "beta", "gamma", greeting + 7, 0};
wchar_t wide[] = L"wide\u00e9";

/* Constant expressions on addresses. */
const double *const third_coeff = &materials[1].coeffs[2];
const intptr_t counter_address = (intptr_t)&counters[2][1] + 16;
const long counter_offset = &counters[2][1] - &counters[0][0];
void *const self_ref = (void *)&self_ref;
const size_t material_size = sizeof(struct material) * 3 + offsetof(struct material, coeffs);
int *const counters_end = &counters[0][0] + sizeof counters / sizeof(int);

_Thread_local int per_thread_calls = 7;
__attribute__((weak)) int tunable = 3;
__attribute__((section(".enzyme_data"), aligned(64))) double aligned_table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
__attribute__((used)) static const char build_id[] = "corpus-1";

static int helper(int x) { return x * tunable + per_thread_calls++; }
int helper_alias(int x) __attribute__((alias("helper")));

struct dispatch { const char *name; int (*fn)(int); };
const struct dispatch dispatch_table[] = {{"helper", helper}, {"alias", helper_alias}, {NULL, NULL}};

double material_score(int i) {
    const struct material *m = &materials[i % 3];
    double s = m->color.x + m->color.y + m->color.z;
    for (int k = 0; k < 4; ++k)
        s += m->coeffs[k] * zeros[k + i] + mixed[k];
    while (m->fallback) {
        s += m->fallback->id;
        m = m->fallback;
    }
    return s + (double)counter_offset + (double)(counter_address & 1) + (double)material_size + *third_coeff;
}

int count_words(void) {
    int n = 0;
    for (const char *const *w = words; *w; ++w)
        n += (*w)[0];
    return n + counters[3][2] + (int)(counters_end - &counters[0][0]) + greeting[0] + (int)wide[4];
}

int call_dispatch(int x) {
    int s = 0;
    for (const struct dispatch *d = dispatch_table; d->fn; ++d)
        s += d->fn(x);
    return s + (int)big_values[3] + halves[0] + (self_ref != 0) + (int)aligned_table[x & 7] + build_id[0];
}

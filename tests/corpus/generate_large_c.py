"""Generate a large, varied C translation unit (for round-trip tests and benchmarks).

The code is deterministic for a given size: a seeded generator picks one of
several function templates (loops, structs, switches, math calls, pointer
walks, recursion) and constants, so the module exercises many instruction
kinds rather than one repeated pattern.

    python tests/corpus/generate_large_c.py 2000 > big.c
"""
from __future__ import annotations

import random
import sys
from collections.abc import Callable

_PRELUDE = """\
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct cell { double value; int count; float weight; struct cell *next; };
struct grid { int nx, ny; double spacing; double *data; };

static double global_acc[64];
static const double coefficients[8] = {0.5, -1.25, 2.0, 3.5, -0.75, 1e-3, 42.0, -7.5};
"""


def _loop_kernel(i: int, rng: random.Random) -> str:
    a, b = rng.randint(1, 9), rng.choice(["sin", "cos", "exp", "sqrt", "tanh", "log1p"])
    return f"""\
double kernel_{i}(const double *x, const double *y, int n) {{
    double s = {rng.random():.6f};
    for (int k = 0; k < n; ++k) {{
        double t = x[k] * {a}.0 - y[k] / (1.0 + k);
        if (t > coefficients[{i % 8}])
            s += {b}(fabs(t)) * coefficients[k & 7];
        else
            s -= t * t;
    }}
    global_acc[{i % 64}] += s;
    return s;
}}
"""


def _struct_kernel(i: int, rng: random.Random) -> str:
    return f"""\
double cells_{i}(struct cell *head, int limit) {{
    double total = 0.0;
    int seen = 0;
    for (struct cell *c = head; c && seen < limit; c = c->next, ++seen) {{
        c->count += {rng.randint(1, 5)};
        total += c->value * c->weight + c->count;
        if (c->value < 0.0) c->value = -c->value * {rng.uniform(0.1, 2.0):.4f};
    }}
    return total / (seen ? seen : 1);
}}
"""


def _switch_kernel(i: int, rng: random.Random) -> str:
    cases = "\n".join(
        f"    case {k}: r = r * {rng.randint(2, 9)} + {rng.randint(-50, 50)}; break;" for k in range(rng.randint(4, 9))
    )
    return f"""\
long dispatch_{i}(int op, long r, unsigned mask) {{
    switch (op & 15) {{
{cases}
    default: r ^= (long)mask << {rng.randint(1, 31)}; break;
    }}
    return r + (long)(mask >> {rng.randint(1, 7)});
}}
"""


def _grid_kernel(i: int, rng: random.Random) -> str:
    return f"""\
void stencil_{i}(struct grid *g, double alpha) {{
    double *out = malloc(sizeof(double) * (size_t)(g->nx * g->ny));
    if (!out) return;
    memcpy(out, g->data, sizeof(double) * (size_t)(g->nx * g->ny));
    for (int j = 1; j < g->ny - 1; ++j)
        for (int k = 1; k < g->nx - 1; ++k) {{
            int c = j * g->nx + k;
            out[c] = g->data[c] + alpha * (g->data[c - 1] + g->data[c + 1] + g->data[c - g->nx]
                     + g->data[c + g->nx] - {rng.choice([4, 4, 3])}.0 * g->data[c]) / (g->spacing * g->spacing);
        }}
    memcpy(g->data, out, sizeof(double) * (size_t)(g->nx * g->ny));
    free(out);
}}
"""


def _recursive_kernel(i: int, rng: random.Random) -> str:
    return f"""\
static int recurse_{i}(int depth, int acc) {{
    if (depth <= 0) return acc;
    return recurse_{i}(depth - 1, acc * {rng.randint(2, 5)} % {rng.randint(1000, 9999)} + depth);
}}

int entry_{i}(int n) {{
    int values[{rng.randint(4, 16)}] = {{0}};
    for (unsigned k = 0; k < sizeof values / sizeof values[0]; ++k)
        values[k] = recurse_{i}(n + (int)k, {rng.randint(1, 100)});
    int best = values[0];
    for (unsigned k = 1; k < sizeof values / sizeof values[0]; ++k)
        best = values[k] > best ? values[k] : best;
    return best;
}}
"""


def _float_kernel(i: int, rng: random.Random) -> str:
    return f"""\
float mixf_{i}(float a, float b, int n) {{
    float r = a;
    for (int k = 0; k < n; ++k) {{
        r = fmaf(r, {rng.uniform(0.5, 1.5):.5f}f, b) - sqrtf(fabsf(r)) * (float)k;
        b = b > r ? b - r : r - b;
    }}
    return r + (float)pow((double)b, {rng.uniform(0.5, 3.0):.3f});
}}
"""


_TEMPLATES: tuple[Callable[[int, random.Random], str], ...] = (
    _loop_kernel, _struct_kernel, _switch_kernel, _grid_kernel, _recursive_kernel, _float_kernel,
)


def generate_large_c(functions: int, *, seed: int = 2024) -> str:
    """C source with ``functions`` generated functions (about 14 lines and 60-90 -O0 instructions each)."""
    rng = random.Random(seed)
    parts = [_PRELUDE]
    for i in range(functions):
        parts.append(_TEMPLATES[i % len(_TEMPLATES)](i, rng))
    return "\n".join(parts)


if __name__ == "__main__":
    sys.stdout.write(generate_large_c(int(sys.argv[1]) if len(sys.argv) > 1 else 300))

"""Floats handled as integer bits, the way numerical code does it.

Differentiable kinds (checked for numbers like every other kind): the sign-bit operations -- negation by
``u ^ SIGN``, fabs by ``u & ~SIGN``, -fabs by ``u | SIGN``, copysign by ``(a & ~SIGN) | (b & SIGN)`` -- on
random expressions and on ``x[]`` memory; the bits moved by ``memcpy``, unions, ``const uint64_t *`` views of
double arrays and the ``bits_of``/``double_of`` helpers (inline, or noinline so the integer crosses a call);
doubles copied as integers through loops.

Refused kinds (:func:`refusal_program`): integer arithmetic on active float bits that has no derivative rule
(``u += 1``, ``u >> 1``, masks of low bits, exponent bumps).  The engine must stop at compile time with a
``DifferentiationError``; any number it produced instead would be a silently wrong derivative.
"""
from __future__ import annotations

import random

from .grammar import Gen, X

PRELUDE = r"""
#include <stdint.h>
#include <string.h>
#define SIGN 0x8000000000000000ull
static inline uint64_t bits_of(double v) { uint64_t u; memcpy(&u, &v, sizeof u); return u; }
static inline double double_of(uint64_t u) { double v; memcpy(&v, &u, sizeof v); return v; }
__attribute__((noinline)) static uint64_t bits_of_call(double v) { uint64_t u; memcpy(&u, &v, 8); return u; }
__attribute__((noinline)) static double double_of_call(uint64_t u) { double v; memcpy(&v, &u, 8); return v; }
"""

# Sign-bit operations on the bits ``{0}`` (and the sign source ``{1}``), spelled as people spell them.
SIGN_OPS = {
    "neg": ("({0} ^ SIGN)", "({0} ^ (1ull << 63))"),
    "abs": ("({0} & ~SIGN)", "({0} & 0x7fffffffffffffffull)"),
    "nabs": ("({0} | SIGN)", "({0} | (1ull << 63))"),
    "copysign": ("(({0} & ~SIGN) | ({1} & SIGN))", "(({0} & 0x7fffffffffffffffull) | ({1} & (1ull << 63)))"),
}


def active(g: Gen, depth: int) -> str:
    """A random expression that reads x (a constant one would have no derivative to get wrong)."""
    return g.uses(depth, X, f"x[{g.rng.randrange(4)}]")


def sign_op(g: Gen, bits: str, source: str) -> str:
    return g.choice(SIGN_OPS[g.choice(sorted(SIGN_OPS))]).format(bits, source)


def to_bits(g: Gen, value: str, var: str) -> str:
    """Statements that declare ``uint64_t var`` holding the bits of the double expression ``value``."""
    way = g.choice(("memcpy", "union", "helper", "call"))
    if way == "memcpy":
        return f"double {var}_d = {value}; uint64_t {var}; memcpy(&{var}, &{var}_d, sizeof {var});"
    if way == "union":
        return f"union {{ double d; uint64_t u; }} {var}_v; {var}_v.d = {value}; uint64_t {var} = {var}_v.u;"
    return f"uint64_t {var} = {'bits_of' if way == 'helper' else 'bits_of_call'}({value});"


def to_double(g: Gen, bits: str, var: str) -> str:
    """Statements that declare ``double var`` holding the double whose bits are ``bits``."""
    way = g.choice(("memcpy", "union", "helper", "call"))
    if way == "memcpy":
        return f"uint64_t {var}_u = {bits}; double {var}; memcpy(&{var}, &{var}_u, sizeof {var});"
    if way == "union":
        return f"union {{ double d; uint64_t u; }} {var}_v; {var}_v.u = {bits}; double {var} = {var}_v.d;"
    return f"double {var} = {'double_of' if way == 'helper' else 'double_of_call'}({bits});"


def bits_value(g: Gen, i: int) -> str:
    """A sign-bit operation on the bits of a computed value, the result used in a further expression."""
    return (f"{to_bits(g, active(g, 3), 'u')}\n  {to_bits(g, g.expr(2, X), 's')}\n"
            f"  {to_double(g, sign_op(g, 'u', 's'), 'b')}\n  return {g.uses(2, ['b', *X], 'b')};")


def memory_bits(g: Gen, k: str) -> str:
    """An expression for the bits of ``x[k]`` read from memory."""
    return g.choice((f"((const uint64_t *)x)[{k}]", f"bits_of(x[{k}])", f"xb[{k}]"))


def bits_memory(g: Gen, i: int) -> str:
    """Sign-bit operations applied to the bits of ``x[]`` read through an integer view of the array."""
    read = g.choice(("uint64_t u = xb[i % 4];", "uint64_t u; memcpy(&u, x + i % 4, sizeof u);",
                     "uint64_t u; memcpy(&u, &x[i % 4], 8);"))
    op = sign_op(g, "u", memory_bits(g, "(i + 1) % 4"))
    return (f"const uint64_t *xb = (const uint64_t *)x;\n  double s = {g.const(0.5, 1.5)};\n"
            f"  for (int i = 0; i < n; i++) {{\n    {read}\n    double v = double_of({op});\n"
            f"    s = {g.uses(2, ['s', 'v', 'x[i % 4]'], 'v')};\n  }}\n  return s;")


def bits_copy(g: Gen, i: int) -> str:
    """Doubles copied as 64-bit integers (memcpy, loops over integer views, unions), some signs changed."""
    if g.rng.random() < 0.5:
        fill = g.expr(2, ["x[i % 4]", "x[(i + 1) % 4]"])
        m, source = 6, f"double w[6];\n  for (int i = 0; i < 6; i++) w[i] = {fill};"
    else:
        m, source = 4, "const double *w = x;"
    to_ints = g.choice((f"uint64_t t[{m}]; memcpy(t, w, sizeof t);",
                        f"uint64_t t[{m}]; for (int i = 0; i < {m}; i++) t[i] = bits_of(w[i]);",
                        (f"uint64_t t[{m}]; const uint64_t *wb = (const uint64_t *)w; "
                         f"for (int i = 0; i < {m}; i++) t[i] = wb[i];")))
    change = g.choice(("", f"for (int i = 0; i + 1 < {m}; i += 2) t[i] = {sign_op(g, 't[i]', 't[i + 1]')};"))
    back = g.choice((f"double z[{m}]; memcpy(z, t, sizeof z);",
                     f"double z[{m}]; for (int i = 0; i < {m}; i++) z[i] = double_of(t[i]);",
                     (f"union {{ uint64_t u[{m}]; double d[{m}]; }} zu; "
                      f"for (int i = 0; i < {m}; i++) zu.u[i] = t[i]; double *z = zu.d;")))
    return (f"{source}\n  {to_ints}\n  {change}\n  {back}\n"
            f"  double s = 0;\n  for (int i = 0; i < {m}; i++) s += {g.uses(2, ['z[i]', 'x[i % 4]'], 'z[i]')};\n"
            "  return s;")


def bits_inplace(g: Gen, i: int) -> str:
    """Signs changed in place in a local array: through memcpy of each element or through a union."""
    fill = g.expr(2, ["x[i % 4]", "x[(i + 3) % 4]"])
    if g.rng.random() < 0.5:
        flip = ("for (int i = 0; i < n; i++) { uint64_t u; memcpy(&u, &w[i % 6], 8); "
                f"u = {sign_op(g, 'u', 'bits_of(x[i % 4])')}; memcpy(&w[i % 6], &u, 8); }}")
        decl, ref = "double w[6];", "w"
    else:
        flip = f"for (int i = 0; i < n; i++) w.u[i % 6] = {sign_op(g, 'w.u[i % 6]', 'w.u[(i + 1) % 6]')};"
        decl, ref = "union { double d[6]; uint64_t u[6]; } w;", "w.d"
    return (f"{decl}\n  for (int i = 0; i < 6; i++) {ref}[i] = {fill};\n  {flip}\n"
            f"  double s = 0;\n  for (int i = 0; i < 6; i++) s = {g.uses(2, ['s', f'{ref}[i]'], f'{ref}[i]')};\n"
            "  return s;")


def bits_helpers(g: Gen, i: int) -> str:
    """The sign-bit operation inside small static helpers taking and returning bits or doubles."""
    op = sign_op(g, "u", "bits_of(y)")
    attr = g.choice(("static", "__attribute__((noinline)) static"))
    g.helpers.append(f"{attr} uint64_t sign_op{i}(uint64_t u, double y) {{ return {op}; }}")
    g.helpers.append(f"{attr} double through_bits{i}(double v, double y) "
                     f"{{ return double_of(sign_op{i}(bits_of(v), y)); }}")
    a = g.expr(2, X)
    return (f"double a = {a};\n  double b = through_bits{i}(a * x[1], x[2] - {g.const()});\n"
            f"  double c = double_of_call(sign_op{i}(bits_of_call({active(g, 2)}), x[0]));\n"
            f"  return {g.uses(2, ['a', 'b', 'c', 'x[3]'], 'b')} + c;")


def bits_sign_test(g: Gen, i: int) -> str:
    """The sign bit tested as an integer (``u >> 63``) to choose a branch: piecewise, differentiable.

    The engine may refuse this (an integer shift of active bits): a refusal is conservative, not wrong."""
    return (f"double a = {g.expr(3, X)};\n  uint64_t u = bits_of(a);\n"
            f"  if (u >> 63) a = {g.expr(2, ['a', *X])}; else a = {g.expr(2, ['a', *X])};\n  return a;")


KINDS = {"bits_value": bits_value, "bits_memory": bits_memory, "bits_copy": bits_copy,
         "bits_inplace": bits_inplace, "bits_helpers": bits_helpers, "bits_sign_test": bits_sign_test}
# Conservative refusals (never a wrong number), counted by the tester instead of failing it:
# - a double array read through a `const uint64_t *` view: at -O1..-O3 clang's TBAA calls those loads "long",
#   type analysis believes it, and the engine refuses to make a float of bits it cannot follow
#   (findings/tbaa_integer_view_of_doubles.c; memcpy and unions work);
# - the sign bit tested through an integer shift is piecewise differentiable, but every integer operation on
#   active bits other than the sign-bit and/or/xor is refused.
TBAA_VIEW = r"type analysis does not know them for float bits"
MAY_REFUSE = {"bits_memory": TBAA_VIEW, "bits_copy": TBAA_VIEW,
              "bits_sign_test": r"bits of an active floating-point value"}


# Integer code on the bits ``u`` of an active double with no derivative rule.
TRICKS = {
    "next_up": "u += 1;",
    "next_down": "u -= 1;",
    "fast_rsqrt": "u = 0x5fe6eb50c7b537a9ull - (u >> 1);",
    "sqrt_guess": "u = (u >> 1) + 0x1ff8000000000000ull;",
    "truncate_low_word": "u &= 0xffffffff00000000ull;",
    "clear_low_bits": "u &= ~0xfffull;",
    "flip_low_bit": "u ^= 1;",
    "set_low_bit": "u |= 1;",
    "exponent_bump": "u += 1ull << 52;",
    "mantissa": "u = (u & 0x000fffffffffffffull) | 0x3ff0000000000000ull;",
}


def refusal_program(seed: int, mode: str) -> tuple[str, str]:
    """C source whose function ``f`` does integer arithmetic on active float bits, and the trick's name.

    ``mode`` is ``reverse`` or ``forward``: the one request in the program."""
    g = Gen(random.Random(seed))
    trick = g.choice(sorted(TRICKS))
    src = g.choice(("value", "memory", "loop", "helper", "bits_helper"))
    code = TRICKS[trick]
    if src == "value":
        body = (f"{to_bits(g, active(g, 2), 'u')}\n  {code}\n  {to_double(g, 'u', 'b')}\n"
                f"  return {g.uses(2, ['b', *X], 'b')};")
    elif src == "memory":
        read = g.choice(("uint64_t u = ((const uint64_t *)x)[1];", "uint64_t u; memcpy(&u, x + 1, sizeof u);",
                         "union { double d; uint64_t u; } v; v.d = x[1]; uint64_t u = v.u;"))
        body = f"{read}\n  {code}\n  {to_double(g, 'u', 'b')}\n  return {g.uses(2, ['b', *X], 'b')};"
    elif src == "loop":
        body = ("double s = 0, w[4];\n  memcpy(w, x, sizeof w);\n  for (int i = 0; i < n; i++) {\n"
                f"    uint64_t u; memcpy(&u, &w[i % 4], 8);\n    {code}\n    double v = double_of(u);\n"
                f"    s += {g.uses(2, ['v', 'x[i % 4]'], 'v')};\n  }}\n  return s;")
    elif src == "bits_helper":  # the integer crosses a call both ways
        attr = g.choice(("static", "__attribute__((noinline)) static"))
        g.helpers.append(f"{attr} uint64_t trick_bits(uint64_t u) {{ {code} return u; }}")
        body = (f"double b = double_of(trick_bits(bits_of({active(g, 2)})));\n"
                f"  return {g.uses(2, ['b', *X], 'b')};")
    else:
        attr = g.choice(("static", "__attribute__((noinline)) static"))
        g.helpers.append(f"{attr} double trick(double y) {{ uint64_t u = bits_of(y); {code} return double_of(u); }}")
        body = f"double a = {active(g, 2)};\n  return {g.uses(2, ['trick(a)', *X], 'trick(a)')};"
    request = {
        "reverse": "void g(double *x, double *dx, int n) { __enzyme_autodiff((void *)f, enzyme_dup, x, dx, "
                   "enzyme_const, n); }",
        "forward": "double g(double *x, double *dx, int n) { return __enzyme_fwddiff((void *)f, enzyme_dup, x, dx, "
                   "enzyme_const, n); }",
    }[mode]
    source = "\n".join(["#include <math.h>", "extern int enzyme_dup, enzyme_const;",
                        "double __enzyme_autodiff(void *, ...);", "double __enzyme_fwddiff(void *, ...);",
                        PRELUDE, *g.helpers, f"double f(const double *x, int n) {{\n  {body}\n}}", request, ""])
    return source, f"{trick}/{src}"

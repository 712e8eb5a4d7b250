"""Derivative rules of the libm functions and LLVM math intrinsics.

Keys are double-precision libm names (``sin``) or, for intrinsics without a
libm twin, the intrinsic's name (``powi``, ``minnum``).  :func:`lookup` maps
every spelling of a callee to its rule: ``sinf``, ``sinl``, ``sinf128``,
``llvm.sin.f64``, ``llvm.sin.v2f32``, ``__sin_finite``, ``__powidf2``, ...

Conventions (chosen once, here, so the generators stay free of calculus;
the ones at non-differentiable points are listed in docs/nonsmooth.md):

* **Sign kinks follow the sign bit**: ``fabs'(x) = copysign(1, x)``, so
  ``fabs'(+0) = 1`` and ``fabs'(-0) = -1`` (the slope of the side the sign
  bit names; ``|-x*x|'' = 2`` at 0, where ``-x*x`` is -0); ``copysign(x, y)``
  has ∂/∂x = copysign(1, x)·copysign(1, y), as upstream, and fabs(x) is
  copysign(x, 1) (upstream's fabs rule tests x < 0 instead: +1 at -0).
* **Ties** of max send the derivative to the *first* operand, ties of min
  to the *second* (upstream's maxnum/minnum rules: x wins unless x < y,
  resp. when x < y); the partials always sum to one, so ``max(x, x)`` has
  derivative 1.  ``fmax(x, lo)`` at ``x == lo`` therefore has slope 1.
* **NaN**: ``minnum``/``maxnum``/``fmin``/``fmax`` return the non-NaN
  operand, and the derivative follows the returned operand.
* Partials that select (min/max, fdim) are emitted as selects of the
  scaled tangents (:meth:`enzyme.rules.emit.Emitter.times`): the operand not
  picked gets exactly zero, never ``0 · NaN``.
* **Integer-valued functions** (``floor``, ``rint``, ``lround``, ``logb``...)
  have rules whose partials are all None: differentiable with derivative
  zero almost everywhere.  That is different from having no rule.
* **Singular points** give what the formula gives (``sqrt'(0) = inf``,
  ``hypot`` at the origin is NaN) unless the limit is finite and cheap to
  select: ``pow`` at ``x == 0`` / ``y == 0``, ``powi`` at ``n == 0``,
  ``j1'(0) = 1/2``.  Rules marked ``singular`` multiply a zero tangent or
  adjoint into zero, not NaN: ``sqrt(v·v)`` at ``v = 0`` has derivative 0
  in every direction (a subgradient of ``|v|``), as upstream's ``sqrt``
  rule gives.
* Partials of rules that exist as LLVM intrinsics call only intrinsics, so
  vector operands (``llvm.sin.v4f32``) work.

Functions libm lacks are emitted into the module (``digamma`` for the
derivatives of ``tgamma``/``lgamma``: see special_functions.py).  Functions
without a rule yet are in :data:`NO_RULE_REASON`; functions that return
structs or write floating-point results through pointers (``llvm.frexp``,
``llvm.modf``, ``sincos``) are in :data:`SPECIAL`, handled by the engine
itself.  ``frexp``/``lgamma_r`` write only an integer through their pointer,
so the libm forms have ordinary rules (the pointer operand has no partial).
"""
from __future__ import annotations

import math

from .dsl import Const, IntArg, MultiRule, MultiRuleTable, R, Result, Rule, RuleTable, X, cmp, multi_rule, rule, select
from .complex_functions import no_complex_rule_reason
from .names import intrinsic_base, libm_base, like_target

MATH: RuleTable = {}

LN2 = math.log(2.0)
LN10 = math.log(10.0)
TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)

x, y = X[0], X[1]  # shorthands for the operands in the rules below

# -- roots, powers, hypot ----------------------------------------------------------
# singular: infinite partials at finite points (sqrt, cbrt and pow at 0, asin/acos at ±1, ...).
rule(MATH, "sqrt", 0.5 / R, singular=True)
rule(MATH, "cbrt", 1.0 / (3.0 * R * R), singular=True)  # from R: exact cube root, no pow(x, -2/3)
rule(MATH, "pow",
     # pow(x, 0) == 1 for every x: its x-derivative is 0 (the formula gives 0·inf at x == 0).
     select(cmp("oeq", y, 0.0), 0.0, y * x.call("pow", y - 1.0)),
     # pow(0, y) is 0 (y > 0) or inf (y < 0) for a whole range of y: y-derivative 0, not 0·log(0).
     select(cmp("oeq", x, 0.0), 0.0, R * x.call("log")), singular=True)
_n = IntArg(1)
# llvm.powi.f64.i32: the exponent is an integer operand, so only x has a partial.  pow with the
# integral exponent n-1 is exact for negative x too.
rule(MATH, "powi", select(cmp("oeq", _n, 0.0), 0.0, _n * x.call("pow", _n - 1.0)), None)
rule(MATH, "hypot", x / R, y / R, singular=True)

# -- trigonometric -------------------------------------------------------------------
rule(MATH, "sin", x.call("cos"))
rule(MATH, "cos", -x.call("sin"))
rule(MATH, "tan", 1.0 + R * R)
# (1-x)(1+x) instead of 1-x²: no cancellation as |x| -> 1 (1-x is exact there).
rule(MATH, "asin", 1.0 / ((1.0 - x) * (1.0 + x)).call("sqrt"), singular=True)
rule(MATH, "acos", -1.0 / ((1.0 - x) * (1.0 + x)).call("sqrt"), singular=True)
rule(MATH, "atan", 1.0 / (1.0 + x * x))
_r2 = x * x + y * y  # atan2(y, x): operand 0 is y, operand 1 is x
rule(MATH, "atan2", y / _r2, -x / _r2, singular=True)  # 0/0 at the origin, where atan2 is finite

# -- hyperbolic ----------------------------------------------------------------------
rule(MATH, "sinh", x.call("cosh"))
rule(MATH, "cosh", x.call("sinh"))
_c = x.call("cosh")
rule(MATH, "tanh", 1.0 / (_c * _c))  # not 1 - tanh²: that is 0 for |x| > 19 instead of tiny
rule(MATH, "asinh", 1.0 / x.call("hypot", 1.0))  # 1/sqrt(x²+1) without overflow of x²
rule(MATH, "acosh", 1.0 / ((x - 1.0).call("sqrt") * (x + 1.0).call("sqrt")), singular=True)
rule(MATH, "atanh", 1.0 / ((1.0 - x) * (1.0 + x)))

# -- exponentials and logarithms -------------------------------------------------------
rule(MATH, "exp", R)
rule(MATH, "exp2", R * LN2)
rule(MATH, "exp10", R * LN10)
rule(MATH, "expm1", x.call("exp"))  # not R + 1: that cancels to 0 for x << 0
rule(MATH, "log", 1.0 / x)
rule(MATH, "log2", (1.0 / LN2) / x)
rule(MATH, "log10", (1.0 / LN10) / x)
rule(MATH, "log1p", 1.0 / (1.0 + x))

# -- special functions ---------------------------------------------------------------
rule(MATH, "erf", TWO_OVER_SQRT_PI * (-(x * x)).call("exp"))
rule(MATH, "erfc", -TWO_OVER_SQRT_PI * (-(x * x)).call("exp"))
rule(MATH, "j0", -x.call("j1"))
rule(MATH, "j1", select(cmp("oeq", x, 0.0), 0.5, x.call("j0") - R / x))  # j1'(0) = 1/2, the formula's limit
rule(MATH, "y0", -x.call("y1"))
rule(MATH, "y1", x.call("y0") - R / x)  # y1 lives on x > 0 only

# Γ'(x) = Γ(x)·ψ(x) and (log|Γ|)' = ψ(x) everywhere off the poles (also for x < 0, where Γ changes
# sign: the sign of Γ cancels in Γ'/Γ).  gamma is glibc's old name of lgamma; lgamma_r(x, int* sign)
# also stores the sign of Γ (an integer: no derivative).
rule(MATH, "tgamma", R * x.call("digamma"))
rule(MATH, "lgamma", x.call("digamma"))
rule(MATH, "gamma", x.call("digamma"))
rule(MATH, "lgamma_r", x.call("digamma"), None)
# frexp(x, int* e) = x·2^-e with e constant on each binade: slope 2^-e, which is m/x exactly (a power of
# two) for finite x != 0; frexp(0) has e = 0, slope 1.  The stored exponent is an integer.
rule(MATH, "frexp", select(cmp("oeq", x, 0.0), 1.0, R / x), None)

# -- fused multiply-add ----------------------------------------------------------------
rule(MATH, "fma", y, x, 1.0)
rule(MATH, "fmuladd", y, x, 1.0)

# -- sign, selection, difference ---------------------------------------------------------
# |x| = copysign(x, 1): slope copysign(1, x), the sign bit's side at ±0 (-1 at -0.0).  Written as a
# call, not a select on x < 0, so that nested derivatives see a constant factor: |-x*x|'' = 2 at 0.
_sign_x = Const(1.0).call("copysign", x)
rule(MATH, "fabs", _sign_x)
# copysign(x, y) = ±|x| with y's sign bit: slope of |x| times y's sign.  The y-partial is zero: only
# y's sign bit matters.
rule(MATH, "copysign", _sign_x * Const(1.0).call("copysign", y), None)


def _min_max(name: str, first_wins: str, *, nan_ignoring: bool) -> None:
    """``name(x, y)`` selects x when ``fcmp first_wins x, y`` holds, else y (so the predicate decides ties)."""
    wins = cmp(first_wins, x, y)
    if nan_ignoring:
        # minnum(x, NaN) is x, minnum(NaN, y) is y: `wins` alone would credit y in both cases.
        y_nan = cmp("uno", y, y)
        rule(MATH, name, select(y_nan, 1.0, select(wins, 1.0, 0.0)), select(y_nan, 0.0, select(wins, 0.0, 1.0)))
    else:  # NaN-propagating: the result is NaN, where the split does not matter
        rule(MATH, name, select(wins, 1.0, 0.0), select(wins, 0.0, 1.0))


# Ties: min to the second operand (x wins only when x < y), max to the first (x wins when x >= y).
for _name in ("fmin", "minnum", "minimumnum", "fminimum_num"):
    _min_max(_name, "olt", nan_ignoring=True)
for _name in ("fmax", "maxnum", "maximumnum", "fmaximum_num"):
    _min_max(_name, "oge", nan_ignoring=True)
for _name in ("minimum", "fminimum"):
    _min_max(_name, "olt", nan_ignoring=False)
for _name in ("maximum", "fmaximum"):
    _min_max(_name, "oge", nan_ignoring=False)
# x86 SSE/AVX packed max/min (what _mm_max_pd, _mm256_min_ps... compile to): per lane x if x > y
# (resp. x < y), else y -- so ties, NaNs and ±0 go to the second operand, as the hardware returns it.
X86_MIN_MAX = {f"x86.{ext}.{op}.{t}": op for ext, t in (("sse", "ps"), ("sse2", "pd"), ("avx", "ps.256"),
                                                         ("avx", "pd.256")) for op in ("max", "min")}
for _name, _op in X86_MIN_MAX.items():
    _min_max(_name, "ogt" if _op == "max" else "olt", nan_ignoring=False)
_gt = cmp("ogt", x, y)
rule(MATH, "fdim", select(_gt, 1.0, 0.0), select(_gt, -1.0, 0.0))  # max(x - y, 0); 0 at the tie

# -- remainders, neighbours, scaling -------------------------------------------------------
# fmod(x, y) = x - n·y with n = trunc(x/y) constant between the jumps.  x/y rounding across an
# integer only happens within an ulp of a jump, where the derivative is undefined anyway.
rule(MATH, "fmod", 1.0, -(x / y).call("trunc"))
rule(MATH, "remainder", 1.0, -(x / y).call("roundeven"))  # n = x/y rounded to nearest, ties to even
# nextafter(x, y) = x ± ulp(x), and ulp(x) is constant within a binade: there it is x plus a
# constant, slope exactly 1 (as upstream Enzyme).  y only picks the direction: partial zero.
rule(MATH, "nextafter", 1.0, None)
rule(MATH, "nexttoward", 1.0, None)  # y is a long double: never differentiated
# ldexp(x, n) = x·2^n: exp2 of the converted integer is exact, and overflows exactly when 2^n does.
for _name in ("ldexp", "scalbn", "scalbln"):
    rule(MATH, _name, IntArg(1).call("exp2"), None)

# -- identities ------------------------------------------------------------------------
rule(MATH, "canonicalize", 1.0)
rule(MATH, "arithmetic.fence", 1.0)

# -- integer-valued: derivative zero -------------------------------------------------------
for _name in ("floor", "ceil", "trunc", "round", "roundeven", "rint", "nearbyint", "logb",
              # these return integers: no tangent at all, but known, so not an error
              "lround", "llround", "lrint", "llrint", "ilogb"):
    rule(MATH, _name, None)


# Names that are LLVM intrinsics (``llvm.<name>.<types>``); the others in MATH exist only in libm.
INTRINSICS = frozenset({
    "sqrt", "powi", "pow", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh",
    "exp", "exp2", "exp10", "log", "log2", "log10", "fma", "fmuladd", "fabs", "copysign", "minnum", "maxnum",
    "minimum", "maximum", "minimumnum", "maximumnum", "ldexp", "canonicalize", "arithmetic.fence", "floor",
    "ceil", "trunc", "round", "roundeven", "rint", "nearbyint", "lround", "llround", "lrint", "llrint",
    # SPECIAL ones
    "frexp", "modf", "sincos", "sincospi", *X86_MIN_MAX})
# Intrinsics without a libm function of the same name: a user function called `minnum` is not one.
INTRINSIC_ONLY = frozenset({"powi", "fmuladd", "minnum", "maxnum", "minimum", "maximum", "minimumnum",
                            "maximumnum", "canonicalize", "arithmetic.fence", "sincospi", *X86_MIN_MAX})
# Runtime-library spellings of intrinsics (compiler-rt/libgcc: what llvm.powi lowers to).
ALIASES = {"__powidf2": "powi", "__powisf2": "powi", "__powixf2": "powi", "__powitf2": "powi",
           # glibc puts the type suffix before _r
           "lgammaf_r": "lgamma_r", "lgammal_r": "lgamma_r", "lgammaf128_r": "lgamma_r"}

# Functions the engine differentiates itself: their results come back as structs or through
# pointers, which a per-operand partial cannot describe.  Values say what to do.
SPECIAL: dict[str, str] = {
    "frexp": "llvm.frexp(x) returns {m, e} with x = m·2^e: dm/dx = 2^-e (m/x for x != 0, the rule of libm's "
             "frexp); e is an integer (no derivative)",
    "modf": "modf(x, T* ip) returns the fractional part and stores the integral part (llvm.modf returns "
            "{frac, int}): d frac/dx = 1, d int/dx = 0 (the shadow of *ip gets zero)",
    "sincos": "sincos(x, T* s, T* c) stores sin x and cos x (llvm.sincos returns {sin, cos}): "
              "d sin/dx = cos x, d cos/dx = -sin x; the shadows of *s and *c carry them",
    "sincospi": "llvm.sincospi(x) returns {sin(πx), cos(πx)}: d sin/dx = π·cos(πx), d cos/dx = -π·sin(πx)",
    "remquo": "remquo(x, y, int* q) returns remainder(x, y) and stores quotient bits in *q: partials as "
              "remainder (1, -roundeven(x/y)); *q is an integer (no derivative)",
}

# The struct-returning intrinsics of SPECIAL as data: per result field, its partial in x (Result(k) is field k).
MULTI: MultiRuleTable = {}
multi_rule(MULTI, "modf", (1.0,), None)  # {frac, int}: the integral part is piecewise constant
multi_rule(MULTI, "frexp", (select(cmp("oeq", x, 0.0), 1.0, Result(0) / x),), None)  # {m, e}: dm/dx = m/x = 2^-e
# {sin, cos}: singular because sin/cos of an infinite operand are NaN, where a zero seed must stay zero.
multi_rule(MULTI, "sincos", (Result(1),), (-Result(0),), singular=True)
multi_rule(MULTI, "sincospi", (math.pi * Result(1),), (-math.pi * Result(0),), singular=True)

_BESSEL_N = ("d jn(n, x)/dx = (jn(n-1, x) - jn(n+1, x))/2 needs calls with an integer order, which the "
             "rule language does not express yet; register a custom derivative")

# Known functions deliberately without a rule, with the reason (the engine's error names it).
NO_RULE_REASON: dict[str, str] = {
    "jn": _BESSEL_N, "yn": _BESSEL_N.replace("jn", "yn"),
}

_X86_APPROXIMATE = ("an approximation (about 12 bits) whose error is not differentiable; the derivative of the "
                    "exact function would not be the derivative of what the program computes: use _mm_div/_mm_sqrt "
                    "(which have rules) or register a custom derivative")
_X86_SCALAR = ("changes lane 0 only and passes the other lanes of its first operand through, which the per-lane "
               "rules do not describe yet; use the packed form (_mm_max_pd) or register a custom derivative")
_X86_HORIZONTAL = ("adds or subtracts neighbouring lanes (a lane permutation the per-lane rules do not describe "
                   "yet); write the sum with shuffles and _mm_add_pd, or register a custom derivative")
#: x86 vector intrinsics clang leaves as calls, known and deliberately without a rule (by intrinsic base).
X86_NO_RULE_REASON: dict[str, str] = {
    **{f"x86.{n}": _X86_APPROXIMATE for n in ("sse.rcp.ps", "sse.rcp.ss", "sse.rsqrt.ps", "sse.rsqrt.ss",
                                              "avx.rcp.ps.256", "avx.rsqrt.ps.256")},
    **{f"x86.{n}": _X86_SCALAR for n in ("sse.max.ss", "sse.min.ss", "sse2.max.sd", "sse2.min.sd")},
    **{f"x86.{n}": _X86_HORIZONTAL for n in ("sse3.hadd.pd", "sse3.hadd.ps", "sse3.hsub.pd", "sse3.hsub.ps",
                                             "avx.hadd.pd.256", "avx.hadd.ps.256", "avx.hsub.pd.256",
                                             "avx.hsub.ps.256")},
}

LIBM_NAMES = frozenset((set(MATH) - INTRINSIC_ONLY) | (set(SPECIAL) - INTRINSIC_ONLY) | set(NO_RULE_REASON))


def canonical_name(name: str) -> str | None:
    """The table key for a callee: ``sinf`` / ``llvm.sin.v2f64`` -> ``sin``; None if not a math function."""
    name = like_target(name)
    if name.startswith("__nv_"):  # CUDA's libdevice: __nv_sin, __nv_expf, __nv_fast_expf, __nv_powi
        name = name[len("__nv_"):].removeprefix("fast_")
        if name in ("powi", "powif"):
            return "powi"
    elif name.startswith("__ocml_") and name.endswith(("_f64", "_f32", "_f16")):  # ROCm: __ocml_sin_f64
        name = name[len("__ocml_"):-len("_f64")].removeprefix("native_")
        if name == "pown":
            return "powi"
    base = intrinsic_base(name)
    if base is not None:
        return base if base in INTRINSICS else None
    if name in ALIASES:
        return ALIASES[name]
    return libm_base(name, LIBM_NAMES)


def lookup(name: str) -> Rule | None:
    """The rule for a callee name (libm name with f/l suffix, or an LLVM intrinsic), if any.

    >>> lookup("llvm.sin.v2f64") is lookup("sinf") is MATH["sin"]
    True
    """
    key = canonical_name(name)
    if key is None or (key in SPECIAL and name.startswith("llvm.")):
        return None  # llvm.frexp returns {m, e}: a struct, which the scalar rule of frexp does not describe
    return MATH.get(key)


def lookup_multi(name: str) -> MultiRule | None:
    """The rule of an intrinsic returning a struct of results (``llvm.sincos.f64`` -> MULTI["sincos"])."""
    return MULTI.get(canonical_name(name) or "") if name.startswith("llvm.") else None


def is_special(name: str) -> bool:
    """True for functions in :data:`SPECIAL` (struct results or float results through pointers) without a rule."""
    return canonical_name(name) in SPECIAL and lookup(name) is None


def no_rule_reason(name: str) -> str | None:
    """Why a known math function has no rule (see :data:`NO_RULE_REASON` and complex_functions.py), or None."""
    key = canonical_name(name)
    if key is not None:
        return NO_RULE_REASON.get(key)
    base = intrinsic_base(like_target(name))
    if base is not None:
        return X86_NO_RULE_REASON.get(base)
    return no_complex_rule_reason(like_target(name))

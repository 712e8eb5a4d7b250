"""Numeric harness for the rule tables: every partial, emitted and JIT-compiled once per session.

For each rule, type and differentiable operand ``k`` the module gets

    define void @d.<rule>.<k>.<type>(ptr %in, ptr %out)

which loads the operands from 16-byte slots of ``in``, emits the partial
with :class:`enzyme.rules.emit.Emitter` (and the primal result with the
same declarations the engine would use, when the rule needs it) and stores
it to ``out``.  All functions go into one module and one JIT, so the whole
table costs one compilation.
"""
from __future__ import annotations

import ctypes
import math
import operator
import struct
from collections.abc import Callable
from dataclasses import dataclass, field

from enzyme import llvm
from enzyme.ir import (
    DOUBLE,
    FLOAT,
    I8,
    I32,
    I64,
    PTR,
    VOID,
    Function,
    FunctionType,
    Module,
    Type,
    VectorType,
    print_module,
)
from enzyme.ir.builder import Builder
from enzyme.rules import INSTRUCTIONS, MATH, Rule
from enzyme.rules.emit import Emitter, function_for
from enzyme.rules.math import INTRINSICS, SPECIAL, X86_MIN_MAX

LIBM = ctypes.CDLL("libm.so.6")
SLOT = 16  # bytes per operand slot: room for <2 x double>

TYPES: dict[str, Type] = {"f64": DOUBLE, "f32": FLOAT, "v2f64": VectorType(2, DOUBLE)}
SCALAR_TAGS = ("f64", "f32")
VECTOR_TAG = "v2f64"

# Operand kinds: f = float of the rule's type, i = i32, q = i64, L = long double (never read by a partial),
# p = pointer to an integer result (frexp's exponent, lgamma_r's sign; a scratch slot is passed).
KINDS = {"powi": "fi", "ldexp": "fi", "scalbn": "fi", "scalbln": "fq", "nexttoward": "fL", "frexp": "fp",
         "lgamma_r": "fp"}
# Integer operands that stay scalar when the float operands are vectors (llvm.powi.v2f64.i32).
SCALAR_INT_IN_VECTOR = {"powi"}
# Integer-valued results: no finite difference to compare with (the rule is all-None anyway).
INTEGER_RESULT = {"lround", "llround", "lrint", "llrint", "ilogb"}

# Points inside each domain, away from kinks and jumps.  For vector tests the first two
# points are the two lanes (for powi they share the scalar exponent).
_UNARY_GENERIC = [(-1.3,), (0.4,), (2.6,)]
POINTS: dict[str, list[tuple[float | int, ...]]] = {
    "sqrt": [(0.3,), (2.0,), (17.5,)],
    "cbrt": [(-8.5,), (0.3,), (27.1,)],
    "sin": [(-1.2,), (0.4,), (2.5,)], "cos": [(-1.2,), (0.4,), (2.5,)], "tan": [(-1.2,), (0.4,), (2.5,)],
    "asin": [(-0.7,), (0.2,), (0.9,)], "acos": [(-0.7,), (0.2,), (0.9,)], "atan": [(-3.0,), (0.4,), (10.0,)],
    "atan2": [(0.5, 1.2), (-1.0, 0.3), (2.0, -1.5)],
    "sinh": [(-2.0,), (0.3,), (1.7,)], "cosh": [(-2.0,), (0.3,), (1.7,)], "tanh": [(-2.0,), (0.3,), (1.7,)],
    "asinh": [(-3.0,), (0.5,), (4.0,)], "acosh": [(1.2,), (2.5,), (10.0,)], "atanh": [(-0.8,), (0.1,), (0.6,)],
    "exp": [(-2.0,), (0.3,), (1.5,)], "exp2": [(-2.0,), (0.3,), (1.5,)], "exp10": [(-2.0,), (0.3,), (1.5,)],
    "expm1": [(-2.0,), (0.3,), (1.5,)],
    "log": [(0.2,), (1.5,), (30.0,)], "log2": [(0.2,), (1.5,), (30.0,)], "log10": [(0.2,), (1.5,), (30.0,)],
    "log1p": [(-0.5,), (0.3,), (5.0,)],
    "pow": [(1.5, 2.3), (0.7, -1.2), (3.0, 0.5)],
    "powi": [(1.7, 3), (-1.3, 3), (0.8, -2), (2.0, 0)],
    "hypot": [(3.0, 4.0), (-1.5, 0.2)],
    "erf": [(-1.5,), (0.2,), (2.0,)], "erfc": [(-1.5,), (0.2,), (2.0,)],
    "j0": [(0.5,), (2.3,), (7.1,)], "j1": [(0.5,), (2.3,), (7.1,)],
    "y0": [(0.5,), (2.3,), (7.1,)], "y1": [(0.5,), (2.3,), (7.1,)],
    "fma": [(1.5, -2.0, 0.3), (0.7, 3.0, -1.0)], "fmuladd": [(1.5, -2.0, 0.3), (0.7, 3.0, -1.0)],
    "fabs": [(-1.3,), (0.7,)],
    "copysign": [(1.3, 2.0), (1.3, -2.0), (-0.4, 3.0), (-0.4, -3.0)],
    "fdim": [(3.0, 1.0), (1.0, 3.0)],
    "fmod": [(5.3, 1.2), (-7.1, 2.5), (2.2, -0.7)],
    "remainder": [(5.3, 1.2), (-7.1, 2.5), (2.2, -0.7)],
    "nextafter": [(1.3, 2.0), (-0.6, -5.0)], "nexttoward": [(1.3, 2.0), (-0.6, -5.0)],
    "ldexp": [(1.3, 3), (-0.7, -2)], "scalbn": [(1.3, 3), (-0.7, -2)], "scalbln": [(1.3, 3), (-0.7, -2)],
    "canonicalize": [(1.3,), (-0.2,)], "arithmetic.fence": [(1.3,), (-0.2,)],
    "logb": [(3.0,), (0.3,)],
    "tgamma": [(-2.5,), (-0.3,), (0.4,), (1.7,), (6.2,), (9.5,)], "lgamma": [(-2.5,), (0.4,), (1.7,), (150.0,)],
    "gamma": [(-2.5,), (0.4,), (1.7,)], "lgamma_r": [(-1.5, 0), (0.4, 0), (12.5, 0)],
    "frexp": [(-3.3, 0), (0.7, 0), (5e10, 0)],
    "fadd": [(1.5, -0.3), (2.0, 7.0)], "fsub": [(1.5, -0.3), (2.0, 7.0)], "fmul": [(1.5, -0.3), (2.0, 7.0)],
    "fdiv": [(1.5, -0.3), (2.0, 7.0)], "fneg": [(1.5,), (-2.0,)], "frem": [(5.3, 1.2), (-7.1, 2.5)],
}
for _n in ("fmin", "minnum", "minimumnum", "fminimum_num", "minimum", "fminimum",
           "fmax", "maxnum", "maximumnum", "fmaximum_num", "maximum", "fmaximum"):
    POINTS[_n] = [(0.3, 1.2), (2.0, -1.0)]
for _n in X86_MIN_MAX:  # the rules are per lane: checked on scalars and vectors like minnum
    POINTS[_n] = [(0.3, 1.2), (2.0, -1.0)]


def _libm(name: str, kinds: str) -> Callable[..., float]:
    f = getattr(LIBM, name)
    f.restype = ctypes.c_double
    f.argtypes = [{"f": ctypes.c_double, "i": ctypes.c_int, "q": ctypes.c_long, "L": ctypes.c_longdouble}[k]
                  for k in kinds]
    return f


# Reference primals for names that are not libm functions (intrinsics, instructions).
_PRIMALS: dict[str, Callable[..., float]] = {
    "powi": lambda x, n: float(x) ** n,
    "fmuladd": _libm("fma", "fff"),
    "minnum": _libm("fmin", "ff"), "maxnum": _libm("fmax", "ff"),
    "minimum": _libm("fminimum", "ff"), "maximum": _libm("fmaximum", "ff"),
    "minimumnum": _libm("fminimum_num", "ff"), "maximumnum": _libm("fmaximum_num", "ff"),
    "canonicalize": lambda x: x, "arithmetic.fence": lambda x: x,
    # x86 maxpd/minpd: the first operand only when strictly greater/less, else the second.
    **{n: (lambda x, y: x if x > y else y) if op == "max" else (lambda x, y: x if x < y else y)
       for n, op in X86_MIN_MAX.items()},
    "fadd": operator.add, "fsub": operator.sub, "fmul": operator.mul, "fdiv": operator.truediv,
    "fneg": operator.neg, "frem": math.fmod,
    "frexp": lambda x, _p: math.frexp(x)[0], "lgamma_r": lambda x, _p: math.lgamma(x),
}


@dataclass
class Case:
    """One rule under test."""

    table: str           # "math" or "inst"
    name: str
    rule: Rule
    kinds: str
    points: list[tuple[float | int, ...]]
    tags: tuple[str, ...]
    functions: dict[tuple[int, str], str] = field(default_factory=dict)  # (operand, tag) -> symbol

    @property
    def primal(self) -> Callable[..., float]:
        if self.name in _PRIMALS:
            return _PRIMALS[self.name]
        return _libm(self.name, self.kinds)


def _cases() -> list[Case]:
    cases = []
    for table, rules in (("math", MATH), ("inst", INSTRUCTIONS)):
        for name, r in rules.items():
            kinds = KINDS.get(name, "f" * r.arity)
            vector = table == "inst" or (name in INTRINSICS and name not in SPECIAL)
            points = POINTS.get(name, _UNARY_GENERIC if r.arity == 1 else [])
            tags = SCALAR_TAGS + ((VECTOR_TAG,) if vector else ())
            cases.append(Case(table, name, r, kinds, points, tags))
    return cases


def _operand_type(case: Case, k: int, tag: str) -> Type | None:
    kind, t = case.kinds[k], TYPES[tag]
    if kind == "f":
        return t
    if kind in "Lp":
        return None
    it = I32 if kind == "i" else I64
    if isinstance(t, VectorType) and case.name not in SCALAR_INT_IN_VECTOR:
        return VectorType(t.count, it)
    return it


def _emit_primal(m: Module, b: Builder, case: Case, args: list, t: Type):
    if case.table == "inst":
        return b.fneg(args[0]) if case.name == "fneg" else b.binop(case.name, args[0], args[1])
    if case.kinds == "fp":  # frexp, lgamma_r: the integer result goes to a scratch slot
        name = {"frexp": "frexp{}", "lgamma_r": "lgamma{}_r"}[case.name].format("f" if t == FLOAT else "")
        decl = m.declare_function(name, FunctionType(t, (t, PTR)))
        return b.call(decl, [args[0], b.alloca(I64)])
    assert set(case.kinds) == {"f"}, f"{case.name}: a rule using R needs a uniform signature here"
    return b.call(function_for(m, case.name, t, case.rule.arity), args)


def build_module(cases: list[Case]) -> Module:
    m = Module()
    for case in cases:
        for tag in case.tags:
            t = TYPES[tag]
            for k, partial in enumerate(case.rule.partials):
                if partial is None:
                    continue
                sym = f"d.{case.name}.{k}.{tag}".replace("arithmetic.fence", "arithmetic_fence")
                f = Function(sym, FunctionType(VOID, (PTR, PTR)))
                m.add(f)
                b = Builder(f.append_block("entry"))
                args = []
                for j in range(case.rule.arity):
                    ot = _operand_type(case, j, tag)
                    p = b.gep(I8, f.args[0], [j * SLOT]) if j else f.args[0]
                    args.append(b.load(ot, p) if ot is not None else None)
                result = _emit_primal(m, b, case, args, t) if case.rule.uses_result else None
                b.store(Emitter(m, b, args, result, t).emit(partial), f.args[1])
                b.ret()
                case.functions[(k, tag)] = sym
    return m


class Compiled:
    """The JIT-compiled partials and a way to call them with Python numbers."""

    def __init__(self, cases: list[Case]) -> None:
        self.cases = {c.name: c for c in cases}
        self.text = print_module(build_module(cases))
        self.jit = llvm.JIT(self.text, libraries=["libm.so.6"])  # cbrt, j0, erf... for the JIT
        self._fns: dict[str, Callable] = {}

    def partial(self, name: str, k: int, tag: str, point: tuple, lane1: tuple | None = None) -> tuple[float, ...]:
        """Evaluate ∂name/∂x_k at ``point`` (and at ``lane1`` in the second lane of a vector)."""
        case = self.cases[name]
        sym = case.functions[(k, tag)]
        fn = self._fns.get(sym)
        if fn is None:
            fn = self._fns[sym] = self.jit.cfunc(sym, None, ctypes.c_void_p, ctypes.c_void_p)
        buf = bytearray(SLOT * len(case.kinds))
        for j, kind in enumerate(case.kinds):
            v0 = point[j]
            v1 = (lane1 or point)[j]
            if kind in "Lp":
                continue
            if tag == "v2f64":
                fmt = {"f": "<2d", "i": "<2i", "q": "<2q"}[kind]
                if kind != "f" and name in SCALAR_INT_IN_VECTOR:
                    fmt, vals = ("<i" if kind == "i" else "<q"), (v0,)
                else:
                    vals = (v0, v1)
            else:
                fmt = {"f": "<d" if tag == "f64" else "<f", "i": "<i", "q": "<q"}[kind]
                vals = (v0,)
            struct.pack_into(fmt, buf, j * SLOT, *vals)
        inp = (ctypes.c_char * len(buf)).from_buffer(buf)
        out = (ctypes.c_char * SLOT)()
        fn(ctypes.addressof(inp), ctypes.addressof(out))
        raw = bytes(out)
        if tag == "v2f64":
            return struct.unpack_from("<2d", raw)
        return struct.unpack_from("<d" if tag == "f64" else "<f", raw)


def finite_difference(f: Callable[..., float], point: tuple, k: int) -> float:
    """Fourth-order central difference of ``f`` in operand ``k`` (error ~h⁴, h = 1e-3·max(1, |x|))."""
    h = 1e-3 * max(1.0, abs(float(point[k])))

    def at(d: float) -> float:
        p = list(point)
        p[k] = point[k] + d
        return f(*p)

    return (8.0 * (at(h) - at(-h)) - (at(2 * h) - at(-2 * h))) / (12.0 * h)


def as_float32(point: tuple, kinds: str) -> tuple:
    """The point rounded to float precision in its float operands (what a float function sees)."""
    return tuple(struct.unpack("<f", struct.pack("<f", v))[0] if k == "f" else v for v, k in zip(point, kinds))


CASES = _cases()

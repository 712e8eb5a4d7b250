"""Turn rule expressions into instructions at a builder's insertion point."""
from __future__ import annotations

import math

from collections.abc import Sequence

from ..errors import DifferentiationError
from ..ir import ConstantExpr, ConstantKeyword, FunctionType, Module, Type, Value
from ..ir.builder import Builder, const_fp
from ..ir.types import VectorType, scalar_of
from .dsl import Arg, Call, Cmp, Const, Expr, IntArg, Op, Result, Select
from .special_functions import helper_function, is_helper

# libm functions that LLVM 22 also has as overloaded intrinsics with one float
# type for the result and every operand; those are emitted as intrinsics
# (type-generic, vectorizable, known to the optimizer).  Partials of intrinsic
# rules call only these, so vector operands work (checked by tests/rules).
INTRINSIC_FUNCTIONS = frozenset({
    "sqrt", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "pow", "exp",
    "exp2", "exp10", "log", "log2", "log10", "fabs", "floor", "ceil", "trunc", "rint", "nearbyint", "round",
    "roundeven", "copysign", "minnum", "maxnum", "minimum", "maximum", "minimumnum", "maximumnum", "fma",
    "fmuladd", "canonicalize", "arithmetic.fence"})
_ZERO = Const(0.0)  # one node: an Emitter's memo makes it once
_NAN = Const(math.nan)
_NEGATIVE_ZERO = Const(-0.0)  # the zero of adjoint contributions (enzyme/ad/common.adjoint_zero)
_SUFFIX = {"double": "f64", "float": "f32", "x86_fp80": "f80", "fp128": "f128", "half": "f16",
           "bfloat": "bf16", "ppc_fp128": "ppcf128"}
# glibc's names per type: long double is x86_fp80 on x86-64, fp128 has the _Float128 names.
_LIBM_SUFFIX = {"double": "", "float": "f", "x86_fp80": "l", "fp128": "f128"}


def intrinsic_suffix(t: Type) -> str:
    """LLVM's overload suffix of a float type: ``f64``, ``v2f32``, ``nxv4f64``."""
    if isinstance(t, VectorType):
        return f"{'nx' if t.scalable else ''}v{t.count}{_SUFFIX[str(t.element)]}"
    return _SUFFIX[str(t)]


def function_for(module: Module, fn: str, t: Type, nargs: int) -> Value:
    """The declaration implementing ``fn`` (a double-precision libm name) for type ``t``."""
    ft = FunctionType(t, (t,) * nargs)
    if is_helper(fn):  # not in libm (digamma): defined in the module
        return helper_function(module, fn, t)
    if fn in INTRINSIC_FUNCTIONS:
        name = f"llvm.{fn}.{intrinsic_suffix(t)}"
    else:
        if isinstance(t, VectorType) or str(t) not in _LIBM_SUFFIX:
            raise DifferentiationError(
                f"a derivative rule needs {fn}() for type {t}, which is neither an LLVM intrinsic nor a libm "
                "function of that type; give the operation a custom rule for this type")
        name = fn + _LIBM_SUFFIX[str(t)]
    return module.declare_function(name, ft)


class Emitter:
    """Evaluates rule expressions with a builder; shares repeated subexpressions.

    Sharing is by identity: a node used twice (in one partial or in several)
    is emitted once, so one Emitter belongs to one insertion point (values it
    made earlier must dominate the later uses).
    """

    def __init__(self, module: Module, builder: Builder, args: Sequence[Value], result: Value | None, type: Type,
                 *, adjoints: bool = False):
        self.module = module
        # Reverse mode: a constant zero term of ``times`` is -0.0, which LLVM folds when it is added up.
        self._zero_term = _NEGATIVE_ZERO if adjoints else _ZERO
        self.b = builder
        self.args = args
        self.result = result
        self.type = type
        # Keyed by the node itself (identity hash), which also keeps it alive: an id() key
        # could be reused by a later temporary expression.
        self._memo: dict[Expr, Value] = {}
        self._zero_seeds: dict[Value, Value] = {}  # seed -> `seed == 0 ? +0.0 : NaN`, for singular rules

    def emit(self, e: Expr) -> Value:
        v = self._memo.get(e)
        if v is None:
            v = self._emit(e)
            self._memo[e] = v
        return v

    def _emit(self, e: Expr) -> Value:
        b, t = self.b, self.type
        if isinstance(e, Arg):
            return self.args[e.index]
        if isinstance(e, IntArg):
            return self._int_to_float(self.args[e.index])
        if isinstance(e, Result):
            assert self.result is not None, "rule uses the primal result but none was given"
            return self.result if e.field is None else b.extractvalue(self.result, [e.field])
        if isinstance(e, Const):
            c = const_fp(scalar_of(t), e.value)
            return ConstantExpr(t, "splat", [c]) if isinstance(t, VectorType) else c
        if isinstance(e, Op):
            ops = [self.emit(a) for a in e.args]
            if e.opcode == "fneg":
                return b.fneg(ops[0])
            return b.binop(e.opcode, ops[0], ops[1])
        if isinstance(e, Call):
            ops = [self.emit(a) for a in e.args]
            fn = function_for(self.module, e.fn, t, len(ops))
            return b.call(fn, ops)
        if isinstance(e, Cmp):
            return b.fcmp(e.pred, self.emit(e.a), self.emit(e.b))
        if isinstance(e, Select):
            return b.select(self.emit(e.cond), self.emit(e.a), self.emit(e.b))
        raise TypeError(f"cannot emit {e!r}")

    def times(self, e: Expr, seed: Value, *, singular: bool = False) -> Value:
        """``e · seed``: the term partial ``e`` contributes to a tangent (forward) or an adjoint (reverse).

        A select multiplies its branches, not its value: ``select(c, 1, 0) · s`` is
        ``select(c, s, 0)``.  So the operand min/max/fdim does not pick contributes
        exactly zero even when the seed is inf or NaN (0·NaN would poison the sum),
        as upstream Enzyme's rules put the adjoint inside their selects.  Constant
        partials 0 and ±1 need no multiplication.  ``singular`` (see Rule) makes a
        zero seed give zero where the partial is infinite.
        """
        if isinstance(e, Select):
            return self.b.select(self.emit(e.cond), self.times(e.a, seed, singular=singular),
                                 self.times(e.b, seed, singular=singular))
        if isinstance(e, Const) and e.value in (0.0, 1.0, -1.0):
            if e.value == 0.0:
                return self.emit(self._zero_term)
            return seed if e.value == 1.0 else self.b.fneg(seed)
        partial = self.emit(e)
        product = self.b.fmul(partial, seed)
        if not singular:
            return product
        # Zero where the seed is zero and the partial infinite (or NaN); only there: with a finite partial the
        # product is the zero already, and a select on `seed == 0` alone would hide the product from a
        # derivative of this code (a Hessian by forward over reverse lost p·t(seed) wherever the gradient's
        # seed was exactly zero).  With a zero seed the product is NaN exactly where the partial is not finite,
        # so this is `product is NaN ? (seed == 0 ? +0.0 : NaN) : product`, the inner select made once per
        # seed (``_nan_fill``).  Each guard's condition is then its own compare of a double: x86 makes that
        # a compare mask and two logic instructions, where an AND of `seed == 0` (one compare shared by
        # every guard of the seed) with an integer test of |partial| became a branch around each guard
        # (thousands of blocks in straight-line code, and LLVM's scheduler and register allocator
        # superlinear in them: a 5k-instruction gradient took 4x longer to compile).
        nan_fill = self._nan_fill(seed)
        is_nan = self.b.fcmp("uno", product, self.emit(_ZERO))
        return self.b.select(is_nan, nan_fill, product)

    def _nan_fill(self, seed: Value) -> Value:
        """``seed == 0 ? +0.0 : seed · NaN``: what a singular product that is NaN becomes (+0.0: a select of
        it is one AND).  ``seed · NaN`` is a NaN whose tangent, where a derivative of this code is taken, is
        NaN like the product's would be, not zero.  (x86_fp80 and fp128 have no NaN constant spelling here:
        their NaN is 0/0, which LLVM folds.)"""
        fill = self._zero_seeds.get(seed)
        if fill is None:
            zero = self.emit(_ZERO)
            try:
                nan = self.emit(_NAN)
            except ValueError:
                nan = self.b.fdiv(zero, zero)
            is_zero = self.b.fcmp("oeq", seed, zero)
            fill = self._zero_seeds[seed] = self.b.select(is_zero, zero, self.b.fmul(seed, nan))
        return fill

    def _int_to_float(self, v: Value) -> Value:
        """``sitofp`` to the rule's type; a scalar integer is splatted for vector rules (``llvm.powi.v2f64.i32``)."""
        t, b = self.type, self.b
        if not isinstance(t, VectorType) or isinstance(v.type, VectorType):
            return b.cast("sitofp", v, t)
        if t.scalable:
            raise DifferentiationError(f"cannot splat the integer operand {v} over the scalable vector type {t}")
        s = b.cast("sitofp", v, t.element)
        vec: Value = ConstantKeyword(t, "poison")
        for lane in range(t.count):
            vec = b.insertelement(vec, s, lane)
        return vec


"""Turn rule expressions into instructions at a builder's insertion point."""
from __future__ import annotations

from ..ir import FunctionType, Module, Type, Value
from ..ir.builder import Builder, const_fp
from ..ir.types import VectorType, scalar_of
from .dsl import Arg, Call, Cmp, Const, Expr, IntArg, Op, Result, Select

# libm functions that LLVM 22 also has as overloaded intrinsics; those are emitted
# as intrinsics (type-generic, vectorizable, known to the optimizer).
INTRINSIC_FUNCTIONS = frozenset({
    "sqrt", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "pow", "exp",
    "exp2", "exp10", "log", "log2", "log10", "fabs", "floor", "ceil", "trunc", "rint", "nearbyint", "round",
    "roundeven", "copysign", "minnum", "maxnum", "minimum", "maximum", "fma", "fmuladd"})
_SUFFIX = {"double": "f64", "float": "f32", "x86_fp80": "f80", "fp128": "f128", "half": "f16",
           "bfloat": "bf16", "ppc_fp128": "ppcf128"}
_LIBM_SUFFIX = {"double": "", "float": "f", "x86_fp80": "l", "fp128": "l"}


def intrinsic_suffix(t: Type) -> str:
    if isinstance(t, VectorType):
        return f"{'nx' if t.scalable else 'v'}{t.count}{_SUFFIX[str(t.element)]}"
    return _SUFFIX[str(t)]


def function_for(module: Module, fn: str, t: Type, nargs: int) -> Value:
    """The declaration implementing ``fn`` (a double-precision libm name) for type ``t``."""
    ft = FunctionType(t, (t,) * nargs)
    if fn in INTRINSIC_FUNCTIONS:
        name = f"llvm.{fn}.{intrinsic_suffix(t)}"
    else:
        if isinstance(t, VectorType) or str(t) not in _LIBM_SUFFIX:
            raise NotImplementedError(f"no {fn} for {t}")
        name = fn + _LIBM_SUFFIX[str(t)]
    return module.declare_function(name, ft)


class Emitter:
    """Evaluates rule expressions with a builder; shares repeated subexpressions."""

    def __init__(self, module: Module, builder: Builder, args: list[Value], result: Value | None, type: Type):
        self.module = module
        self.b = builder
        self.args = args
        self.result = result
        self.type = type
        self._memo: dict[int, Value] = {}

    def emit(self, e: Expr) -> Value:
        v = self._memo.get(id(e))
        if v is None:
            v = self._emit(e)
            self._memo[id(e)] = v
        return v

    def _emit(self, e: Expr) -> Value:
        b, t = self.b, self.type
        if isinstance(e, Arg):
            return self.args[e.index]
        if isinstance(e, IntArg):
            return b.cast("sitofp", self.args[e.index], t)
        if isinstance(e, Result):
            assert self.result is not None, "rule uses the primal result but none was given"
            return self.result
        if isinstance(e, Const):
            c = const_fp(scalar_of(t), e.value)
            if isinstance(t, VectorType):
                from ..ir import ConstantExpr
                return ConstantExpr(t, "splat", [c])
            return c
        if isinstance(e, Op):
            ops = [self.emit(a) for a in e.args]
            if e.opcode == "fneg":
                return b.fneg(ops[0])
            return b.binop(e.opcode, ops[0], ops[1])
        if isinstance(e, Call):
            ops = [self.emit(a) for a in e.args]
            fn = function_for(self.module, e.fn, t, len(ops))
            return b.call(fn, ops)
        if isinstance(e, Select):
            c = e.cond
            assert isinstance(c, Cmp)
            cond = b.fcmp(c.pred, self.emit(c.a), self.emit(c.b))
            return b.select(cond, self.emit(e.a), self.emit(e.b))
        raise TypeError(f"cannot emit {e!r}")




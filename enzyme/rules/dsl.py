"""A tiny expression language for derivative rules, and its emitter.

A rule gives, for each differentiable operand ``i`` of an operation
``r = op(x0, x1, ...)``, the partial derivative ``∂r/∂xi`` as an expression
over the operands (``X[i]``), the primal result (``R``) and constants::

    rule("sin", X[0].call("cos"))                   # d sin(x)/dx = cos(x)
    rule("pow", X[1] * R / X[0], R * X[0].call("log"))

Forward mode emits ``Σ ∂r/∂xi · dxi``; reverse mode emits ``dxi += ∂r/∂xi · dr``.
The generators contain no calculus: everything they know comes from these
tables.  Expressions are typed by the operation's floating-point type; calls
name the double-precision libm function (``cos``) and are mapped to the
``f``/``l`` variant or the LLVM intrinsic of the operand type when emitted.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence, Union

Number = Union[int, float]


class Expr:
    """An expression node; Python operators build bigger expressions."""

    def _wrap(self, o: "Expr | Number") -> "Expr":
        return o if isinstance(o, Expr) else Const(float(o))

    def __add__(self, o: "Expr | Number") -> "Expr":
        return Op("fadd", (self, self._wrap(o)))

    def __radd__(self, o: Number) -> "Expr":
        return Op("fadd", (self._wrap(o), self))

    def __sub__(self, o: "Expr | Number") -> "Expr":
        return Op("fsub", (self, self._wrap(o)))

    def __rsub__(self, o: Number) -> "Expr":
        return Op("fsub", (self._wrap(o), self))

    def __mul__(self, o: "Expr | Number") -> "Expr":
        return Op("fmul", (self, self._wrap(o)))

    def __rmul__(self, o: Number) -> "Expr":
        return Op("fmul", (self._wrap(o), self))

    def __truediv__(self, o: "Expr | Number") -> "Expr":
        return Op("fdiv", (self, self._wrap(o)))

    def __rtruediv__(self, o: Number) -> "Expr":
        return Op("fdiv", (self._wrap(o), self))

    def __neg__(self) -> "Expr":
        return Op("fneg", (self,))

    def call(self, fn: str, *more: "Expr | Number") -> "Expr":
        """``fn(self, *more)`` where ``fn`` is a double-precision libm name."""
        return Call(fn, (self, *(self._wrap(m) for m in more)))


@dataclass(frozen=True, eq=False)
class Arg(Expr):
    """Operand ``index`` of the operation, as a floating-point value."""

    index: int


@dataclass(frozen=True, eq=False)
class IntArg(Expr):
    """Integer operand ``index`` converted to the operation's float type (``powi``'s exponent)."""

    index: int


@dataclass(frozen=True, eq=False)
class Result(Expr):
    """The primal result of the operation."""


@dataclass(frozen=True, eq=False)
class Const(Expr):
    value: float


@dataclass(frozen=True, eq=False)
class Op(Expr):
    """An arithmetic instruction: fadd, fsub, fmul, fdiv, fneg."""

    opcode: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, eq=False)
class Call(Expr):
    fn: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, eq=False)
class Cmp(Expr):
    """An fcmp producing a condition for :class:`Select` (``pred`` as in LLVM: olt, oge, ...)."""

    pred: str
    a: Expr
    b: Expr


@dataclass(frozen=True, eq=False)
class Select(Expr):
    cond: Cmp
    a: Expr
    b: Expr


class _ArgIndexer:
    def __getitem__(self, i: int) -> Arg:
        return Arg(i)


X = _ArgIndexer()
R = Result()


def select(cond: Cmp, a: "Expr | Number", b: "Expr | Number") -> Expr:
    w = Const(0.0)._wrap
    return Select(cond, w(a), w(b))


def cmp(pred: str, a: "Expr | Number", b: "Expr | Number") -> Cmp:
    w = Const(0.0)._wrap
    return Cmp(pred, w(a), w(b))


ZERO = None  # a partial that is identically zero (or an operand that is not differentiable)


@dataclass(frozen=True)
class Rule:
    """Partials of one operation.

    ``partials[i]`` is ∂r/∂x_i, or None when operand ``i`` carries no
    derivative (integers, or an identically zero partial).  ``float_args``
    lists which operands are floating point (the others are integers or
    pointers that need no derivative).  ``needs_result`` is derived.
    """

    name: str
    partials: tuple[Expr | None, ...]

    @property
    def arity(self) -> int:
        return len(self.partials)

    @property
    def uses_result(self) -> bool:
        return any(_mentions_result(p) for p in self.partials if p is not None)

    @property
    def used_args(self) -> set[int]:
        out: set[int] = set()
        for p in self.partials:
            if p is not None:
                _collect_args(p, out)
        return out


def _mentions_result(e: Expr) -> bool:
    if isinstance(e, Result):
        return True
    return any(_mentions_result(c) for c in _children(e))


def _collect_args(e: Expr, out: set[int]) -> None:
    if isinstance(e, (Arg, IntArg)):
        out.add(e.index)
    for c in _children(e):
        _collect_args(c, out)


def _children(e: Expr) -> Sequence[Expr]:
    if isinstance(e, (Op, Call)):
        return e.args
    if isinstance(e, Cmp):
        return (e.a, e.b)
    if isinstance(e, Select):
        return (e.cond, e.a, e.b)
    return ()


RuleTable = dict[str, Rule]


def rule(table: RuleTable, name: str, *partials: Expr | Number | None) -> Rule:
    """Add the rule ``name`` with one partial per operand (numbers become constants)."""
    r = Rule(name, tuple(p if p is None or isinstance(p, Expr) else Const(float(p)) for p in partials))
    if name in table:
        raise ValueError(f"duplicate derivative rule for {name}")
    table[name] = r
    return r


EmitCall = Callable[[str, list[object]], object]

"""A tiny expression language for derivative rules, and its emitter.

A rule gives, for each differentiable operand ``i`` of an operation
``r = op(x0, x1, ...)``, the partial derivative ``∂r/∂xi`` as an expression
over the operands (``X[i]``), the primal result (``R``) and constants::

    rule(MATH, "sin", X[0].call("cos"))              # d sin(x)/dx = cos(x)
    rule(MATH, "hypot", X[0] / R, X[1] / R)          # one partial per operand
    rule(MATH, "floor", None)                        # differentiable, derivative zero

Forward mode emits ``Σ ∂r/∂xi · dxi``; reverse mode emits ``dxi += ∂r/∂xi · dr``.
The generators contain no calculus: everything they know comes from these
tables.  A partial that is a :func:`select` scales its branches, not the
selected value (``select(c, 1, 0) · dx`` is emitted as ``select(c, dx, 0)``),
so an operand that min/max does not pick gets exactly zero even when its
tangent is inf or NaN; ``singular=True`` rules (a partial that is infinite
where the function is finite, ``sqrt'(0)``) take ``0 · inf`` as 0.  Reverse
mode does the same for any partial that :func:`may_be_nonfinite` (a value
computed and then dropped has a zero adjoint: docs/nonsmooth.md).

Expressions are typed by the operation's floating-point type; calls
name the double-precision libm function (``cos``) and are mapped to the
``f``/``l`` variant or the LLVM intrinsic of the operand type when emitted.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

Number = int | float


class Expr:
    """An expression node; Python operators build bigger expressions."""

    def _wrap(self, o: Expr | Number) -> Expr:
        return o if isinstance(o, Expr) else Const(float(o))

    def __add__(self, o: Expr | Number) -> Expr:
        return Op("fadd", (self, self._wrap(o)))

    def __radd__(self, o: Number) -> Expr:
        return Op("fadd", (self._wrap(o), self))

    def __sub__(self, o: Expr | Number) -> Expr:
        return Op("fsub", (self, self._wrap(o)))

    def __rsub__(self, o: Number) -> Expr:
        return Op("fsub", (self._wrap(o), self))

    def __mul__(self, o: Expr | Number) -> Expr:
        return Op("fmul", (self, self._wrap(o)))

    def __rmul__(self, o: Number) -> Expr:
        return Op("fmul", (self._wrap(o), self))

    def __truediv__(self, o: Expr | Number) -> Expr:
        return Op("fdiv", (self, self._wrap(o)))

    def __rtruediv__(self, o: Number) -> Expr:
        return Op("fdiv", (self._wrap(o), self))

    def __neg__(self) -> Expr:
        return Op("fneg", (self,))

    def call(self, fn: str, *more: Expr | Number) -> Expr:
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
    """The primal result of the operation; ``field`` k of it for an operation returning a struct."""

    field: int | None = None


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


def select(cond: Cmp, a: Expr | Number, b: Expr | Number) -> Expr:
    w = Const(0.0)._wrap
    return Select(cond, w(a), w(b))


def cmp(pred: str, a: Expr | Number, b: Expr | Number) -> Cmp:
    w = Const(0.0)._wrap
    return Cmp(pred, w(a), w(b))


ZERO = None  # a partial that is identically zero (or an operand that is not differentiable)


@dataclass(frozen=True)
class Rule:
    """Partials of one operation.

    ``partials[i]`` is ∂r/∂x_i, or None when operand ``i`` carries no
    derivative (integers, pointers, or an identically zero partial).  A rule
    whose partials are all None still says something: the operation is
    differentiable with derivative zero (``floor``), unlike a function with
    no rule at all.  ``uses_result``, ``used_args`` and ``int_args`` are
    derived from the expressions, so they cannot disagree with them.
    """

    name: str
    partials: tuple[Expr | None, ...]
    # A partial may be infinite or NaN where the function itself is finite (sqrt at 0, asin at ±1, hypot
    # at the origin): a zero tangent or adjoint then contributes zero, not 0·inf = NaN.
    singular: bool = False

    @property
    def arity(self) -> int:
        return len(self.partials)

    @property
    def is_zero(self) -> bool:
        """Is the derivative identically zero (``floor``): a result no derivative flows through?"""
        return all(p is None for p in self.partials)

    @property
    def uses_result(self) -> bool:
        return any(_mentions_result(p) for p in self.partials if p is not None)

    @property
    def used_args(self) -> set[int]:
        """Operands the partials read (as floats via ``X[i]`` or as integers via ``IntArg(i)``)."""
        out: set[int] = set()
        for p in self.partials:
            if p is not None:
                _collect_args(p, out)
        return out

    def needs_for(self, operands: set[int]) -> tuple[set[int], bool]:
        """The operands, and whether the result, that the partials with respect to ``operands`` read."""
        out: set[int] = set()
        result = False
        for i, p in enumerate(self.partials):
            if p is not None and i in operands:
                _collect_args(p, out)
                result = result or _mentions_result(p)
        return out, result

    @property
    def int_args(self) -> set[int]:
        """Operands read through ``IntArg``: integers (``powi``'s exponent), never differentiated."""
        return {e.index for e in self.nodes() if isinstance(e, IntArg)}

    @property
    def calls(self) -> set[str]:
        """The double-precision libm names the partials call."""
        return {e.fn for e in self.nodes() if isinstance(e, Call)}

    def nodes(self) -> list[Expr]:
        """Every expression node of every partial (shared nodes once)."""
        seen: dict[int, Expr] = {}
        stack = [p for p in self.partials if p is not None]
        while stack:
            e = stack.pop()
            if id(e) not in seen:
                seen[id(e)] = e
                stack.extend(_children(e))
        return list(seen.values())


def may_be_nonfinite(e: Expr, arg: Callable[[int], bool], result: bool) -> bool:
    """Whether partial ``e`` may be infinite or NaN, given which operands (``arg(i)``) and whether the
    result may be.  Divisions and calls make such values out of finite ones (``1/0``, ``log(0)``);
    ``fadd``/``fsub``/``fmul``/``fneg`` and selects only pass them on."""
    if isinstance(e, Arg):
        return arg(e.index)
    if isinstance(e, Result):
        return result
    if isinstance(e, Const):
        return not math.isfinite(e.value)
    if isinstance(e, Call) or isinstance(e, Op) and e.opcode in ("fdiv", "frem"):
        return True
    if isinstance(e, Select):
        return may_be_nonfinite(e.a, arg, result) or may_be_nonfinite(e.b, arg, result)
    return any(may_be_nonfinite(c, arg, result) for c in _children(e))  # Op; IntArg and Cmp have none


@dataclass(frozen=True)
class MultiRule:
    """Partials of an operation returning a struct of results (``llvm.sincos(x) -> {sin, cos}``).

    ``fields[k]`` is the rule of result field k (its partials per operand), or None for a field no
    derivative flows through (an integer exponent, an integral part).
    """

    name: str
    fields: tuple[Rule | None, ...]

    @property
    def uses_result(self) -> bool:
        return any(f.uses_result for f in self.fields if f is not None)

    @property
    def used_args(self) -> set[int]:
        return set().union(*(f.used_args for f in self.fields if f is not None))


MultiRuleTable = dict[str, MultiRule]


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


def multi_rule(table: MultiRuleTable, name: str, *fields: tuple[Expr | Number | None, ...] | None,
               singular: bool = False) -> MultiRule:
    """Add the rule of an operation returning a struct: per result field, one partial per operand (None for a
    field without derivative, such as an integer exponent).  ``Result(k)`` in a partial is field k."""
    r = MultiRule(name, tuple(None if f is None else Rule(f"{name}.{k}", tuple(_partial(p) for p in f), singular)
                              for k, f in enumerate(fields)))
    if name in table:
        raise ValueError(f"duplicate derivative rule for {name}")
    table[name] = r
    return r


def _partial(p: Expr | Number | None) -> Expr | None:
    return p if p is None or isinstance(p, Expr) else Const(float(p))


def rule(table: RuleTable, name: str, *partials: Expr | Number | None, singular: bool = False) -> Rule:
    """Add the rule ``name`` with one partial per operand (numbers become constants)."""
    r = Rule(name, tuple(p if p is None or isinstance(p, Expr) else Const(float(p)) for p in partials), singular)
    if name in table:
        raise ValueError(f"duplicate derivative rule for {name}")
    table[name] = r
    return r


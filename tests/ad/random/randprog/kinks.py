r"""Functions evaluated exactly at their kinks, and why the checks made there are valid.

The kink points are ``x = (+0, -0, 0.625, 0.625)`` and ``(-0, +0, -0.4, -0.4)``: ``x[0]`` and ``x[1]`` are
zeros of opposite sign that compare equal, ``x[2] == x[3]``.  There central differences say nothing, so two
other checks are made.

**All modes agree (valid for every function).**  Reverse, forward, batch forward and batch reverse run the
same primal operations on the same inputs, so they meet the same ties and must apply the same derivative
convention at each (``d|x|/dx`` follows the sign bit; ``fmax`` picks one operand; a branch differentiates
the side it took).  The chain rule then multiplies the same local derivatives, so the results agree up to
summation order: 1e-12 for the single-kink functions below, 1e-9 (as away from kinks) for the general kinds
evaluated here, whose long loops sum in different orders.  A mode that picks the other side of a tie is off
by O(1).  Non-finite values are not compared (see harness.py).

**The derivative is a one-sided derivative (valid only for the functions built here).**  Along ``e_k`` the
forward derivative must equal the left or the right difference quotient of ``f``.  This is false for
compositions in general: ``relu(x) - relu(-x)`` is ``x``, yet with ``relu'(0) = 0`` AD gives 0 at 0; two
``fmax`` ties resolved on opposite sides give a derivative that is neither side's.  It holds when

1. exactly one *switch* ``S`` (the quantity whose sign picks the piece) vanishes at the point, though it may
   feed several primitives (``fmax(S, 0) + fmax(S, 0)``); everything else is smooth (only
   :data:`grammar.SMOOTH_UNARY`/``SMOOTH_BINARY`` outside the kink); and either
2a. the kink is *continuous* with pieces that differ by a multiple of the switch, ``F1 - F2 = S q`` with
   ``q`` smooth: ``|S|``, ``fmax(a, b)`` and max-by-branch (``S = a - b``), ``copysign(S, c)``, ``-|S|``
   and ``|S|`` through the sign bit.  Then the AD value is ``F2'`` (the piece taken), and along ``e_k``:
   if ``S`` changes to first order, one side lies in ``F2``'s region and its one-sided derivative is
   ``F2'``; if not, ``(F1 - F2)' = q S' = 0`` and both sides equal ``F2'``.  (A degenerate switch with
   pieces not of this form breaks it: ``S = x^2``, ``F1 = x``, ``F2 = -x``.)  Or
2b. the kink is *discontinuous* (``copysign(c, S)``, a branch between unrelated formulas, ``floor``, the
   sign bit of ``S`` spliced into ``c``) and ``S`` is linear in ``x`` (``x[i] - x[j]``, ``x[z]``): along
   ``e_k`` either ``S`` is constant (no switch, ``f`` smooth along the line) or it changes sign at the
   point, and the side the primal took (``S >= 0`` or ``S <= 0``) is continuous with the AD value.  The
   other side jumps (an O(1/h) quotient), so "left or right" still only accepts the right answer.
3. For a maximum over array entries ``s(x[i % 4])`` ties are between pieces that each depend on one
   variable: along ``e_k`` the tied pieces' derivatives take at most two values, ``s'(x[k])`` and 0, which
   are exactly the right and left derivatives (in some order).

The second-order one-sided quotients ``(-3 f(x) + 4 f(x + h) - f(x + 2h)) / 2h`` resolve the smooth side
to O(h^2); a wrong side is off by O(1), far outside the 1e-6 tolerance.
"""
from __future__ import annotations

from .grammar import Gen, X

PAIRS = ((0, 1), (1, 0), (2, 3), (3, 2))  # x[i] == x[j] at both points
ZEROS = (0, 1)  # x[z] is a (signed) zero at both points


def smooth_of(g: Gen, var: str) -> str:
    """A smooth function of one variable (the same random formula is applied to each tied variable)."""
    return g.uses(2, ["VAR"], "VAR", smooth=True).replace("VAR", var)


def tied_pair(g: Gen) -> tuple[str, str]:
    """Two smooth expressions with equal values at the kink points (their switch is their difference)."""
    i, j = g.choice(PAIRS)
    formula = g.uses(2, ["VAR"], "VAR", smooth=True)
    a, b = formula.replace("VAR", f"x[{i}]"), formula.replace("VAR", f"x[{j}]")
    if g.rng.random() < 0.4:  # a common smooth term keeps the tie exact: (s_i + E) - (s_j + E) == 0
        common = g.expr(2, X, smooth=True)
        a, b = f"({a} + {common})", f"({b} + {common})"
    return a, b


def zero_switch(g: Gen) -> str:
    """A smooth expression that is a signed zero at the kink points."""
    z = g.choice(ZEROS)
    return g.choice((f"x[{z}]", f"sin(x[{z}])", f"x[{z}] * (1.0 + x[2] * x[2])", f"tanh(2.0 * x[{z}])"))


def linear_switch(g: Gen) -> str:
    """A switch that is linear in x and zero at the kink points (for discontinuous kinks)."""
    i, j = g.choice(PAIRS)
    return g.choice((f"(x[{i}] - x[{j}])", f"x[{g.choice(ZEROS)}]", f"(2.0 * x[{j}] - 2.0 * x[{i}])"))


def nonzero(g: Gen) -> str:
    """A smooth expression bounded away from zero (a magnitude or sign source)."""
    sign = g.choice(("", "-"))
    return f"{sign}(1.25 + {g.expr(1, X, smooth=True)} * {g.expr(1, X, smooth=True)})"


def continuous_kink(g: Gen) -> str:
    """Statements computing ``double k`` through one continuous kink (form 2a)."""
    a, b = tied_pair(g) if g.rng.random() < 0.7 else (zero_switch(g), "0.0")
    s = f"(({a}) - ({b}))"
    return g.choice((
        f"double k = fabs{s};",
        f"double k = fmax({a}, {b});",
        f"double k = fmin({a}, {b});",
        f"double k = {a}; if ({b} > k) k = {b};",
        f"double k = ({a}) < ({b}) ? ({a}) : ({b});",
        f"double k = fmax({s}, 0.0);",
        f"double k = copysign({s}, {nonzero(g)});",
        f"double k = double_of(bits_of{s} & ~SIGN);",
        f"double k = double_of(bits_of{s} | SIGN);",
        f"double k = double_of((bits_of{s} & ~SIGN) | (bits_of({nonzero(g)}) & SIGN));",
        f"union {{ double d; uint64_t u; }} kv; kv.d = {s}; kv.u &= ~SIGN; double k = kv.d;",
    ))


def discontinuous_kink(g: Gen) -> str:
    """Statements computing ``double k`` through one discontinuous kink of a linear switch (form 2b)."""
    s = linear_switch(g)
    e1, e2 = g.expr(2, X, smooth=True), g.expr(2, X, smooth=True)
    return g.choice((
        f"double k = copysign({nonzero(g)}, {s});",
        f"double k = double_of((bits_of({nonzero(g)}) & ~SIGN) | (bits_of({s}) & SIGN));",
        f"double k; if ({s} > 0.0) k = {e1}; else k = {e2};",
        f"double k; if ({s} >= 0.0) k = {e1}; else k = {e2};",
        f"double k = signbit({s}) ? {e1} : {e2};",
        f"double k = floor({s}) + {e1};",
    ))


def kink(g: Gen, i: int) -> str:
    """One kink, then a smooth use of its value together with x."""
    if g.rng.random() < 0.2:
        return array_max(g)
    if g.rng.random() < 0.15:
        return relu_sum(g)
    stmt = continuous_kink(g) if g.rng.random() < 0.65 else discontinuous_kink(g)
    return f"{stmt}\n  return {g.uses(2, ['k', *X], 'k', smooth=True)};"


def array_max(g: Gen) -> str:
    """The largest of s(x[i % 4]) (form 3): by fmax, by a comparison, or its index (argmax)."""
    fill = f"for (int i = 0; i < 6; i++) w[i] = {smooth_of(g, 'x[i % 4]')};"
    scan = g.choice(("double m = w[0]; for (int i = 1; i < 6; i++) m = fmax(m, w[i]);",
                     "double m = w[0]; for (int i = 1; i < 6; i++) if (w[i] > m) m = w[i];",
                     "int at = 0; for (int i = 1; i < 6; i++) if (w[i] >= w[at]) at = i; double m = w[at];"))
    return f"double w[6];\n  {fill}\n  {scan}\n  return {g.uses(2, ['m', *X], 'm', smooth=True)};"


def relu_sum(g: Gen) -> str:
    """A sum of max(x[i] - x[i + 1], 0) with positive weights: along e_k all tied terms share one switch."""
    return ("double s = 0;\n  for (int i = 0; i < n; i++) "
            f"s += (1.0 + 0.25 * i) * fmax(x[i % 4] - x[(i + 1) % 4], 0.0);\n"
            f"  return {g.uses(2, ['s', *X], 's', smooth=True)};")


KINDS = {"kink": kink}

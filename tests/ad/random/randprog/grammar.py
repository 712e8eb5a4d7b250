"""Random expressions and the state shared by the function generators.

Two expression grammars: the general one mixes smooth libm calls with non-smooth ones (fabs, fmax, fmin,
hypot); the smooth one (for evaluation at kinks, where exactly one kink per function is wanted) uses only
functions that are infinitely differentiable everywhere.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

SMOOTH_UNARY = ("sin({0})", "cos({0})", "exp(0.3 * ({0}))", "sqrt(({0}) * ({0}) + 1.0)", "tanh({0})",
                "log(({0}) * ({0}) + 2.0)", "atan({0})")
SMOOTH_BINARY = ("({0} + {1})", "({0} - {1})", "({0} * {1})", "({0} / (1.5 + ({1}) * ({1})))",
                 "pow(({0}) * ({0}) + 1.0, 0.5 * tanh({1}))", "atan2({0}, 1.0 + ({1}) * ({1}))")
UNARY = (*SMOOTH_UNARY, "fabs({0})", "cbrt({0})")
BINARY = (*SMOOTH_BINARY, "fmax({0}, {1})", "fmin({0}, {1})", "pow(fabs({0}) + 1.0, 0.5 * tanh({1}))",
          "hypot({0}, {1})", "atan2({0}, 1.0 + fabs({1}))")
X = ("x[0]", "x[1]", "x[2]", "x[3]")


def reads(expression: str, name: str) -> bool:
    """Does ``expression`` read the variable ``name`` (not merely contain its letters, as ``tanh`` holds ``a``)?"""
    return re.search(rf"(?<![\w.]){re.escape(name)}(?![\w\[])", expression) is not None


@dataclass
class Gen:
    """The random stream and what the functions of one program share: helper definitions, in order."""

    rng: random.Random
    helpers: list[str] = field(default_factory=list)

    def const(self, low: float = -2.0, high: float = 2.0) -> str:
        return f"{self.rng.uniform(low, high):.3f}"

    def expr(self, depth: int, names: list[str] | tuple[str, ...], smooth: bool = False) -> str:
        """A random expression over ``names``; only smooth functions when ``smooth``."""
        unary, binary = (SMOOTH_UNARY, SMOOTH_BINARY) if smooth else (UNARY, BINARY)
        if depth == 0 or self.rng.random() < 0.2:
            return self.rng.choice([*names, self.const()])
        if self.rng.random() < 0.35:
            return self.rng.choice(unary).format(self.expr(depth - 1, names, smooth))
        return self.rng.choice(binary).format(self.expr(depth - 1, names, smooth), self.expr(depth - 1, names, smooth))

    def uses(self, depth: int, names: list[str] | tuple[str, ...], must: str, smooth: bool = False) -> str:
        """A random expression over ``names`` that certainly reads ``must`` (so its value is not dropped)."""
        e = self.expr(depth, names, smooth)
        return e if reads(e, must) else f"({e} + {self.rng.uniform(0.3, 1.5):.3f} * {must})"

    def choice(self, options):  # type: ignore[no-untyped-def]
        return self.rng.choice(options)

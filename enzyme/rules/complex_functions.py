"""Derivatives of the C99 complex functions (``cexp``, ``clog``, ``cpow``, ``carg``, ...) as data.

``std::complex<double>``'s ``std::exp``/``std::log``/``std::pow``/``std::abs``... call these too
(libstdc++'s ``__complex_exp`` is ``__builtin_cexp``), so one table serves C and C++.

A complex-valued function ``w = f(z)`` here is holomorphic: its derivative is one complex
number ``f'(z)`` per complex operand, and the engine applies it as a complex product (forward:
``dw = f'(z)·dz``; reverse, on (re, im) pairs: ``dz += conj(f'(z))·dw``, the real transpose
of that product).  A real-valued one (``carg``, ``cabs``) has one real partial per real part.

Expressions are the real rule language of dsl.py over fixed operand slots:
``Z = (X[0], X[1])`` the first complex operand, ``W = (X[2], X[3])`` the second (``cpow``'s
exponent) and ``F = (X[4], X[5])`` the complex result; ``R`` is a real result.  The engine
fills the slots whatever the ABI (two doubles, ``<2 x float>``, a ``byval`` pointer), so
the rules never see it.  Calls in the partials are real libm functions (``cosh``, ``hypot``),
mapped to the f/l variant of the parts' type.

Conventions at singular points (as math.py's): ``clog``/``csqrt`` at 0 give what the formula
gives (infinite), ``cpow`` at ``z == 0`` takes the limits where they are finite: ∂/∂w is 0
(``0^w`` is 0 for a whole range of w), ∂/∂z is 1 for ``w == 1``, 0 for ``Re w > 1`` or
``w == 0``; rules marked ``singular`` multiply a zero seed into zero.
"""
from __future__ import annotations

from dataclasses import dataclass

from .dsl import Cmp, Const, Expr, Number, R, X, cmp, select
from .names import libm_base


@dataclass(frozen=True)
class Cx:
    """A complex expression: a pair of real expressions (building the rules, never emitted as such)."""

    re: Expr
    im: Expr

    def __add__(self, o: Cx | Number) -> Cx:
        o = _cx(o)
        return Cx(self.re + o.re, self.im + o.im)

    __radd__ = __add__

    def __rsub__(self, o: Number) -> Cx:
        return _cx(o) - self

    def __sub__(self, o: Cx | Number) -> Cx:
        o = _cx(o)
        return Cx(self.re - o.re, self.im - o.im)

    def __mul__(self, o: Cx | Number) -> Cx:
        if not isinstance(o, Cx):
            return Cx(self.re * o, self.im * o)
        return Cx(self.re * o.re - self.im * o.im, self.re * o.im + self.im * o.re)

    __rmul__ = __mul__

    def __truediv__(self, o: Cx) -> Cx:
        n = o.re * o.re + o.im * o.im
        return Cx((self.re * o.re + self.im * o.im) / n, (self.im * o.re - self.re * o.im) / n)

    def __rtruediv__(self, o: Number) -> Cx:
        return _cx(o) / self

    def __neg__(self) -> Cx:
        return Cx(-self.re, -self.im)


def _cx(v: Cx | Number) -> Cx:
    return v if isinstance(v, Cx) else Cx(Const(float(v)), Const(0.0))


Z = Cx(X[0], X[1])
W = Cx(X[2], X[3])
F = Cx(X[4], X[5])
#: The slots of the result's parts, after two complex operands' four.
RESULT_SLOTS = (4, 5)


@dataclass(frozen=True)
class ComplexRule:
    """The derivative of one complex function.

    ``operands`` complex operands; ``derivatives[k]`` is ∂f/∂(operand k) as a complex pair for a
    complex result (None: identically zero), ``partials`` the real partials ∂r/∂re, ∂r/∂im per
    operand for a real result.  Exactly one of the two is set.
    """

    name: str
    operands: int
    derivatives: tuple[Cx | None, ...] = ()
    partials: tuple[Expr, ...] = ()
    singular: bool = False

    @property
    def complex_result(self) -> bool:
        return bool(self.derivatives)


COMPLEX: dict[str, ComplexRule] = {}


def _holomorphic(name: str, *derivatives: Cx | None, singular: bool = False) -> None:
    COMPLEX[name] = ComplexRule(name, len(derivatives), derivatives=derivatives, singular=singular)


def _real(name: str, *partials: Expr, singular: bool = False) -> None:
    COMPLEX[name] = ComplexRule(name, len(partials) // 2, partials=partials, singular=singular)


x, y = Z.re, Z.im
# sin/cos/sinh/cosh of z = x + iy through real functions of x and y (no complex call in a derivative).
_sin_z = Cx(x.call("sin") * y.call("cosh"), x.call("cos") * y.call("sinh"))
_cos_z = Cx(x.call("cos") * y.call("cosh"), -(x.call("sin") * y.call("sinh")))
_sinh_z = Cx(x.call("sinh") * y.call("cos"), x.call("cosh") * y.call("sin"))
_cosh_z = Cx(x.call("cosh") * y.call("cos"), x.call("sinh") * y.call("sin"))

_holomorphic("cexp", F)
_holomorphic("clog", 1.0 / Z, singular=True)
_holomorphic("csqrt", 0.5 / F, singular=True)
_holomorphic("csin", _cos_z)
_holomorphic("ccos", -_sin_z)
_holomorphic("csinh", _cosh_z)
_holomorphic("ccosh", _sinh_z)
# 1 - tanh² and 1 + tan² from the result: finite everywhere (1/cosh² of the parts overflows to
# inf·0 for |Re z| > 710); exact to an ulp of 1, so only relatively inexact where the slope is tiny.
_holomorphic("ctanh", 1.0 - F * F)
_holomorphic("ctan", 1.0 + F * F)

# cpow(z, w) = exp(w·log z): ∂/∂z = w·z^w/z, ∂/∂w = z^w·log z, with the limits at z == 0 (module docstring).
_z_is_0 = (cmp("oeq", x, 0.0), cmp("oeq", y, 0.0))
_w_is_0 = (cmp("oeq", W.re, 0.0), cmp("oeq", W.im, 0.0))


def _where(both: tuple[Cmp, Cmp], then: Expr | Number, other: Expr) -> Expr:
    """``then`` where both comparisons hold, else ``other`` (nested selects: the DSL has no `and`)."""
    a, b = both
    return select(a, select(b, then, other), other)


_log_z = Cx(x.call("hypot", y).call("log"), y.call("atan2", x))
_dw = F * _log_z
_dz = W * F / Z
# At z == 0: 1 where w == 1, 0 where Re w > 1, else the formula (NaN): the limit does not exist.
_w_is_1 = (cmp("oeq", W.re, 1.0), cmp("oeq", W.im, 0.0))
_dz_at_0_re = _where(_w_is_1, 1.0, select(cmp("ogt", W.re, 1.0), 0.0, _dz.re))
_dz_at_0_im = select(cmp("ogt", W.re, 1.0), 0.0, _dz.im)
_holomorphic(
    "cpow",
    Cx(_where(_w_is_0, 0.0, _where(_z_is_0, _dz_at_0_re, _dz.re)),
       _where(_w_is_0, 0.0, _where(_z_is_0, _dz_at_0_im, _dz.im))),
    Cx(_where(_z_is_0, 0.0, _dw.re), _where(_z_is_0, 0.0, _dw.im)),
    singular=True)

_r2 = x * x + y * y
_real("carg", -y / _r2, x / _r2, singular=True)  # atan2(im, re)
_real("cabs", x / R, y / R, singular=True)        # hypot(re, im)

#: The complex functions deliberately without a rule, with the reason (the engine's error names it).
NO_COMPLEX_RULE: dict[str, str] = {
    **{n: ("not holomorphic (its derivative is not a complex number, conj(z) mirrors dz); clang inlines it "
           "unless -fno-builtin; write it out with creal/cimag") for n in ("conj", "cproj")},
    **{n: "inverse trigonometric/hyperbolic complex functions have no rule yet; register a custom derivative"
       for n in ("casin", "cacos", "catan", "casinh", "cacosh", "catanh")},
}


def complex_rule(name: str) -> ComplexRule | None:
    """The rule of ``name`` (``cexp``, ``cexpf``, ``cexpl``), if any."""
    base = libm_base(name, frozenset(COMPLEX))
    return COMPLEX.get(base) if base is not None else None


def no_complex_rule_reason(name: str) -> str | None:
    base = libm_base(name, frozenset(NO_COMPLEX_RULE))
    return NO_COMPLEX_RULE.get(base) if base is not None else None

"""Every partial of MATH and INSTRUCTIONS against finite differences of an independent primal.

The primal is libm's (through ctypes) or plain Python, never our emitted
code; partials are the emitted IR, JIT-compiled (see rule_harness.py).  Float
partials are compared with the double-precision difference at the same
(float-representable) point.
"""
from __future__ import annotations

import math

import pytest
from rule_harness import CASES, INTEGER_RESULT, VECTOR_TAG, as_float32, finite_difference

TOLERANCE = {"f64": (1e-6, 1e-10), "f32": (2e-5, 1e-6), VECTOR_TAG: (1e-6, 1e-10)}  # (relative, absolute)

PARAMS = [pytest.param(c, tag, id=f"{c.table}-{c.name}-{tag}") for c in CASES for tag in c.tags]


def _close(got: float, want: float, tag: str) -> bool:
    rel, abs_ = TOLERANCE[tag]
    return abs(got - want) <= rel * abs(want) + abs_


@pytest.mark.parametrize(("case", "tag"), PARAMS)
def test_partials_match_finite_differences(compiled, case, tag):
    assert case.points, f"add test points for {case.name} to tests/rules/rule_harness.py"
    if case.name in INTEGER_RESULT:
        assert all(p is None for p in case.rule.partials)
        return
    primal = case.primal
    if tag == VECTOR_TAG:
        lanes = case.points[0], case.points[1 if len(case.points) > 1 else 0]
        groups = [lanes]
    else:
        groups = [(as_float32(p, case.kinds) if tag == "f32" else p,) for p in case.points]
    for group in groups:
        for k, kind in enumerate(case.kinds):
            if kind != "f":
                continue  # integer operands and nexttoward's long double carry no derivative
            partial = case.rule.partials[k]
            want = [finite_difference(primal, p, k) for p in group]
            if partial is None:
                for p, w in zip(group, want):
                    scale = 1.0 + abs(primal(*p))
                    assert abs(w) <= 1e-9 * scale, f"{case.name}: partial {k} is None but d/dx{k} = {w} at {p}"
                continue
            got = compiled.partial(case.name, k, tag, group[0], group[1] if len(group) > 1 else None)
            for g, w, p in zip(got, want, group):
                assert _close(g, w, tag), f"{case.name} ∂/∂x{k} at {p} ({tag}): emitted {g}, finite difference {w}"


NAN, INF = math.nan, math.inf
_MIN_NAN_IGNORING = ("fmin", "minnum", "minimumnum", "fminimum_num")
_MAX_NAN_IGNORING = ("fmax", "maxnum", "maximumnum", "fmaximum_num")

# Conventions and special points, exact (double): (rule, operand, point, expected).
EXACT = [
    # Sign kinks follow the sign bit (docs/nonsmooth.md).
    ("fabs", 0, (0.0,), 1.0), ("fabs", 0, (-0.0,), -1.0), ("fabs", 0, (-2.0,), -1.0), ("fabs", 0, (INF,), 1.0),
    ("fabs", 0, (-INF,), -1.0),
    ("copysign", 0, (0.0, -1.0), -1.0), ("copysign", 0, (-0.0, 1.0), -1.0), ("copysign", 0, (-2.0, -1.0), 1.0),
    ("copysign", 0, (0.0, -0.0), -1.0), ("copysign", 0, (-0.0, -0.0), 1.0),
    ("pow", 1, (0.0, 2.5), 0.0), ("pow", 0, (0.0, 0.0), 0.0), ("pow", 0, (0.0, 2.0), 0.0),
    ("pow", 0, (0.0, 0.5), INF), ("pow", 0, (-2.0, 3.0), 12.0),
    ("powi", 0, (0.0, 0), 0.0), ("powi", 0, (-2.0, 3), 12.0), ("powi", 0, (2.0, -1), -0.25),
    ("j1", 0, (0.0,), 0.5), ("sqrt", 0, (0.0,), INF), ("fdim", 0, (1.0, 1.0), 0.0), ("fdim", 1, (1.0, 1.0), 0.0),
    ("ldexp", 0, (3.0, 1000), 2.0 ** 1000), ("scalbln", 0, (3.0, -3), 0.125),
    ("nextafter", 0, (1.0, 0.0), 1.0), ("fmod", 1, (5.3, 1.2), -4.0), ("remainder", 1, (5.3, 1.2), -4.0),
    ("remainder", 1, (5.0, 2.0), -2.0),  # 2.5 rounds to even
    ("fdiv", 1, (1e300, 1e200), -1e-100),  # -x/y² would overflow to -0
]
for _n in _MIN_NAN_IGNORING + _MAX_NAN_IGNORING:
    EXACT += [(_n, 0, (NAN, 2.0), 0.0), (_n, 1, (NAN, 2.0), 1.0),           # the non-NaN operand is returned
              (_n, 0, (2.0, NAN), 1.0), (_n, 1, (2.0, NAN), 0.0)]
for _n in _MIN_NAN_IGNORING + ("minimum", "fminimum"):                      # min ties: the second operand
    EXACT += [(_n, 0, (1.0, 1.0), 0.0), (_n, 1, (1.0, 1.0), 1.0), (_n, 0, (-0.0, 0.0), 0.0)]
for _n in _MAX_NAN_IGNORING + ("maximum", "fmaximum"):                      # max ties: the first operand
    EXACT += [(_n, 0, (1.0, 1.0), 1.0), (_n, 1, (1.0, 1.0), 0.0), (_n, 0, (-0.0, 0.0), 1.0)]
EXACT += [("fmin", 0, (0.5, 1.0), 1.0), ("fmax", 0, (0.5, 1.0), 0.0)]


@pytest.mark.parametrize(("name", "k", "point", "expected"), EXACT,
                         ids=[f"{n}-{k}-{p}" for n, k, p, _ in EXACT])
def test_conventions_and_special_points(compiled, name, k, point, expected):
    (got,) = compiled.partial(name, k, "f64", point)
    assert got == expected or (math.isnan(got) and math.isnan(expected)), f"{name} ∂/∂x{k} at {point}: {got}"


EULER_GAMMA = 0.57721566490153286061


@pytest.mark.parametrize(("name", "x", "exact"), [
    ("tanh", 30.0, 4.0 * math.exp(-60.0)),   # 1 - tanh² would give 0
    ("expm1", -40.0, math.exp(-40.0)),        # expm1 + 1 would give 0
    ("asinh", 1e200, 1e-200),                 # 1/sqrt(x²+1) would overflow to 0
    ("acosh", 1e200, 1e-200),
    ("asin", 1.0 - 2.0 ** -40, 1.0 / math.sqrt((2.0 ** -40) * (2.0 - 2.0 ** -40))),
    # digamma (lgamma's partial) at known values: ψ(1) = -γ, ψ(1/2) = -γ - 2 log 2, ψ(10) = H₉ - γ,
    # ψ(-1/2) = ψ(3/2) (reflection), and far out (series only).
    ("lgamma", 1.0, -EULER_GAMMA), ("lgamma", 0.5, -EULER_GAMMA - 2.0 * math.log(2.0)),
    ("lgamma", 10.0, sum(1.0 / k for k in range(1, 10)) - EULER_GAMMA),
    ("lgamma", -0.5, 2.0 - EULER_GAMMA - 2.0 * math.log(2.0)),
    ("lgamma", 1e-8, -1e8 - EULER_GAMMA + 1.6449340668482264e-8),
    ("lgamma", 1e6, math.log(1e6) - 0.5e-6 - 1.0 / 12e12),
    ("tgamma", 5.0, 24.0 * (1 + 1 / 2 + 1 / 3 + 1 / 4 - EULER_GAMMA)),
    ("frexp", 3.0, 0.25), ("frexp", -1e-300, 2.0 ** 996), ("frexp", 0.0, 1.0),
])
def test_accurate_far_from_the_test_points(compiled, name, x, exact):
    point = (x, 0) if compiled.cases[name].kinds == "fp" else (x,)
    (got,) = compiled.partial(name, 0, "f64", point)
    assert got == pytest.approx(exact, rel=1e-12)


def test_digamma_poles_are_nan(compiled):
    for x in (0.0, -1.0, -7.0):
        (got,) = compiled.partial("lgamma", 0, "f64", (x,))
        assert math.isnan(got), f"digamma({x}) = {got}"

"""enzyme.custom_rule: derivatives of called functions given in C, IR text or Python; checked at registration.

Each test shows the rule is used: the derivative follows the rule (a
deliberately wrong rule gives its wrong number) and a correct rule matches
the analytic derivative.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

import enzyme
from enzyme import Active, Const, Duplicated, DuplicatedNoNeed, Forward, Reverse
from enzyme.errors import UsageError

SOURCES = Path(__file__).parent / "sources"

FWD_IR = """
define double @scale_fwd_ir(double %x, double %dx) {
  %t = fmul double %dx, 3.0
  ret double %t
}
"""


@pytest.fixture
def lib():
    return enzyme.compile([SOURCES / "external.c"])  # a fresh Library per test: rules accumulate


def _fwd(lib, x=2.0):
    return enzyme.autodiff(Forward, lib.uses_scale, DuplicatedNoNeed, Duplicated(x, 1.0))[0]


def test_forward_rule_python(lib):
    calls = []

    def scale_fwd(x, dx):
        calls.append((x, dx))
        return 3.0 * dx

    enzyme.custom_rule(lib, "ext_scale", forward=scale_fwd)
    assert _fwd(lib, 2.0) == 12.0  # d/dx 3x^2 = 6x
    assert calls == [(2.0, 1.0)]


def test_wrong_forward_rule_gives_its_number(lib):
    enzyme.custom_rule(lib, "ext_scale", forward=lambda x, dx: 5.0 * dx)
    assert _fwd(lib, 2.0) == 5.0 * 2.0 + 6.0  # rule' * x + ext_scale(x): the rule, not the body, was used


def test_forward_rule_ir_text(lib):
    enzyme.custom_rule(lib, "ext_scale", forward=FWD_IR)
    assert _fwd(lib, 1.5) == 9.0


def test_forward_rule_c_source(lib):
    enzyme.custom_rule(lib, "ext_scale", forward="ext_scale_fwd", sources=[SOURCES / "external_rules.c"])
    assert _fwd(lib, 1.5) == 9.0


def test_rule_exception_is_reraised(lib):
    def broken(x, dx):
        raise RuntimeError("rule failed on purpose")

    enzyme.custom_rule(lib, "ext_scale", forward=broken)
    with pytest.raises(RuntimeError, match="on purpose"):
        _fwd(lib)


def test_reverse_rule_python(lib):
    tapes = []

    def scale_aug(x):
        return 3.0 * x, ("tape", x)

    def scale_rev(x, dret, tape):
        tapes.append(tape)
        return 3.0 * dret

    enzyme.custom_rule(lib, "ext_scale", augmented_primal=scale_aug, reverse=scale_rev)
    (d,), = enzyme.autodiff(Reverse, lib.uses_scale, Active, Active(2.0))
    assert d == 12.0
    assert tapes == [("tape", 2.0)]


def test_reverse_rule_with_pointers(lib):
    def aug(x, dx, y, dy, n):
        return None  # void function: just the tape

    def rev(x, dx, y, dy, n, tape):
        xs, dxs, dys = (enzyme.as_array(a, n) for a in (x, dx, dy))
        dxs += 2.0 * xs * dys
        dys[:] = 0.0

    enzyme.custom_rule(lib, "ext_square_into", augmented_primal=aug, reverse=rev)
    x = np.array([1.0, -2.0, 0.5])
    dx = np.zeros(3)
    enzyme.autodiff(Reverse, lib.uses_square, Active, Duplicated(x, dx), Const(3))
    np.testing.assert_array_equal(dx, 2 * x)


def test_inactive(lib):
    enzyme.custom_rule(lib, "ext_log_counter", inactive=True)
    (d,), = enzyme.autodiff(Reverse, lib.uses_counter, Active, Active(1.5))
    assert d == 3.0  # the inactive call contributes nothing
    assert _fwd_counter(lib) == 3.0


def _fwd_counter(lib):
    return enzyme.autodiff(Forward, lib.uses_counter, DuplicatedNoNeed, Duplicated(1.5, 1.0))[0]


def test_registration_checks(lib):
    with pytest.raises(UsageError, match=r"must accept 2 arguments \(C signature double \(double, double\)\)"):
        enzyme.custom_rule(lib, "ext_scale", forward=lambda x: x)
    with pytest.raises(UsageError, match="has type double \\(double\\), expected double \\(double, double\\)"):
        enzyme.custom_rule(lib, "ext_scale", forward="ext_scale")
    with pytest.raises(UsageError, match="augmented_primal and reverse together"):
        enzyme.custom_rule(lib, "ext_scale", augmented_primal=lambda x: (x, None))
    with pytest.raises(UsageError, match="neither calls nor defines a function 'nope'"):
        enzyme.custom_rule(lib, "nope", inactive=True)
    with pytest.raises(UsageError, match="must accept 5 arguments"):
        enzyme.custom_rule(lib, "ext_square_into", augmented_primal=lambda x, y: None, reverse=lambda *a: None)
    with pytest.raises(UsageError, match="nothing to register"):
        enzyme.custom_rule(lib, "ext_scale")
    assert _fwd(lib, 2.0) == 12.0  # failed registrations left nothing behind


def test_analytic_oracle_matches_finite_differences(lib):
    """The oracle of the tests above: d/dx (3x * x) = 6x, checked by central differences on the primal."""
    h = 1e-6
    fd = (lib.uses_scale(2.0 + h) - lib.uses_scale(2.0 - h)) / (2 * h)
    assert math.isclose(fd, 12.0, rel_tol=1e-8)

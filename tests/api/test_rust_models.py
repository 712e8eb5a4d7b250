"""Rust numerical code (sources/rust_models.rs): a struct owning Vec fields built by push and collect, slices
walked with windows, chunks and zip, extend_from_slice into a growing history.  Gradients in forward (also
batched) and reverse (also split) mode against central differences at -O0..-O3."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import enzyme
from enzyme import Active, Const, Duplicated, Forward, Reverse, ReverseSplitWithPrimal

SOURCE = Path(__file__).parent / "sources" / "rust_models.rs"
INPUTS = {"bar_potential": np.array([0.5, 0.7, 0.4, 0.9, 0.3]),
          "smoothed_misfit": np.array([0.3, -1.2, 0.8, 2.0, 0.5, 0.1])}
_libraries: dict[int, enzyme.Library] = {}


def library(opt_level: int) -> enzyme.Library:
    if opt_level not in _libraries:
        _libraries[opt_level] = enzyme.compile([SOURCE], opt_level=opt_level)
    return _libraries[opt_level]


def central(f: enzyme.api.library.CFunction, x: np.ndarray, h: float = 1e-6) -> np.ndarray:
    return np.array([(f(x + e, len(x)) - f(x - e, len(x))) / (2 * h) for e in np.eye(len(x)) * h])


# Unoptimized, rustc freezes bar_potential's fresh allocation before indexing it: reverse mode at -O0 gives the
# frozen pointer its operand's shadow.
CASES = [(name, mode, level) for name in sorted(INPUTS) for mode in ("forward", "reverse") for level in range(4)]


@pytest.mark.parametrize(("name", "mode", "opt_level"), CASES)
def test_gradient_matches_central_differences(name: str, mode: str, opt_level: int) -> None:
    """Forward mode one direction at a time and two at once (batch); reverse mode combined and split."""
    f, x = library(opt_level)[name], INPUTS[name]
    expected = central(f, x)
    if mode == "forward":
        for chunk in (1, 2):
            np.testing.assert_allclose(enzyme.gradient(Forward, f, x, Const(len(x)), chunk=chunk), expected,
                                       rtol=1e-6, atol=1e-8)
        return
    np.testing.assert_allclose(enzyme.gradient(Reverse, f, x, Const(len(x))), expected, rtol=1e-6, atol=1e-8)
    dx = np.zeros_like(x)
    forward, reverse = enzyme.autodiff_thunk(ReverseSplitWithPrimal, f, Active, Duplicated, Const)
    tape, primal, _ = forward(Duplicated(x, dx), Const(len(x)))
    reverse(Duplicated(x, dx), Const(len(x)), 1.0, tape)
    assert primal == pytest.approx(f(x, len(x)), rel=1e-15)
    np.testing.assert_allclose(dx, expected, rtol=1e-6, atol=1e-8)


"""Rust scratch buffers (``vec![0.0; n]`` filled in a loop) differentiated in every mode.

At -O2 rustc keeps the vector's pointer as an integer that is either the zeroed
allocation's address or a dangling constant (n == 0), merged by a phi and made
back into a pointer.  Its shadow was computed from the allocation's shadow,
which does not exist on the dangling path: "Instruction does not dominate all
uses".  (The same mechanism from C: tests/ad/programs/address_handle_buffer.c.)  Below -O2 the crate is
built with its own instances of std's allocation routines (toolchain/rustc.py), so every level differentiates.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import enzyme
from enzyme import Active, Const, Duplicated, Forward, Reverse, ReverseSplitWithPrimal

SOURCE = Path(__file__).parent / "sources" / "scratch_buffers.rs"
FUNCTIONS = ("weighted_energy", "weighted_energy_collect", "prefix_energy")
SIZES = (0, 1, 7)
_libraries: dict[int, enzyme.Library] = {}


def library(opt_level: int) -> enzyme.Library:
    if opt_level not in _libraries:
        _libraries[opt_level] = enzyme.compile([SOURCE], opt_level=opt_level)
    return _libraries[opt_level]


def analytic_gradient(name: str, x: np.ndarray) -> np.ndarray:
    if name.startswith("weighted_energy"):
        return 2 * (1 + np.arange(len(x)) % 3) * x
    # sum_k s_k^2 with s_k = sum_{i<=k} sin x_i: d/dx_i = 2 cos x_i sum_{k>=i} s_k
    s = np.cumsum(np.sin(x))
    return 2 * np.cos(x) * np.cumsum(s[::-1])[::-1]


def central_gradient(f: enzyme.api.library.CFunction, x: np.ndarray, h: float = 1e-6) -> np.ndarray:
    g = np.zeros_like(x)
    for i in range(len(x)):
        up, down = x.copy(), x.copy()
        up[i] += h
        down[i] -= h
        g[i] = (f(up, len(x)) - f(down, len(x))) / (2 * h)
    return g


def points(n: int) -> np.ndarray:
    return np.linspace(-1.0, 2.0, 7)[:n].copy()


@pytest.mark.parametrize("opt_level", [0, 1, 2, 3])
@pytest.mark.parametrize("name", FUNCTIONS)
def test_gradients_in_every_mode(opt_level: int, name: str) -> None:
    f = library(opt_level)[name]
    for n in SIZES:
        x = points(n)
        expected = analytic_gradient(name, x)
        np.testing.assert_allclose(central_gradient(f, x), expected, rtol=1e-6, atol=1e-8)
        np.testing.assert_allclose(enzyme.gradient(Reverse, f, x, Const(n)), expected, rtol=1e-13, atol=1e-14)
        if n:  # forward: one direction per call, and three at once (batch)
            np.testing.assert_allclose(enzyme.gradient(Forward, f, x, Const(n)), expected, rtol=1e-13, atol=1e-14)
            np.testing.assert_allclose(enzyme.gradient(Forward, f, x, Const(n), chunk=3), expected,
                                       rtol=1e-13, atol=1e-14)
        # split: the tape carries the buffer's shadow from the forward to the reverse sweep
        dx = np.zeros_like(x)
        forward, reverse = enzyme.autodiff_thunk(ReverseSplitWithPrimal, f, Active, Duplicated, Const)
        tape, primal, _ = forward(Duplicated(x, dx), Const(n))
        reverse(Duplicated(x, dx), Const(n), 1.0, tape)
        assert primal == pytest.approx(f(x, n), rel=1e-15)
        np.testing.assert_allclose(dx, expected, rtol=1e-13, atol=1e-14)

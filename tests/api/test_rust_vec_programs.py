"""Rust written as people write it (sources/vec_programs.rs): a particle simulation pushing into a Vec,
an iterator-map-sum loss, a closure-based RK4 integrator, a model behind ``Box<dyn Trait>`` whose vtable drop slot
is null (the guarded call through it never runs: enzyme.ad.null_callees) with stage buffers cloned from a
``Vec<f64>`` of run-time length (a memcpy of n * 8 bytes).  Gradients against central differences at -O0..-O3
in forward (also batched) and reverse (also split) mode.

Vec::new() keeps a dangling pointer (the element alignment, an address in the never-mapped first page) until
the first push; it is its own shadow, which loses nothing.  Growing a Vec reallocates through __rust_realloc,
whose old block reverse mode keeps until the reverse sweep has passed it (ad/realloc.py); below -O2 the crate
is compiled with its own instances of std's RawVec helpers (toolchain/rustc.py: -Zshare-generics=no).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import enzyme
from enzyme import Active, Const, Duplicated, Forward, Reverse, ReverseSplitWithPrimal

SOURCE = Path(__file__).parent / "sources" / "vec_programs.rs"
INPUTS = {"particle_energy": np.array([0.3, -1.2, 0.8, 2.0, 0.5]),
          "line_loss": np.array([0.7, -0.2]),
          "decay_fit": np.array([0.8, 0.3]),
          "boxed_model_fit": np.array([0.8, 0.3])}
_libraries: dict[int, enzyme.Library] = {}


def library(opt_level: int) -> enzyme.Library:
    if opt_level not in _libraries:
        _libraries[opt_level] = enzyme.compile([SOURCE], opt_level=opt_level)
    return _libraries[opt_level]


def size(name: str) -> int:
    return 9 if name == "line_loss" else len(INPUTS[name])


def central(f: enzyme.api.library.CFunction, x: np.ndarray, n: int, h: float = 1e-6) -> np.ndarray:
    return np.array([(f(x + e, n) - f(x - e, n)) / (2 * h) for e in np.eye(len(x)) * h])


@pytest.mark.parametrize("opt_level", [0, 1, 2, 3])
@pytest.mark.parametrize("mode", [Forward, Reverse], ids=["forward", "reverse"])
@pytest.mark.parametrize("name", sorted(INPUTS))
def test_gradient_matches_central_differences(opt_level: int, mode: object, name: str) -> None:
    """Forward mode one direction at a time and two at once (batch); reverse mode combined and split."""
    f, x, n = library(opt_level)[name], INPUTS[name], size(name)
    expected = central(f, x, n)
    if mode is Forward:
        for chunk in (1, 2):
            np.testing.assert_allclose(enzyme.gradient(Forward, f, x, Const(n), chunk=chunk), expected,
                                       rtol=1e-6, atol=1e-8)
        return
    np.testing.assert_allclose(enzyme.gradient(Reverse, f, x, Const(n)), expected, rtol=1e-6, atol=1e-8)
    dx = np.zeros_like(x)
    forward, reverse = enzyme.autodiff_thunk(ReverseSplitWithPrimal, f, Active, Duplicated, Const)
    tape, primal, _ = forward(Duplicated(x, dx), Const(n))
    reverse(Duplicated(x, dx), Const(n), 1.0, tape)
    assert primal == pytest.approx(f(x, n), rel=1e-15)
    np.testing.assert_allclose(dx, expected, rtol=1e-6, atol=1e-8)

"""Rust written as people write it (sources/vec_programs.rs): a particle simulation pushing into a Vec,
an iterator-map-sum loss, a closure-based RK4 integrator.  What differentiates is checked against central
differences; what is still refused must be refused by name (never a wrong number).

Vec::new() keeps a dangling pointer (the element alignment, an address in the never-mapped first page)
until the first push; its shadow is null, which loses nothing.  Growing a Vec reallocates through
__rust_realloc, which reverse mode does not handle yet (only C realloc), and below -O2 rustc leaves std's
RawVec helpers as calls to functions std ships no bitcode for.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import enzyme
from enzyme import Const, Forward, Reverse
from enzyme.errors import DifferentiationError

SOURCE = Path(__file__).parent / "sources" / "vec_programs.rs"
INPUTS = {"particle_energy": np.array([0.3, -1.2, 0.8, 2.0, 0.5]),
          "line_loss": np.array([0.7, -0.2]),
          "decay_fit": np.array([0.8, 0.3])}
_libraries: dict[int, enzyme.Library] = {}


def library(opt_level: int) -> enzyme.Library:
    if opt_level not in _libraries:
        _libraries[opt_level] = enzyme.compile([SOURCE], opt_level=opt_level)
    return _libraries[opt_level]


def size(name: str) -> int:
    return 9 if name == "line_loss" else len(INPUTS[name])


def central(f: enzyme.api.library.CFunction, x: np.ndarray, n: int, h: float = 1e-6) -> np.ndarray:
    return np.array([(f(x + e, n) - f(x - e, n)) / (2 * h) for e in np.eye(len(x)) * h])


@pytest.mark.parametrize("opt_level", [2, 3])
@pytest.mark.parametrize("name", sorted(INPUTS))
def test_forward_mode(opt_level: int, name: str) -> None:
    f, x = library(opt_level)[name], INPUTS[name]
    np.testing.assert_allclose(enzyme.gradient(Forward, f, x, Const(size(name))), central(f, x, size(name)),
                               rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("opt_level", [2, 3])
def test_reverse_mode_without_growth(opt_level: int) -> None:
    f, x = library(opt_level).line_loss, INPUTS["line_loss"]
    np.testing.assert_allclose(enzyme.gradient(Reverse, f, x, Const(9)), central(f, x, 9), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("opt_level", [2, 3])
@pytest.mark.parametrize("name", ["particle_energy", "decay_fit"])
def test_reverse_mode_vec_growth_is_refused_by_name(opt_level: int, name: str) -> None:
    f = library(opt_level)[name]
    with pytest.raises(DifferentiationError, match=r"__rust_realloc of memory that may hold active values"):
        enzyme.gradient(Reverse, f, INPUTS[name], Const(size(name)))


@pytest.mark.parametrize("opt_level", [0, 1])
@pytest.mark.parametrize("mode", [Forward, Reverse])
def test_unoptimized_raw_vec_helpers_are_refused_by_name(opt_level: int, mode: object) -> None:
    f = library(opt_level).particle_energy
    with pytest.raises(DifferentiationError, match=r"RawVecInner\d+(grow_amortized|try_allocate_in)"):
        enzyme.gradient(mode, f, INPUTS["particle_energy"], Const(5))  # type: ignore[arg-type]

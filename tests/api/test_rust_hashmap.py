"""``std::collections::HashMap`` built and read inside differentiated Rust code (sources/hashmap_params.rs).

What it takes (enzyme/ad/hash_tables.py): ``RandomState``'s thread-local SipHash keys are inactive
(enzyme/rules/inactive_globals.py) and std's hashing code moves integers only; an empty map's control pointer
points at a static group of EMPTY bytes, which needs no shadow (enzyme/ad/constant_contents.py); copies of control
bytes move no derivative; entries moved between buckets copy with the entry type's layout.  Forward mode against
central differences at -O0, -O2 and -O3 for every function (-O1 passed too when written; left out for time); reverse mode for ``node_sums`` at -O2 (the hunt program
``rs_building_thermal`` at -O0..-O2).  Still refused,
with one line naming the instruction: reverse mode with ``&str`` keys (a pointer to a string literal stored into
the table), an in-place rehash's swap of an entry whose words do not fall on its fields (``(u32, Spring)``), the
type-erased ``RawTableInner::rehash_in_place`` and ``core::ptr::swap_nonoverlapping_bytes`` at -O0/-O1 (no entry
type to read the swapped words with), and
hashbrown code inlined into the caller (``node_sums`` at -O3)."""
from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest

import enzyme
from enzyme import Const, Forward, Reverse
from enzyme.errors import DifferentiationError

SOURCE = Path(__file__).parent / "sources" / "hashmap_params.rs"
X = np.array([0.3, -1.2, 0.8, 2.0, 0.5, -0.7, 1.1])
# One worker compiles each level once for all the tests (the crate's std HashMap code is large).
pytestmark = pytest.mark.xdist_group("rust-hashmap")


@functools.lru_cache(maxsize=None)
def library(opt_level: int) -> enzyme.Library:
    return enzyme.compile([SOURCE], opt_level=opt_level)


def central(f: enzyme.api.library.CFunction, h: float = 1e-6) -> np.ndarray:
    return np.array([(f(X + e, len(X)) - f(X - e, len(X))) / (2 * h) for e in np.eye(len(X)) * h])


@pytest.mark.parametrize("opt_level", [0, 2, 3])
@pytest.mark.parametrize("name", ["hashmap_energy", "hashmap_energy_ids", "node_sums"])
def test_hashmap_forward(name: str, opt_level: int) -> None:
    f = library(opt_level)[name]
    np.testing.assert_allclose(enzyme.gradient(Forward, f, X, Const(len(X))), central(f), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("opt_level", [2])
def test_hashmap_reverse(opt_level: int) -> None:
    f = library(opt_level)["node_sums"]
    np.testing.assert_allclose(enzyme.gradient(Reverse, f, X, Const(len(X))), central(f), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize(("name", "opt_level"), [("node_sums", 0), ("node_sums", 3), ("hashmap_energy", 2)])
def test_hashmap_reverse_is_refused_or_right(name: str, opt_level: int) -> None:
    f = library(opt_level)[name]
    try:
        g = enzyme.gradient(Reverse, f, X, Const(len(X)))
    except DifferentiationError as e:
        assert "\n" not in str(e).split(": ", 1)[0]
        return
    np.testing.assert_allclose(g, central(f), rtol=1e-6, atol=1e-7)

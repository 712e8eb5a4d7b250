"""Rust values grouped per ``u32`` id in a ``BTreeMap`` (sources/btree_groups.rs).

rustc's SROA keeps the ``VacantEntry``'s key in a pointer-typed slot (``inttoptr (zext i32 %id)``), stored into
the entry, which has a shadow: forward mode refused it as "a pointer to memory that has no shadow".  An integer
of 32 bits or fewer made a pointer is no address (enzyme.ad.common.narrow_integer_as_pointer).  Forward-mode
gradients against central differences at -O0 and -O2.  Reverse mode is still refused, with one line naming the copy,
where the map's nodes move keys and values with copies of run-time length that type analysis cannot type
(``VacantEntry::insert_entry``, or the move of a ``Group`` into a node)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import enzyme
from enzyme import Const, Forward, Reverse
from enzyme.errors import DifferentiationError

SOURCE = Path(__file__).parent / "sources" / "btree_groups.rs"
X = np.array([0.3, -1.2, 0.8, 2.0, 0.5, -0.7])
IDS = np.array([7, 3, 7, 11, 3, 7], dtype=np.uint32)


def central(f: enzyme.api.library.CFunction, h: float = 1e-6) -> np.ndarray:
    return np.array([(f(X + e, IDS, len(X)) - f(X - e, IDS, len(X))) / (2 * h) for e in np.eye(len(X)) * h])


@pytest.mark.parametrize("opt_level", [0, 2])
def test_btree_groups_forward(opt_level: int) -> None:
    f = enzyme.compile([SOURCE], opt_level=opt_level)["grouped_energy"]
    np.testing.assert_allclose(enzyme.gradient(Forward, f, X, Const(IDS), Const(len(X))), central(f),
                               rtol=1e-6, atol=1e-8)


def test_btree_groups_reverse_is_refused_or_right() -> None:
    f = enzyme.compile([SOURCE], opt_level=2)["grouped_energy"]
    try:
        g = enzyme.gradient(Reverse, f, X, Const(IDS), Const(len(X)))
    except DifferentiationError as e:
        assert "memcpy" in str(e) and "\n" not in str(e).split(": ", 1)[0]
        return
    np.testing.assert_allclose(g, central(f), rtol=1e-6, atol=1e-8)

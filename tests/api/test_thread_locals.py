"""Thread-local variables of C, C++ and Rust code called and differentiated through the JIT.

Rust's HashMap (std keeps its hash keys in a thread-local), C ``_Thread_local``,
C++ ``thread_local`` objects with destructors, ``std::call_once`` (libstdc++'s
thread-locals) and Rust ``thread_local!``: the JIT crashed on each.  Every
check runs in several threads at once, each of which must see its own copy.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from concurrency import in_threads

import enzyme
from enzyme import Const, Forward, Reverse
from enzyme.errors import DifferentiationError

SOURCES = Path(__file__).parent / "sources"
THREADS = 4
ROUNDS = 100
_libraries: dict[str, enzyme.Library] = {}


def library(name: str) -> enzyme.Library:
    if name not in _libraries:
        _libraries[name] = enzyme.compile([SOURCES / name])
    return _libraries[name]


def energy_gradient(x: np.ndarray) -> np.ndarray:
    """d/dx (sum_i x_i sin x_i)^2."""
    s = np.sum(x * np.sin(x))
    return 2 * s * (np.sin(x) + x * np.cos(x))


def test_c_thread_locals_are_per_thread() -> None:
    lib = library("thread_locals.c")
    first_random = lib.tls_random()

    def work(k: int) -> tuple[float, int, int]:
        fresh = (lib.tls_sum(), lib.tls_random())  # this thread's copies start from the initializers
        for j in range(ROUNDS):
            value = 100.0 * k + j
            lib.tls_fill(value)
            assert lib.tls_sum() == 8 * value + 28  # no other thread's writes show through
        return (*fresh, lib.tls_calls())

    assert in_threads(work, THREADS) == [(36.0, first_random, 1 + 2 * ROUNDS)] * THREADS
    assert lib.tls_calls() == 0 and lib.tls_sum() == 36.0 and lib.tls_calls() == 1


@pytest.mark.parametrize("mode", [Reverse, Forward], ids=["reverse", "forward"])
@pytest.mark.parametrize("source, name", [("thread_locals.c", "counted_energy"),
                                          ("thread_locals.rs", "rs_counted_energy")], ids=["c", "rust"])
def test_derivatives_of_code_counting_in_a_thread_local(source: str, name: str, mode: object) -> None:
    f = library(source)[name]

    def work(k: int) -> bool:
        for j in range(10):
            x = np.linspace(-1.0, 2.0, 5) + 0.1 * k + 0.01 * j
            grad = np.asarray(enzyme.gradient(mode, f, x, Const(len(x))))
            np.testing.assert_allclose(grad, energy_gradient(x), rtol=1e-12, atol=1e-12)
        return True

    assert in_threads(work, THREADS) == [True] * THREADS


def test_cxx_thread_local_objects_and_call_once() -> None:
    lib = library("thread_locals.cpp")
    assert lib.record(1.0) == 1.0 and lib.record(2.0) == 3.0

    def work(k: int) -> tuple[int, int, float]:
        for j in range(ROUNDS):
            total = lib.record(float(k))
            assert total == k * (j + 1)  # a history of this thread's values only
        return lib.history_length(), lib.setup_once(), total

    assert in_threads(work, THREADS) == [(ROUNDS, 1, float(k * ROUNDS)) for k in range(THREADS)]
    assert lib.history_length() == 2 and lib.setup_once() == 1


def test_rust_thread_locals_and_hash_map() -> None:
    lib = library("thread_locals.rs")
    x = np.array([0.5, 1.5, 1.7, 3.2, -0.4, 1.2])
    counts = np.array([1, 3, 3, 1, 1, 3])  # values sharing each one's unit bin
    expected = float(np.sum(counts * x * x))

    def work(k: int) -> tuple[float, int, float]:
        for j in range(ROUNDS):
            assert lib.rs_record(float(k)) == k * (j + 1)
            assert lib.rs_binned_energy(x, len(x)) == pytest.approx(expected, rel=1e-15)
        return lib.rs_record(0.0), lib.rs_calls(), lib.rs_binned_energy(x, len(x))

    assert in_threads(work, THREADS) == [(float(k * ROUNDS), ROUNDS + 1, pytest.approx(expected, rel=1e-15))
                                         for k in range(THREADS)]


def test_rust_hash_map_in_differentiated_code_is_right_or_refused_clearly() -> None:
    """A HashMap of bin counts (RandomState's thread-local keys): right (enzyme.ad.hash_tables), or refused with a
    message naming the function -- never a crash or a wrong number."""
    f = library("thread_locals.rs").rs_binned_energy
    x = np.array([0.5, 1.5, 1.7])
    counts = np.array([1, 2, 2])  # bins 0, 1, 1
    try:
        g = enzyme.gradient(Reverse, f, x, Const(3))
    except DifferentiationError as e:
        assert "in @rs_binned_energy" in str(e) or "hashbrown" in str(e) or "HashMap" in str(e)
        return
    np.testing.assert_allclose(g, 2 * counts * x, rtol=1e-12)

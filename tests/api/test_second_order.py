"""Hessians and Hessian-vector products (forward over reverse) against independent oracles: central differences
of the reverse-mode gradient, analytic Hessians, and symmetry."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import enzyme
from enzyme import Const, Duplicated

SOURCE = Path(__file__).parent / "sources" / "second_order.c"


@pytest.fixture(scope="module", params=[0, 2])
def lib(request):
    return enzyme.compile([SOURCE], opt_level=request.param)


def _fd_hessian(lib, name, x, *args, h=1e-6):
    """Central differences of the reverse-mode gradient (a different derivative than the one tested)."""
    f = getattr(lib, name)
    H = np.zeros((x.size, x.size))
    for j in range(x.size):
        e = np.zeros_like(x)
        e.flat[j] = h
        H[:, j] = (enzyme.gradient(enzyme.Reverse, f, x + e, *args)
                   - enzyme.gradient(enzyme.Reverse, f, x - e, *args)).reshape(-1) / (2 * h)
    return H


def test_rosenbrock_hessian_matches_the_analytic_one(lib):
    x = np.array([-1.2, 1.0, 0.7, 1.9, -0.3])
    n = x.size
    H = np.zeros((n, n))
    for i in range(n - 1):  # 100 (x[i+1] - x[i]^2)^2 + (1 - x[i])^2
        H[i, i] += 1200 * x[i] ** 2 - 400 * x[i + 1] + 2
        H[i, i + 1] += -400 * x[i]
        H[i + 1, i] += -400 * x[i]
        H[i + 1, i + 1] += 200
    for chunk in (None, 1, 2, 5):
        np.testing.assert_allclose(enzyme.hessian(lib.rosenbrock, x, n, chunk=chunk), H, rtol=1e-13, atol=1e-10)


def test_hvp_with_constant_data_matches_differences_of_the_gradient(lib):
    rng = np.random.default_rng(7)
    m, n = 9, 4
    X, y = rng.standard_normal((m, n)), (rng.random(m) > 0.5).astype(float)
    w, v = rng.standard_normal(n), rng.standard_normal(n)
    expected = _fd_hessian(lib, "logistic_nll", w, X, y, m, n) @ v
    np.testing.assert_allclose(enzyme.hvp(lib.logistic_nll, w, v, Const(X), y, m, n), expected, rtol=1e-6)
    hv, g = enzyme.hvp_and_gradient(lib.logistic_nll, w, v, X, y, m, n)
    np.testing.assert_allclose(hv, expected, rtol=1e-6)
    np.testing.assert_allclose(g, enzyme.gradient(enzyme.Reverse, lib.logistic_nll, w, X, y, m, n), rtol=1e-14)
    H = enzyme.hessian(lib.logistic_nll, w, X, y, m, n)
    np.testing.assert_allclose(H, H.T, rtol=1e-12)  # symmetric, as a Hessian must be
    assert np.all(np.linalg.eigvalsh(H) > 0)  # and positive definite for this convex objective


def test_scratch_memory_inside_the_objective(lib):
    p = np.array([0.0, 1.1, 2.05, 3.2, 4.0])
    H = enzyme.hessian(lib.chain_energy, p, p.size, chunk=3)
    np.testing.assert_allclose(H, _fd_hessian(lib, "chain_energy", p, p.size), rtol=1e-5, atol=1e-6)


def test_misuse(lib):
    x = np.ones(3)
    with pytest.raises(enzyme.ArgumentTypeError, match="count_positive returns i32; a Hessian needs a real-valued"):
        enzyme.hessian(lib.count_positive, x, 3)
    with pytest.raises(enzyme.ArgumentValueError, match="argument 2 is Duplicated; the arguments after x are Const"):
        enzyme.hvp(lib.rosenbrock, x, x, Duplicated(np.ones(1), np.ones(1)))
    with pytest.raises(enzyme.ArgumentValueError, match="has shape"):
        enzyme.hvp(lib.rosenbrock, x, np.ones(2), 3)
    with pytest.raises(enzyme.ArgumentValueError, match="chunk must be a positive integer"):
        enzyme.hessian(lib.rosenbrock, x, 3, chunk=0)

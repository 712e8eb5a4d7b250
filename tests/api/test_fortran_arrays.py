"""Fortran routines take matrices in Fortran (column-major) order; a C-order matrix, which Fortran would read
transposed, is refused.  Derivatives checked against analytic formulas."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import enzyme
from enzyme import Const, Duplicated, Reverse

SOURCE = Path(__file__).parent / "sources" / "fortran_matrices.f90"


@pytest.fixture(scope="module")
def lib():
    return enzyme.compile([SOURCE])


def test_fortran_order_matrix_and_its_gradient(lib):
    m, n = 3, 4
    A = np.asfortranarray(np.arange(1.0, 13.0).reshape(m, n))
    i, j = np.meshgrid(np.arange(1, m + 1), np.arange(1, n + 1), indexing="ij")
    assert lib.weighted_sum_sq(A, m, n) == pytest.approx(np.sum(i * A**2 / j), rel=1e-15)
    dA = enzyme.make_zero(A)  # keeps the Fortran order
    enzyme.autodiff(Reverse, lib.weighted_sum_sq, enzyme.Active, Duplicated(A, dA), m, n)
    np.testing.assert_allclose(dA, 2 * i * A / j, rtol=1e-15)
    np.testing.assert_allclose(enzyme.gradient(Reverse, lib.weighted_sum_sq, A, m, n), 2 * i * A / j, rtol=1e-15)


def test_matrix_vector_jacobians(lib):
    m, n = 3, 2
    A = np.asfortranarray([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    x, y = np.array([0.5, -1.0]), np.zeros(m)
    lib.matvec(A, x, y, m, n)
    np.testing.assert_allclose(y, A @ x, rtol=1e-15)
    for mode in (enzyme.Forward, enzyme.Reverse):
        # d y_i / d A_kj = [i == k] x_j, in the matrix's own indexing whatever its memory order
        J = enzyme.jacobian(mode, lib.matvec, A, x, y, m, n, out=y)
        np.testing.assert_allclose(J, np.einsum("ik,j->ikj", np.eye(m), x), rtol=1e-15)


def test_c_order_matrix_is_refused_for_fortran(lib):
    A = np.arange(1.0, 13.0).reshape(3, 4)  # C order: Fortran would read it transposed
    with pytest.raises(enzyme.ArgumentValueError, match=r"argument 1 \(ptr\) of weighted_sum_sq is a Fortran array, "
                                                        r"stored column-major: pass np.asfortranarray\(x\)"):
        lib.weighted_sum_sq(A, 3, 4)
    F = np.asfortranarray(A)
    with pytest.raises(enzyme.ArgumentValueError, match=r"shadow of argument 1 \(ptr\) of weighted_sum_sq is a Fortran "
                                                        r"array"):
        enzyme.autodiff(Reverse, lib.weighted_sum_sq, enzyme.Active, Duplicated(F, np.zeros((3, 4))), Const(3), 4)

"""Read-only arrays (``writeable=False``, ``np.frombuffer`` over ``bytes``, read-only memory maps) are never written.

They are accepted where LLVM proves the function only reads through the parameter, and refused with an error
naming the parameter and the function wherever the call may write: a primal the function may write (or lets
escape), and every shadow.  Each path is checked: plain calls, autodiff in every mode, gradient, jacobian,
thunks and enzyme.testing.
"""
from __future__ import annotations

import numpy as np
import pytest

import enzyme
from enzyme import (
    Active,
    BatchDuplicated,
    Const,
    Duplicated,
    DuplicatedNoNeed,
    Forward,
    Reverse,
    ReverseSplitWithPrimal,
    ReverseWithPrimal,
)
from enzyme.api.errors import ArgumentValueError
from enzyme.testing import gradcheck, test_forward, test_reverse

MODEL = """
#include <math.h>

/* Potential energy of a chain of springs at positions x (reads x only). */
double energy(const double *x, int n) {
    double e = 0;
    for (int i = 0; i + 1 < n; i++) { double d = x[i + 1] - x[i] - 1.0; e += 0.5 * d * d; }
    return e;
}

/* Scale the positions in place. */
void scale(double *x, int n, double a) {
    for (int i = 0; i < n; i++) x[i] *= a;
}

/* Linear model y = w * x (element-wise). */
void predict(const double *w, const double *x, double *y, int n) {
    for (int i = 0; i < n; i++) y[i] = w[i] * sin(x[i]);
}

/* The last input is kept for a debugger: the pointer escapes, so nothing proves x is never written. */
const double *last_input;
double logged_energy(const double *x, int n) {
    last_input = x;
    return energy(x, n);
}
"""


def read_only(values) -> np.ndarray:
    """An array over immutable bytes, as np.frombuffer gives for data read from a file or a socket."""
    return np.frombuffer(np.asarray(values, dtype=np.float64).tobytes(), dtype=np.float64)


@pytest.fixture(scope="module", params=[0, 1, 2, 3], ids=["O0", "O1", "O2", "O3"])
def lib(request, tmp_path_factory):
    src = tmp_path_factory.mktemp("read_only") / "springs.c"
    src.write_text(MODEL)
    return enzyme.compile([src], opt_level=request.param)


def _energy_gradient(x: np.ndarray) -> np.ndarray:
    d = np.diff(x) - 1.0
    g = np.zeros_like(x)
    g[:-1] -= d
    g[1:] += d
    return g


X = [0.0, 1.5, 2.25, 4.0]


def test_plain_calls(lib, tmp_path):
    x = read_only(X)
    assert lib.energy(x, 4) == pytest.approx(0.5 * float(np.sum((np.diff(X) - 1.0) ** 2)), rel=1e-15)
    with pytest.raises(ArgumentValueError, match=r"^argument 1 \(ptr\) of scale is a read-only array "
                                                 r"\(writeable=False\), but scale may write through it"):
        lib.scale(x, 4, 2.0)
    assert x.tolist() == X
    flagged = np.array(X)
    flagged.flags.writeable = False
    with pytest.raises(ArgumentValueError, match="of scale is a read-only array"):
        lib.scale(flagged, 4, 2.0)
    path = tmp_path / "x.bin"
    np.array(X).tofile(path)
    mapped = np.memmap(path, dtype=np.float64, mode="r")  # an ndarray subclass
    with pytest.raises(ArgumentValueError, match="of scale is a read-only array"):
        lib.scale(mapped, 4, 2.0)
    assert np.fromfile(path).tolist() == X
    y = np.zeros(4)
    lib.predict(x, x, y, 4)
    assert y.tolist() == pytest.approx((np.array(X) * np.sin(X)).tolist(), rel=1e-15)
    with pytest.raises(ArgumentValueError, match=r"argument 3 \(ptr\) of predict is a read-only array"):
        lib.predict(x, x, read_only(np.zeros(4)), 4)


def test_escaping_pointer_is_refused_conservatively(lib):
    x = read_only(X)
    with pytest.raises(ArgumentValueError, match=r"argument 1 \(ptr\) of logged_energy is a read-only array "
                                                 r".*may write through it \(LLVM cannot prove that it only reads it\)"):
        lib.logged_energy(x, 4)
    assert lib.logged_energy(np.array(X), 4) == lib.energy(x, 4)


def test_autodiff_reverse_and_forward(lib):
    x = read_only(X)
    dx = np.zeros(4)
    enzyme.autodiff(Reverse, lib.energy, Active, Duplicated(x, dx), 4)
    np.testing.assert_allclose(dx, _energy_gradient(np.array(X)), rtol=1e-14)
    (tangent,) = enzyme.autodiff(Forward, lib.energy, DuplicatedNoNeed, Duplicated(x, np.eye(4)[0]), 4)
    assert tangent == pytest.approx(_energy_gradient(np.array(X))[0], rel=1e-14)

    for mode, ret in ((Reverse, Active), (ReverseWithPrimal, Active), (Forward, DuplicatedNoNeed)):
        with pytest.raises(ArgumentValueError, match=r"^shadow of argument 1 \(ptr\) of energy is a read-only "
                                                     r"array .*derivatives are written into shadows"):
            enzyme.autodiff(mode, lib.energy, ret, Duplicated(np.array(X), read_only(np.zeros(4))), 4)
    with pytest.raises(ArgumentValueError, match=r"argument 1 \(ptr\) of scale is a read-only array"):
        enzyme.autodiff(Reverse, lib.scale, Const, Duplicated(x, np.zeros(4)), 4, Active(2.0))
    for annotation in (Const(x), x):
        with pytest.raises(ArgumentValueError, match=r"argument 1 \(ptr\) of scale is a read-only array"):
            enzyme.autodiff(Reverse, lib.scale, Const, annotation, 4, Const(2.0))
    with pytest.raises(ArgumentValueError, match="of scale is a read-only array"):
        enzyme.autodiff(Forward, lib.scale, Const, Duplicated(x, np.ones(4)), 4, Duplicated(2.0, 1.0))
    assert x.tolist() == X


def test_repeated_calls_check_every_time(lib):
    """autodiff's fast path for repeated calls of one signature checks writability too."""
    x, dx = np.array(X), np.zeros(4)
    enzyme.autodiff(Reverse, lib.scale, Const, Duplicated(x, dx), 4, Active(2.0))
    frozen = read_only(X)
    with pytest.raises(ArgumentValueError, match="of scale is a read-only array"):
        enzyme.autodiff(Reverse, lib.scale, Const, Duplicated(frozen, dx), 4, Active(2.0))
    assert frozen.tolist() == X


def test_batch_shadows(lib):
    x = read_only(X)
    shadows = (np.zeros(4), read_only(np.zeros(4)))
    with pytest.raises(ArgumentValueError, match=r"^shadow 2 of argument 1 \(ptr\) of energy is a read-only array"):
        enzyme.autodiff(Forward, lib.energy, Const, BatchDuplicated(x, shadows), 4)


def test_gradient_and_jacobian(lib):
    x = read_only(X)
    np.testing.assert_allclose(enzyme.gradient(Reverse, lib.energy, x, 4), _energy_gradient(np.array(X)), rtol=1e-14)
    np.testing.assert_allclose(enzyme.gradient(Forward, lib.energy, x, 4), _energy_gradient(np.array(X)), rtol=1e-14)
    # predict(w, x, y, n): y = w * sin(x), differentiated with respect to the (read-only) weights
    inputs, y = np.array([0.5, 1.0, 2.0, 3.0]), np.zeros(4)
    for mode in (Forward, Reverse):
        np.testing.assert_allclose(enzyme.jacobian(mode, lib.predict, x, inputs, y, 4, out=y),
                                   np.diag(np.sin(inputs)), rtol=1e-14)
    frozen_out = read_only(np.zeros(4))
    with pytest.raises(ArgumentValueError, match=r"argument 3 \(ptr\) of predict is a read-only array"):
        enzyme.jacobian(Forward, lib.predict, x, inputs, frozen_out, 4, out=frozen_out)
    assert x.tolist() == X


def test_split_thunks(lib):
    x = read_only(X)
    forward, reverse = enzyme.autodiff_thunk(ReverseSplitWithPrimal, lib.energy, Active, Duplicated, Const)
    dx = np.zeros(4)
    tape, primal, _ = forward(Duplicated(x, dx), Const(4))
    reverse(Duplicated(x, dx), Const(4), 1.0, tape)
    assert primal == lib.energy(x, 4)
    np.testing.assert_allclose(dx, _energy_gradient(np.array(X)), rtol=1e-14)
    with pytest.raises(ArgumentValueError, match="shadow of argument 1 .* of energy is a read-only array"):
        forward(Duplicated(np.array(X), read_only(np.zeros(4))), Const(4))
    forward, reverse = enzyme.autodiff_thunk(ReverseSplitWithPrimal, lib.scale, Const, Duplicated, Const, Active)
    with pytest.raises(ArgumentValueError, match="argument 1 .* of scale is a read-only array"):
        forward(Duplicated(x, np.zeros(4)), Const(4), Active(2.0))
    assert x.tolist() == X


def test_checkers_work_on_copies(lib):
    """enzyme.testing calls the function on fresh copies of the inputs: read-only inputs are fine and untouched."""
    x = read_only(X)
    test_reverse(lib.scale, Const, (x, Duplicated), 4, (2.0, Active))
    test_forward(lib.scale, Const, (x, Duplicated), 4, (2.0, Duplicated))
    gradcheck(lib.energy, Active, Duplicated(x, read_only(np.ones(4))), 4)
    assert x.tolist() == X


FORTRAN = """
function total(x, n) bind(C, name="total") result(s)
  use iso_c_binding
  integer(c_int), value :: n
  real(c_double), intent(in) :: x(n)
  real(c_double) :: s
  integer :: i
  s = 0
  do i = 1, n
    s = s + x(i) * x(i)
  end do
end function

subroutine twice(x, n) bind(C, name="twice")
  use iso_c_binding
  integer(c_int), value :: n
  real(c_double), intent(inout) :: x(n)
  x = 2 * x
end subroutine
"""

RUST = """
#[no_mangle]
pub extern "C" fn total(x: *const f64, n: usize) -> f64 {
    let x = unsafe { core::slice::from_raw_parts(x, n) };
    x.iter().map(|v| v * v).sum()
}

#[no_mangle]
pub extern "C" fn twice(x: *mut f64, n: usize) {
    for v in unsafe { core::slice::from_raw_parts_mut(x, n) } {
        *v *= 2.0;
    }
}
"""


@pytest.mark.parametrize(("name", "text", "opt_level"), [("sums.f90", FORTRAN, 0), ("sums.f90", FORTRAN, 2),
                                                         ("sums.rs", RUST, 2)], ids=["f90-O0", "f90-O2", "rs-O2"])
def test_fortran_and_rust(tmp_path, name, text, opt_level):
    """The proof comes from LLVM, whatever the language."""
    src = tmp_path / name
    src.write_text(text)
    lib = enzyme.compile([src], opt_level=opt_level)
    x = read_only(X)
    assert lib.total(x, 4) == pytest.approx(float(np.dot(X, X)), rel=1e-15)
    assert enzyme.gradient(Reverse, lib.total, x, 4).tolist() == pytest.approx((2 * np.array(X)).tolist())
    with pytest.raises(ArgumentValueError, match=r"argument 1 \(ptr\) of twice is a read-only array"):
        lib.twice(x, 4)
    assert x.tolist() == X

"""enzyme.compile and calling compiled functions: typed arguments, clear errors, IR text input."""
from __future__ import annotations

import math

import numpy as np
import pytest

import enzyme
from enzyme.errors import UsageError

IR_TEXT = """
define double @axpy_sum(double %a, ptr %x, ptr %y, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s1, %loop ]
  %px = getelementptr double, ptr %x, i64 %i
  %py = getelementptr double, ptr %y, i64 %i
  %xv = load double, ptr %px
  %yv = load double, ptr %py
  %t = fmul double %a, %xv
  %u = fadd double %t, %yv
  store double %u, ptr %py
  %s1 = fadd double %s, %u
  %i1 = add i64 %i, 1
  %c = icmp slt i64 %i1, %n
  br i1 %c, label %loop, label %done
done:
  ret double %s1
}
define float @half(float %x) {
  %y = fmul float %x, 0.5
  ret float %y
}
"""


def test_call_typed(ref):
    b = np.array([3.0, 4.0])
    assert ref.fn("mixed")(2.0, b, 3, 1.5) == pytest.approx(2.0 * 5.0 + 9 * 2.25, rel=1e-15)
    assert ref.fn("square")(np.float64(1.5)) == 2.25
    y = np.zeros(2)
    assert ref.fn("vecf")(np.array([2.0, 3.0]), y) is None
    assert y.tolist() == [6.0, 3.0]


def test_ir_text_and_mutation():
    lib = enzyme.compile(IR_TEXT)
    x, y = np.array([1.0, 2.0, 3.0]), np.array([1.0, 1.0, 1.0])
    assert lib.axpy_sum(2.0, x, y, 3) == 15.0
    assert y.tolist() == [3.0, 5.0, 7.0]
    assert lib.half(3.0) == 1.5
    assert sorted(lib.names()) == ["axpy_sum", "half"]


def test_wrong_count(cref):
    with pytest.raises(ValueError, match="c_mixed takes 4 arguments but 3 were given"):
        cref.fn("mixed")(1.0, np.zeros(2), 3)


def test_wrong_dtype_named(cref):
    with pytest.raises(TypeError, match=r"argument 2 \(ptr\) of c_mixed points to float64 values.*int64"):
        cref.fn("mixed")(1.0, np.array([1, 2]), 3, 1.0)
    with pytest.raises(TypeError, match=r"argument 3 \(i32\) of c_mixed is an integer"):
        cref.fn("mixed")(1.0, np.zeros(2), 3.0, 1.0)
    with pytest.raises(TypeError, match=r"argument 1 \(double\) of c_mixed is a double: pass a number"):
        cref.fn("mixed")("1", np.zeros(2), 3, 1.0)
    with pytest.raises(TypeError, match="pass a contiguous numpy array, not list"):
        cref.fn("mixed")(1.0, [1.0, 2.0], 3, 1.0)


def test_non_contiguous(cref):
    with pytest.raises(ValueError, match=r"argument 2 \(ptr\) of c_mixed must be a C-contiguous \(row-major\) array"):
        cref.fn("mixed")(1.0, np.zeros((2, 2))[:, 0], 3, 1.0)


def test_out_of_range_int(cref):
    with pytest.raises(ValueError, match="out of range"):
        cref.fn("mixed")(1.0, np.zeros(2), 2**40, 1.0)


def test_errors_are_enzyme_errors_too(cref):
    with pytest.raises(UsageError):
        cref.fn("mixed")(1.0, np.array([1, 2]), 3, 1.0)


def test_unknown_function_suggests(cref):
    with pytest.raises(AttributeError, match="did you mean c_square"):
        _ = cref.lib.square


def test_missing_source(tmp_path):
    with pytest.raises(UsageError, match="does not exist"):
        enzyme.compile([tmp_path / "nope.c"])


def test_large_array_is_not_copied():
    lib = enzyme.compile(IR_TEXT)
    n = 1_000_000
    x, y = np.ones(n), np.zeros(n)
    assert lib.axpy_sum(1.0, x, y, n) == n
    assert y[-1] == 1.0  # written in place


def test_float32_function():
    lib = enzyme.compile(IR_TEXT)
    (d,), = enzyme.autodiff(enzyme.Reverse, lib.half, enzyme.Active, enzyme.Active(np.float32(3.0)))
    assert d == 0.5 and math.isfinite(d)

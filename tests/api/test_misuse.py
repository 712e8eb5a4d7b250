"""Misuse of autodiff and friends gives one clear error naming the argument and the fix."""
from __future__ import annotations

import numpy as np
import pytest

import enzyme
from enzyme import (
    Active,
    BatchDuplicated,
    BatchDuplicatedNoNeed,
    Const,
    Duplicated,
    Forward,
    Reverse,
    ReverseSplitWithPrimal,
)
from enzyme.errors import UsageError


def test_active_on_array(cref):
    with pytest.raises(UsageError, match=r"argument 2 \(ptr\) of c_mixed: Active is for scalars; pass an array as "
                                         r"Duplicated"):
        enzyme.autodiff(Reverse, cref.fn("mixed"), Active, Active(1.0), Active(np.zeros(2)), 3, Active(1.0))


def test_active_in_forward(cref):
    with pytest.raises(UsageError, match="Active is not allowed in forward mode"):
        enzyme.autodiff(Forward, cref.fn("square"), Duplicated, Active(1.0))
    with pytest.raises(UsageError, match="Active is not allowed as the return activity in forward mode"):
        enzyme.autodiff(Forward, cref.fn("square"), Active, Duplicated(1.0, 1.0))


def test_shadow_shape_and_dtype(cref):
    with pytest.raises(ValueError, match=r"shadow of argument 2 \(ptr\) of c_mixed has shape \(3,\)"):
        enzyme.autodiff(Reverse, cref.fn("mixed"), Active, Active(1.0), Duplicated(np.zeros(2), np.zeros(3)), 3,
                        Active(1.0))
    with pytest.raises(TypeError, match="shadow of argument 2"):
        enzyme.autodiff(Reverse, cref.fn("mixed"), Active, Active(1.0),
                        Duplicated(np.zeros(2), np.zeros(2, np.float32)), 3, Active(1.0))
    x = np.zeros(2)
    with pytest.raises(ValueError, match="shares memory"):
        enzyme.autodiff(Reverse, cref.fn("prod2"), Active, Duplicated(x, x))


def test_annotation_count(cref):
    with pytest.raises(ValueError, match="c_mixed takes 4 annotated arguments but 2 were given"):
        enzyme.autodiff(Reverse, cref.fn("mixed"), Active, Active(1.0), Duplicated(np.zeros(2), np.zeros(2)))


def test_scalar_duplicated_in_reverse(cref):
    with pytest.raises(UsageError, match=r"use Active\(x\) instead of Duplicated"):
        enzyme.autodiff(Reverse, cref.fn("square"), Active, Duplicated(1.0, 1.0))


def test_integer_parameters(cref):
    with pytest.raises(UsageError, match="integer parameter cannot be Active"):
        enzyme.autodiff(Reverse, cref.fn("mixed"), Active, Active(1.0), Duplicated(np.ones(2), np.zeros(2)),
                        Active(3), Active(1.0))


def test_return_activity(cref):
    with pytest.raises(UsageError, match="c_vecf returns void, which cannot be Active"):
        enzyme.autodiff(Reverse, cref.fn("vecf"), Active, Duplicated(np.ones(2), np.zeros(2)),
                        Duplicated(np.ones(2), np.zeros(2)))
    with pytest.raises(TypeError, match="return activity is a class"):
        enzyme.autodiff(Reverse, cref.fn("square"), Active(1.0), Active(1.0))
    with pytest.raises(UsageError, match="must be Active or Const"):
        enzyme.autodiff(Reverse, cref.fn("square"), Duplicated, Active(1.0))
    with pytest.raises(UsageError, match="no tangent"):
        enzyme.autodiff(Forward, cref.fn("vecf"), Duplicated, Duplicated(np.ones(2), np.zeros(2)),
                        Duplicated(np.ones(2), np.zeros(2)))


def test_batch_misuse(cref):
    with pytest.raises(ValueError, match="different numbers of shadows"):
        enzyme.autodiff(Forward, cref.fn("vecf"), Const, BatchDuplicated(np.ones(2), (np.zeros(2),) * 2),
                        BatchDuplicated(np.ones(2), (np.zeros(2),) * 3))
    with pytest.raises(TypeError, match="cannot be mixed"):
        enzyme.autodiff(Forward, cref.fn("vecf"), Const, BatchDuplicated(np.ones(2), (np.zeros(2),) * 2),
                        Duplicated(np.ones(2), np.zeros(2)))
    with pytest.raises(UsageError, match="does not match the arguments"):
        enzyme.autodiff(Forward, cref.fn("square"), Duplicated, BatchDuplicated(1.0, (1.0, 2.0)))
    with pytest.raises(UsageError, match="BatchDuplicated in split reverse mode is not supported yet"):
        enzyme.autodiff_thunk(ReverseSplitWithPrimal, cref.fn("prod2"), Active, BatchDuplicated)
    assert enzyme.autodiff(Forward, cref.fn("square"), BatchDuplicatedNoNeed, BatchDuplicated(1.0, (1.0,))) \
        == ((2.0,),)


def test_not_a_compiled_function():
    with pytest.raises(TypeError, match="must be a function of a compiled library"):
        enzyme.autodiff(Reverse, lambda x: x * x, Active, Active(1.0))
    with pytest.raises(TypeError, match="must be a mode"):
        enzyme.autodiff("Reverse", None, Active, Active(1.0))


def test_split_mode_needs_thunk(cref):
    with pytest.raises(UsageError, match="autodiff_thunk"):
        enzyme.autodiff(ReverseSplitWithPrimal, cref.fn("square"), Active, Active(1.0))


def test_annotation_class_as_argument(cref):
    with pytest.raises(UsageError, match="annotation class"):
        enzyme.autodiff(Reverse, cref.fn("square"), Active, Active)


def test_gradient_misuse(cref):
    with pytest.raises(UsageError, match="forward mode only"):
        enzyme.gradient(Reverse, cref.fn("prod2"), np.ones(2), chunk=2)
    with pytest.raises(ValueError, match="out= must be one of the positional arguments"):
        enzyme.jacobian(Forward, cref.fn("vecf"), np.ones(2), np.zeros(2), out=np.zeros(2))
    with pytest.raises(ValueError, match="chunk must be a positive integer"):
        enzyme.gradient(Forward, cref.fn("prod2"), np.ones(2), chunk=0)


def test_error_classes_at_top_level(cref):
    # Users catch pyenzyme's errors without knowing its module layout; both hierarchies of a bad shape hold.
    from enzyme import errors

    assert enzyme.EnzymeError is errors.EnzymeError and enzyme.DifferentiationError is errors.DifferentiationError
    assert {"EnzymeError", "DifferentiationError", "CompileError", "ArgumentValueError"} <= set(enzyme.__all__)
    with pytest.raises(enzyme.ArgumentValueError) as caught:
        enzyme.autodiff(Reverse, cref.fn("mixed"), Active, Active(1.0), Duplicated(np.zeros(2), np.zeros(3)), 3,
                        Active(1.0))
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, enzyme.EnzymeError)


def test_directory_sources_get_advice(tmp_path):
    (tmp_path / "src").mkdir()
    with pytest.raises(UsageError, match=r"src is a directory, not a source file; pass the files themselves"):
        enzyme.compile([tmp_path / "src"])
    with pytest.raises(UsageError, match=r"source file \S*gone.c does not exist"):
        enzyme.compile([tmp_path / "gone.c"])


def test_declared_array_extent_is_checked(tmp_path):
    # `x[static 3]` tells the compiler (dereferenceable(24)) and so pyenzyme that three doubles are read.
    source = tmp_path / "sum3.c"
    source.write_text("double sum3(double x[static 3]) { return x[0] * x[1] + x[2]; }\n")
    lib = enzyme.compile(source)
    with pytest.raises(enzyme.ArgumentValueError, match=r"argument 1 \(ptr\) of sum3 is declared to hold at least "
                                                        r"3 elements of float64 .* the array has 2"):
        lib.sum3(np.ones(2))
    with pytest.raises(enzyme.ArgumentValueError, match=r"shadow of argument 1 .* at least 3 elements"):
        enzyme.autodiff(Reverse, lib.sum3, Active, Duplicated(np.ones(3), np.zeros(2)))
    x, dx = np.array([2.0, 5.0, 7.0]), np.zeros(3)
    assert lib.sum3(x) == 17.0
    enzyme.autodiff(Reverse, lib.sum3, Active, Duplicated(x, dx))
    np.testing.assert_allclose(dx, [5.0, 2.0, 1.0])  # analytic gradient of x0*x1 + x2

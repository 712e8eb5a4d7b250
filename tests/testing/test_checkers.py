"""test_forward / test_reverse / gradcheck on compiled C code.

Correct functions (programs/model.c) pass across annotation combinations; wrong
custom rules (programs/wrong_rules.c) are caught with a message that names the
argument, the mode and the numbers.
"""
from __future__ import annotations

import itertools
import re
from typing import Any

import numpy as np
import pytest

from enzyme.api import (
    Active,
    BatchDuplicated,
    BatchDuplicatedNoNeed,
    Const,
    Duplicated,
    DuplicatedNoNeed,
)
from enzyme.errors import UsageError
from enzyme.testing import central_fdm, gradcheck, test_forward, test_reverse


def _arr(n: int, start: float = 0.3) -> np.ndarray:
    return np.linspace(start, start + 1.1, n)


# Per function: does it return a float, and its parameters as (kind, value).  Kinds: "s" float scalar,
# "a" input array, "o" array written by the function (needs a shadow once anything is active), "i" int.
FUNCTIONS: dict[str, tuple[bool, list[tuple[str, Any]]]] = {
    "scalar2": (True, [("s", 1.3), ("s", 0.7)]),
    "sumsq": (True, [("a", _arr(5)), ("i", 5)]),
    "square_inplace": (False, [("o", _arr(4)), ("i", 4)]),
    "polar": (False, [("s", 1.5), ("s", 0.4), ("o", np.zeros(2))]),
    "mean_var": (True, [("a", _arr(6)), ("i", 6), ("o", np.zeros(1))]),
    "axpy": (False, [("s", 0.7), ("a", _arr(4)), ("o", _arr(4, -0.5)), ("i", 4)]),
    "weighted": (True, [("a", _arr(5, 1.0)), ("a", _arr(5)), ("i", 5), ("s", 0.8)]),
}

ACTIVITIES = {
    "reverse": {"s": (Const, Active), "a": (Const, Duplicated), "o": (Duplicated,), "i": (None,)},
    "forward": {"s": (Const, Duplicated), "a": (Const, Duplicated), "o": (Duplicated, DuplicatedNoNeed),
                "i": (None,)},
}
RETURNS = {"reverse": (Const, Active), "forward": (Const, Duplicated, DuplicatedNoNeed)}


def _combinations(mode: str) -> list[Any]:
    cases = []
    for name, (returns_float, params) in FUNCTIONS.items():
        rets = RETURNS[mode] if returns_float else (Const,)
        per_param = [ACTIVITIES[mode][kind] for kind, _ in params]
        for ret, acts in itertools.product(rets, itertools.product(*per_param)):
            label = "-".join([name, ret.__name__, *(a.__name__ if a else "int" for a in acts)])
            cases.append(pytest.param(name, ret, acts, id=label))
    return cases


def _args(name: str, acts: tuple[Any, ...]) -> list[Any]:
    _, params = FUNCTIONS[name]
    args: list[Any] = []
    for (_, value), act in zip(params, acts):
        value = value.copy() if isinstance(value, np.ndarray) else value
        args.append(value if act is None or act is Const else (value, act))
    return args


@pytest.mark.parametrize("name,ret,acts", _combinations("reverse"))
def test_reverse_passes_on_correct_code(model_lib: Any, name: str, ret: type, acts: tuple[Any, ...]) -> None:
    test_reverse(getattr(model_lib, name), ret, *_args(name, acts))


@pytest.mark.parametrize("name,ret,acts", _combinations("forward"))
def test_forward_passes_on_correct_code(model_lib: Any, name: str, ret: type, acts: tuple[Any, ...]) -> None:
    test_forward(getattr(model_lib, name), ret, *_args(name, acts))


@pytest.mark.parametrize("name,ret,acts", [
    case for case in _combinations("reverse")
    if case.id in ("scalar2-Active-Active-Active", "scalar2-Const-Active-Const", "sumsq-Active-Duplicated-int",
                   "square_inplace-Const-Duplicated-int", "polar-Const-Active-Active-Duplicated",
                   "mean_var-Active-Duplicated-int-Duplicated", "axpy-Const-Active-Duplicated-Duplicated-int",
                   "weighted-Active-Const-Duplicated-int-Active")
])
def test_reverse_split_mode(model_lib: Any, name: str, ret: type, acts: tuple[Any, ...]) -> None:
    test_reverse(getattr(model_lib, name), ret, *_args(name, acts), split=True)


def test_split_mode_seeds_the_return_at_random(model_lib: Any) -> None:
    test_reverse(model_lib.rosenbrock, Active, (np.linspace(-1.0, 1.5, 40), Duplicated), 40, split=True)
    gradcheck(model_lib.scalar2, Active, Active(1.3), Active(0.7), split=True)


@pytest.mark.parametrize("ret", [Const, BatchDuplicated, BatchDuplicatedNoNeed])
def test_batch_forward(model_lib: Any, ret: type) -> None:
    test_forward(model_lib.scalar2, ret, (1.3, BatchDuplicated), (0.7, BatchDuplicated))
    test_forward(model_lib.sumsq, ret, (_arr(5), BatchDuplicated), 5)
    # explicit shadows: three directions
    dirs = tuple(np.eye(5)[i] for i in range(3))
    test_forward(model_lib.weighted, ret, _arr(5, 1.0), BatchDuplicated(_arr(5), dirs), 5, 0.8)


def test_batch_forward_outputs(model_lib: Any) -> None:
    test_forward(model_lib.polar, Const, (1.5, BatchDuplicated), (0.4, BatchDuplicated),
                 (np.zeros(2), BatchDuplicated))


def test_long_arrays_use_random_directions(model_lib: Any) -> None:
    x = np.linspace(-1.0, 1.5, 40)
    test_reverse(model_lib.rosenbrock, Active, (x, Duplicated), 40)
    test_forward(model_lib.rosenbrock, Duplicated, (x, Duplicated), 40)


def test_reverse_duplicated_no_need(model_lib: Any) -> None:
    test_reverse(model_lib.sumsq, Active, (_arr(5), DuplicatedNoNeed), 5)


def test_float32_with_a_looser_tolerance(model_lib: Any) -> None:
    x, y = np.float32(1.25), np.float32(-0.5)
    test_reverse(model_lib.scalar_f32, Active, (x, Active), (y, Active), rtol=1e-4, atol=1e-5)
    test_forward(model_lib.scalar_f32, Duplicated, (x, Duplicated), (y, Duplicated), rtol=1e-4, atol=1e-5)


def test_annotation_instances_use_the_given_shadows(model_lib: Any) -> None:
    x = _arr(4)
    dx = np.array([1.0, 0.0, 0.0, 0.0])
    test_forward(model_lib.square_inplace, Const, Duplicated(x, dx), 4)
    test_reverse(model_lib.scalar2, Active, Active(1.3), Const(0.7))
    # the caller's arrays are never modified by the checkers (every call works on copies)
    np.testing.assert_array_equal(x, _arr(4))
    np.testing.assert_array_equal(dx, [1.0, 0.0, 0.0, 0.0])


def test_other_finite_difference_methods(model_lib: Any) -> None:
    test_reverse(model_lib.scalar2, Active, (1.3, Active), (0.7, Active), fdm=central_fdm(7, 1))
    test_forward(model_lib.polar, Const, (1.5, Duplicated), 0.4, (np.zeros(2), Duplicated),
                 fdm=central_fdm(3, 1), rtol=1e-7)


def test_gradcheck_runs_both_modes(model_lib: Any) -> None:
    gradcheck(model_lib.scalar2, Active, Active(1.3), 0.7)
    gradcheck(model_lib.mean_var, Active, (_arr(6), Duplicated), 6, (np.zeros(1), Duplicated))
    gradcheck(model_lib.polar, Const, (1.5, Active), (0.4, Duplicated), (np.zeros(2), Duplicated))


# ------------------------------------------------------------------ wrong derivatives are caught
def _failure(check: Any, *args: Any, **kwargs: Any) -> str:
    with pytest.raises(AssertionError) as info:
        check(*args, **kwargs)
    return str(info.value)


def test_wrong_forward_rule_is_caught(wrong_lib: Any) -> None:
    message = _failure(test_forward, wrong_lib.uses_cube, Duplicated, (1.5, Duplicated), 2.0)
    first = message.splitlines()[0]
    assert first.startswith("test_forward(uses_cube, Duplicated, ...): 1 of 2 checks failed"), message
    assert "tangent of the return value (Forward mode, vs central_fdm(5, 1, adapt=1))" in message
    # tangent direction ẋ is random; the wrong rule gives 1/3 of the true tangent 3 x^2 y ẋ
    expected = float(re.search(r"expected: (\S+)", message).group(1))
    got = float(re.search(r"got:\s+(\S+)", message).group(1))
    assert got == pytest.approx(expected / 3, rel=1e-9)
    assert re.search(r"max abs error \S+, max rel error 0\.667 \(rtol=1e-09, atol=1e-09\)", message), message


def test_wrong_forward_rule_of_an_array_function_names_the_argument(wrong_lib: Any) -> None:
    message = _failure(test_forward, wrong_lib.uses_square_all, Const, (_arr(3), Duplicated), 3,
                       testset_name="square rule")
    assert message.splitlines()[0].startswith("[square rule] test_forward(uses_square_all, Const, ...)")
    assert "argument 1 (Duplicated): shadow after the call = tangent of its contents (Forward mode" in message
    assert "max rel error 0.5" in message and "at index (" in message


def test_wrong_forward_rule_is_caught_by_gradcheck(wrong_lib: Any) -> None:
    message = _failure(gradcheck, wrong_lib.uses_cube, Active, Active(1.5), 2.0, modes=["forward"])
    assert "tangent of the return value" in message


def test_a_rule_that_writes_primal_memory_is_caught(wrong_lib: Any) -> None:
    message = _failure(test_forward, wrong_lib.uses_double_all, Const, (_arr(3), Duplicated), 3)
    assert "argument 1 (Duplicated): contents after the differentiated call differ from the plain call's" in message
    assert "1 of 2 checks failed" in message  # the tangent itself is right


@pytest.mark.parametrize("split", [False, True])
def test_wrong_reverse_rule_is_caught(wrong_lib: Any, split: bool) -> None:
    message = _failure(test_reverse, wrong_lib.uses_quart, Active, (1.5, Active), split=split)
    mode = "ReverseSplitWithPrimal" if split else "ReverseWithPrimal"
    assert message.splitlines()[0] == "test_reverse(uses_quart, Active, ...): 1 of 2 checks failed", message
    assert f"argument 1 (Active): derivative ({mode} mode, vs central_fdm(5, 1, adapt=1))" in message
    # d/dx (x^4 + x) at 1.5 is 4 * 1.5^3 + 1 = 14.5 (times the return seed); the rule gives 4 * 1.5^2 + 1 = 10
    expected = float(re.search(r"expected: (\S+)", message).group(1))
    got = float(re.search(r"got:\s+(\S+)", message).group(1))
    assert got / expected == pytest.approx(10.0 / 14.5, rel=1e-9)


def test_wrong_gradient_into_a_shadow_shows_the_derivative_itself(wrong_lib: Any) -> None:
    # The message compares the gradient the call put into the shadow (here x, half of 2x), not the shadow with
    # the random seed it held before the call added to it.
    x = np.array([0.5, -1.25, 2.0])
    seed = np.array([10.0, 20.0, 30.0])
    message = _failure(test_reverse, wrong_lib.uses_sumsq, Active, Duplicated(x, seed.copy()), 3)
    assert "argument 1 (Duplicated): gradient received in its shadow (ReverseWithPrimal mode" in message, message
    got = [float(v) for v in re.search(r"got:\s+\[([^\]]*)\]", message).group(1).split(",")]
    expected = [float(v) for v in re.search(r"expected: \[([^\]]*)\]", message).group(1).split(",")]
    np.testing.assert_allclose(got, x, rtol=1e-12)
    np.testing.assert_allclose(expected, 2 * x, rtol=1e-7)


def test_wrong_reverse_rule_is_caught_by_gradcheck(wrong_lib: Any) -> None:
    message = _failure(gradcheck, wrong_lib.uses_quart, Active, Active(1.5), modes=["reverse"])
    assert "argument 1 (Active): derivative" in message


def test_reports_instead_of_raising(wrong_lib: Any, model_lib: Any) -> None:
    # raise_exception=False (torch.autograd.gradcheck's spelling) returns the failure; a pass is a true report.
    report = gradcheck(wrong_lib.uses_quart, Active, Active(1.5), raise_exception=False)
    assert not report and not report.passed
    assert report.checks == 4 and len(report.failures) == 1, str(report)
    assert str(report).startswith("gradcheck(uses_quart, Active, ...): 1 of 4 checks failed"), str(report)
    assert "argument 1 (Active): derivative (ReverseWithPrimal mode" in str(report)  # forward (the code) agrees
    assert test_forward(model_lib.scalar2, Duplicated, (1.3, Duplicated), 0.7, raise_exception=False)
    assert test_reverse(model_lib.scalar2, Active, (1.3, Active), 0.7).passed


# ----------------------------------------------------------------------------- misuse
@pytest.mark.parametrize("check,ret,args,match", [
    (test_forward, Duplicated, [(1.3, Active), 0.7], "Active is for reverse mode"),
    (test_reverse, Active, [(1.3, Duplicated), 0.7], "in reverse mode scalars are Active"),
    (test_reverse, Active, [Active, 0.7], "argument 1 is the activity Active without a value"),
    (test_forward, Active, [(1.3, Duplicated), 0.7], "return activity must be one of"),
    (test_reverse, Duplicated, [(1.3, Active), 0.7], "return activity must be Const or Active"),
    (test_forward, Const, [BatchDuplicated(1.3, (1.0, 2.0)), BatchDuplicated(0.7, (1.0, 2.0, 3.0))],
     "batch annotations have different widths"),
])
def test_misuse_is_a_usage_error(model_lib: Any, check: Any, ret: type, args: list[Any], match: str) -> None:
    with pytest.raises(UsageError, match=match):
        check(model_lib.scalar2, ret, *args)


def test_active_arrays_and_integers_are_refused(model_lib: Any) -> None:
    with pytest.raises(UsageError, match="is an array; arrays are Duplicated"):
        test_reverse(model_lib.sumsq, Active, (_arr(5), Active), 5)
    with pytest.raises(UsageError, match="argument 2 .* is not floating point"):
        test_reverse(model_lib.sumsq, Active, (_arr(5), Duplicated), (5, Active))
    with pytest.raises(UsageError, match="shadow must be an array of shape"):
        test_forward(model_lib.sumsq, Duplicated, Duplicated(_arr(5), np.zeros(4)), 5)


def test_random_directions_are_reproducible(model_lib: Any) -> None:
    messages = []
    for _ in range(2):
        with pytest.raises(AssertionError) as info:
            # an impossible tolerance makes it fail and print its numbers
            test_forward(model_lib.scalar2, Duplicated, (1.3, Duplicated), 0.7, rtol=0, atol=0,
                         fdm=central_fdm(2, 1), rng=7)
        messages.append(str(info.value))
    assert messages[0] == messages[1]


# ------------------------------------------------------------------- rules registered from Python
SOFTPLUS_C = """
#include <math.h>
__attribute__((noinline)) double softplus(double x) { return log1p(exp(x)); }
double model(double x, double y) { return softplus(x * y) * y; }
"""


def _softplus_lib(tmp_path: Any, factor: float) -> Any:
    """A library whose softplus has Python rules scaled by ``factor`` (1: correct)."""
    import math

    import enzyme

    source = tmp_path / "softplus.c"
    source.write_text(SOFTPLUS_C)
    lib = enzyme.compile([str(source)])

    def sigmoid(x: float) -> float:
        return 1.0 / (1.0 + math.exp(-x))

    enzyme.custom_rule(lib, "softplus",
                       forward=lambda x, dx: factor * sigmoid(x) * dx,
                       augmented_primal=lambda x: (math.log1p(math.exp(x)), None),
                       reverse=lambda x, dret, tape: factor * sigmoid(x) * dret)
    return lib


def test_correct_python_rules_pass(tmp_path: Any) -> None:
    lib = _softplus_lib(tmp_path, 1.0)
    gradcheck(lib.model, Active, Active(0.8), Active(-1.2))
    test_reverse(lib.model, Active, (0.8, Active), (-1.2, Active), split=True)


def test_wrong_python_rules_are_caught(tmp_path: Any) -> None:
    lib = _softplus_lib(tmp_path, 1.5)
    message = _failure(test_forward, lib.model, Duplicated, (0.8, Duplicated), -1.2)
    assert "tangent of the return value (Forward mode" in message
    message = _failure(test_reverse, lib.model, Active, (0.8, Active), (-1.2, Active))
    # both derivatives go through the rule: each argument is named
    assert "2 of 3 checks failed" in message.splitlines()[0]
    assert "argument 1 (Active): derivative (ReverseWithPrimal mode" in message
    assert "argument 2 (Active): derivative (ReverseWithPrimal mode" in message

"""``test_reverse``: reverse mode against finite differences (EnzymeTestUtils.test_reverse).

A call ``f(x)`` is the map ``x -> (r, x')``: the return value ``r`` and the
contents ``x'`` of every array after the call.  Reverse mode with shadows
``ȳ_j`` in the ``Duplicated`` arrays and the return seeded with 1 (``Active``)
computes the gradient of the scalar

    g(x) = ȳ_r r(x) + sum_j <ȳ_j, x_j'(x)>

into the shadows (each shadow then holds the adjoint of its array's *input*
contents) and returns it for the ``Active`` scalars.  The checker draws random
seeds ``ȳ_j``, runs ``autodiff(ReverseWithPrimal, ...)`` once (``ȳ_r = 1``), or with
``split=True`` ``autodiff_thunk(ReverseSplitWithPrimal, ...)``'s forward and reverse
thunks as EnzymeTestUtils does (``ȳ_r`` random), and compares

1. the primal return value and the arrays' contents after the call with a plain call;
2. each ``Active`` scalar's derivative with ``d/dt g(x + t e)`` by finite differences;
3. each ``Duplicated`` array's shadow with the finite-difference gradient of ``g``:
   element by element for arrays of at most ``FULL_GRADIENT_MAX`` elements, else
   as ``<shadow, v>`` for ``RANDOM_DIRECTIONS`` random directions ``v`` (a
   vector-Jacobian product checked against Jacobian-vector products, cheap for
   big arrays).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..api.annotations import (
    Active,
    Annotation,
    Const,
)
from ..errors import UsageError
from .arguments import (
    Argument,
    batch_width,
    copy_shadows,
    draw_shadows,
    make_rng,
    parse_arguments,
    random_like,
)
from .compare import Report
from .evaluate import Line, Outcome, call_plain, eps_of
from .fdm import FiniteDifferenceMethod
from .forward import DEFAULT_FDM, _title
from .run_ad import run_reverse, run_reverse_split

REVERSE_RETURNS = (Const, Active)
FULL_GRADIENT_MAX = 16
RANDOM_DIRECTIONS = 3


def _objective(arguments: Sequence[Argument], ret_seed: float, k: int) -> Callable[[Outcome], float]:
    """``outcome -> ret_seed * r + sum_j <ȳ_jk, x_j'>`` for batch slot ``k``."""
    seeded = [(a.index, a.shadows[k if a.is_batch else 0]) for a in arguments if a.has_shadow and a.is_array]

    def g(outcome: Outcome) -> float:
        total = ret_seed * float(outcome.ret) if ret_seed else 0.0
        for i, seed in seeded:
            total += float(np.vdot(np.asarray(seed, dtype=np.float64), np.asarray(outcome.after[i], np.float64)))
        return total

    return g


def _line(f: Callable[..., Any], arguments: Sequence[Argument], target: Argument, direction: Any) -> Line:
    return Line(f, arguments, [direction if a is target else None for a in arguments])


def _along(g: Callable[[Outcome], float], line: Line) -> Callable[[float], float]:
    """``t -> g(line(t))``: the scalar function whose derivative at 0 the finite differences take."""
    return lambda t: g(line(t))


def _unit(value: np.ndarray, flat_index: int) -> np.ndarray:
    e = np.zeros(value.size, dtype=value.dtype)
    e[flat_index] = 1
    return e.reshape(value.shape)


def test_reverse(f: Callable[..., Any], ret_activity: type[Annotation], *args: Any, rtol: float = 1e-9,
                 atol: float = 1e-9, fdm: FiniteDifferenceMethod = DEFAULT_FDM,
                 rng: np.random.Generator | int | None = None, testset_name: str | None = None,
                 split: bool = False, raise_exception: bool = True) -> Report:
    """Check reverse-mode derivatives of ``f`` against finite differences; AssertionError on any mismatch.

    ``ret_activity`` is Const or Active.  Each of ``args`` is a plain value (Const),
    an annotation such as ``Active(1.5)`` or ``Duplicated(x, dx)`` (``dx`` is the seed
    on ``x``'s contents after the call), or a pair ``(value, Activity)`` whose seed is
    drawn from ``rng`` (a numpy Generator or seed; None means a fixed seed).
    ``split=True`` differentiates with the split-mode thunks and a random seed on
    the return value instead of one ``autodiff`` call with seed 1.  Returns the
    :class:`~enzyme.testing.compare.Report`; ``raise_exception=False`` returns a failed
    one instead of raising.

    >>> import enzyme
    >>> from enzyme import Active
    >>> from enzyme.testing import central_fdm
    >>> lib = enzyme.compile("define double @mul(double %x, double %y) {\\n"
    ...                      "  %r = fmul double %x, %y\\n  ret double %r\\n}\\n")
    >>> test_reverse(lib.mul, Active, (1.5, Active), 2.0)
    <Report test_reverse(mul, Active, ...): all 2 checks passed>
    >>> test_reverse(lib.mul, Active, (1.5, Active), 2.0, fdm=central_fdm(2, 1), rtol=0, atol=0)
    Traceback (most recent call last):
    AssertionError: test_reverse(mul, Active, ...): 1 of 2 checks failed
    ...
    >>> report = test_reverse(lib.mul, Active, (1.5, Active), 2.0, fdm=central_fdm(2, 1), rtol=0, atol=0,
    ...                       raise_exception=False)
    >>> report.passed, report.checks, len(report.failures)
    (False, 2, 1)
    """
    __tracebackhide__ = True
    check = "test_reverse"
    if not (isinstance(ret_activity, type) and ret_activity in REVERSE_RETURNS):
        raise UsageError(f"{check}: return activity must be Const or Active, got {ret_activity!r}")
    arguments = parse_arguments(f, args, mode_name=check)
    for arg in arguments:
        if arg.has_shadow and not arg.is_array:
            raise UsageError(f"{check}: {arg.label} is a scalar; in reverse mode scalars are Active "
                             f"(their derivative is returned), pass (value, Active)")
    width = batch_width(arguments, ret_activity, check)
    generator = make_rng(rng)
    draw_shadows(arguments, width, generator)
    report = Report(_title(check, f, ret_activity, testset_name), rtol, atol)

    plain = call_plain(f, [a.fresh_value() for a in arguments])
    if ret_activity is Active and not isinstance(plain.ret, (float, np.floating)):
        raise UsageError(f"{check}: return activity Active needs a floating-point return value, "
                         f"{_title(check, f, ret_activity, None)} returned {plain.ret!r}; use Const")

    values = [a.fresh_value() for a in arguments]
    shadows = [copy_shadows(a) for a in arguments]
    annotations = [a.annotation(v, s) for a, v, s in zip(arguments, values, shadows)]
    ret_seed = 1.0 if ret_activity is Active else 0.0
    if split:
        mode = "ReverseSplitWithPrimal mode"
        if ret_activity is Active:
            ret_seed = float(generator.standard_normal())
        result = run_reverse_split(f, ret_activity, annotations, ret_seed if ret_activity is Active else None)
    else:
        mode = "ReverseWithPrimal mode"
        result = run_reverse(f, ret_activity, annotations)

    if plain.ret is not None:
        report.check(f"primal return value ({mode})", result.primal, plain.ret)
    for arg, after, expected in zip(arguments, values, plain.after):
        if arg.is_array and not arg.no_need:
            report.check(f"{arg.label}: contents after the differentiated call differ from the plain call's "
                         f"({mode})", after, expected)
    if len(result.derivatives) != len(arguments):
        report.fail(f"autodiff returned {len(result.derivatives)} derivatives for {len(arguments)} arguments")
        return report.finish(raise_exception)

    for k in range(width):
        slot = f" (batch slot {k + 1} of {width})" if width > 1 else ""
        g = _objective(arguments, ret_seed, k)
        for arg in arguments:
            eps = eps_of(arg.value, plain.ret, *(a.value for a in arguments if a.has_shadow))
            if arg.activity is Active:
                got = result.derivatives[arg.index]
                if width > 1 and isinstance(got, (tuple, list)):
                    got = got[k]
                one = type(arg.value)(1.0) if isinstance(arg.value, np.floating) else 1.0
                line = _line(f, arguments, arg, one)
                expected = fdm(_along(g, line), 0.0, eps=eps)
                report.check(f"{arg.label}: derivative{slot} ({mode}, vs {fdm!r})", got, expected)
            elif arg.has_shadow:
                # An argument the call only reads received its derivative on top of the seed it held; one the
                # call overwrites had its seed consumed: its shadow after the call is the derivative.
                slot_k = k if arg.is_batch else 0
                read_only = np.array_equal(plain.after[arg.index], arg.value)
                seed = arg.shadows[slot_k] if read_only else np.zeros_like(arg.value)
                _check_shadow(report, f, arguments, arg, shadows[arg.index][slot_k], seed, g, fdm,
                              eps, slot, mode, generator)
            elif result.derivatives[arg.index] is not None and arg.activity is Const:
                report.fail(f"{arg.label}: autodiff returned a derivative {result.derivatives[arg.index]!r} for a "
                            f"Const argument (expected None)")
    return report.finish(raise_exception)


def _check_shadow(report: Report, f: Callable[..., Any], arguments: Sequence[Argument], arg: Argument, got: Any,
                  seed: Any, g: Callable[[Outcome], float], fdm: FiniteDifferenceMethod, eps: float, slot: str,
                  mode: str, generator: np.random.Generator) -> None:
    """The derivative a Duplicated argument received: what the call added to its shadow (the shadow after the
    call minus ``seed``, the seed of a read-only argument, zero for an overwritten one), against finite
    differences of the seeded objective minus that seed's own contribution."""
    value: np.ndarray = arg.value
    added = np.asarray(got, np.float64) - np.asarray(seed, np.float64)
    if value.size <= FULL_GRADIENT_MAX:
        gradient = np.empty(value.shape, dtype=np.float64)
        for flat in range(value.size):
            line = _line(f, arguments, arg, _unit(value, flat))
            gradient.flat[flat] = fdm(_along(g, line), 0.0, eps=eps)
        report.check(f"{arg.label}: gradient received in its shadow{slot} ({mode}, vs {fdm!r} per element)",
                     added, gradient - np.asarray(seed, np.float64))
        return
    for r in range(RANDOM_DIRECTIONS):
        v = random_like(value, generator)
        line = _line(f, arguments, arg, v)
        expected = fdm(_along(g, line), 0.0, eps=eps) - float(np.vdot(np.asarray(seed, np.float64),
                                                                     np.asarray(v, np.float64)))
        projected = float(np.vdot(added, np.asarray(v, np.float64)))
        if not report.check(f"{arg.label}: <gradient received in its shadow, v>{slot} for random direction v "
                            f"#{r + 1} ({mode}, vs {fdm!r} along v)", projected, expected):
            return


test_reverse.__test__ = False  # type: ignore[attr-defined]

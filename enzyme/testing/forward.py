"""``test_forward``: forward mode against finite differences (EnzymeTestUtils.test_forward).

What is checked, for one call ``autodiff(ForwardWithPrimal or Forward, f, Ret, *annotated)``:

1. the primal return value equals the plain call's (when the mode returns it);
2. every array argument holds the same contents after the differentiated call as
   after the plain call (the derivative code mutates memory like the original);
3. for each tangent direction ``ẋ`` (one per batch slot), the tangent of the
   return and the shadow of every ``Duplicated`` array after the call equal
   ``d/dt F(x + t ẋ)`` at 0 by finite differences, where ``F`` maps the inputs to
   the return value and the arrays' contents after the call.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..api.annotations import (
    Active,
    Annotation,
    BatchDuplicated,
    BatchDuplicatedNoNeed,
    Const,
    Duplicated,
    DuplicatedNoNeed,
)
from ..errors import UsageError
from .arguments import batch_width, copy_shadows, draw_shadows, function_name, make_rng, parse_arguments
from .compare import Report
from .evaluate import Line, Outcome, call_plain, derivative_along, eps_of
from .fdm import FiniteDifferenceMethod, central_fdm
from .run_ad import run_forward

FORWARD_RETURNS = (Const, Duplicated, DuplicatedNoNeed, BatchDuplicated, BatchDuplicatedNoNeed)
DEFAULT_FDM = central_fdm(5, 1)


def _title(check: str, f: Callable[..., Any], ret: type[Annotation], testset_name: str | None) -> str:
    where = f"[{testset_name}] " if testset_name else ""
    return f"{where}{check}({function_name(f)}, {ret.__name__}, ...)"


def test_forward(f: Callable[..., Any], ret_activity: type[Annotation], *args: Any, rtol: float = 1e-9,
                 atol: float = 1e-9, fdm: FiniteDifferenceMethod = DEFAULT_FDM,
                 rng: np.random.Generator | int | None = None, testset_name: str | None = None,
                 raise_exception: bool = True) -> Report:
    """Check forward-mode derivatives of ``f`` against finite differences; AssertionError on any mismatch.

    Returns the :class:`~enzyme.testing.compare.Report` (true when every check passed);
    ``raise_exception=False`` returns a failed one instead of raising, like
    ``torch.autograd.gradcheck(raise_exception=False)``.

    ``ret_activity`` is one of Const, Duplicated, DuplicatedNoNeed, BatchDuplicated,
    BatchDuplicatedNoNeed.  Each of ``args`` is a plain value (Const), an annotation
    such as ``Duplicated(x, dx)`` (``dx`` is the tangent direction used), or a pair
    ``(value, Activity)`` whose tangent is drawn from ``rng`` (a numpy Generator or
    seed; None means a fixed seed).  Scalars take ``Duplicated`` in forward mode.

    >>> import enzyme
    >>> from enzyme import Duplicated
    >>> lib = enzyme.compile("define double @mul(double %x, double %y) {\\n"
    ...                      "  %r = fmul double %x, %y\\n  ret double %r\\n}\\n")
    >>> test_forward(lib.mul, Duplicated, (1.5, Duplicated), 2.0)
    <Report test_forward(mul, Duplicated, ...): all 2 checks passed>
    >>> bool(test_forward(lib.mul, Duplicated, Duplicated(1.5, 1.0), Duplicated(2.0, 0.5)))
    True
    """
    __tracebackhide__ = True  # pytest shows the caller's line, not ours
    check = "test_forward"
    if not (isinstance(ret_activity, type) and ret_activity in FORWARD_RETURNS):
        raise UsageError(f"{check}: return activity must be one of "
                         f"{', '.join(c.__name__ for c in FORWARD_RETURNS)}, got {ret_activity!r}")
    arguments = parse_arguments(f, args, mode_name=check)
    for arg in arguments:
        if arg.activity is Active:
            raise UsageError(f"{check}: {arg.label}: Active is for reverse mode; in forward mode a scalar takes a "
                             f"tangent, pass (value, Duplicated)")
    width = batch_width(arguments, ret_activity, check)
    generator = make_rng(rng)
    draw_shadows(arguments, width, generator)
    report = Report(_title(check, f, ret_activity, testset_name), rtol, atol)

    plain = call_plain(f, [a.fresh_value() for a in arguments])

    values = [a.fresh_value() for a in arguments]
    shadows = [copy_shadows(a) for a in arguments]
    annotations = [a.annotation(v, s) for a, v, s in zip(arguments, values, shadows)]
    result = run_forward(f, ret_activity, annotations, width)

    if result.has_primal and plain.ret is not None:
        report.check("primal return value (Forward mode)", result.primal, plain.ret)
    for arg, after, expected in zip(arguments, values, plain.after):
        if arg.is_array and not arg.no_need:
            report.check(f"{arg.label}: contents after the differentiated call differ from the plain call's "
                         f"(Forward mode)", after, expected)

    active = [a for a in arguments if a.has_shadow]
    outputs = [a for a in active if a.is_array]
    eps = eps_of(*(a.value for a in active), plain.ret)
    for k in range(width):
        slot = f" (direction {k + 1} of {width})" if width > 1 else ""
        directions = [a.shadows[k if a.is_batch else 0] if a.has_shadow else None for a in arguments]
        line = Line(f, arguments, directions)
        if result.tangents:
            expected_tangent = derivative_along(fdm, line, lambda o: o.ret, eps)
            report.check(f"tangent of the return value{slot} (Forward mode, vs {fdm!r})",
                         result.tangents[k], expected_tangent)
        for arg in outputs:
            i = arg.index
            expected_shadow = derivative_along(fdm, line, _shadow_after(i), eps)
            got = shadows[i][k if arg.is_batch else 0]
            report.check(f"{arg.label}: shadow after the call{slot} = tangent of its contents (Forward mode, "
                         f"vs {fdm!r})", got, expected_shadow)
    return report.finish(raise_exception)


test_forward.__test__ = False  # type: ignore[attr-defined]  # not a pytest test when imported into a test module


def _shadow_after(i: int) -> Callable[[Outcome], Any]:
    """What argument ``i`` holds after the call (the finite differences of its contents give its tangent)."""
    return lambda o: o.after[i]

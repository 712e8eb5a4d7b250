"""Tolerance checks and the failure report of ``test_forward``/``test_reverse``.

Two values ``got`` and ``expected`` agree when, as Julia's ``isapprox``,
``norm(got - expected) <= max(atol, rtol * max(norm(got), norm(expected)))``
(Euclidean norm over all elements).  Failures are collected and raised together as
one ``AssertionError`` whose first line says how many checks failed, so pytest
shows every wrong derivative of a call at once.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

# Long arrays are shown around their worst element only.
_SHOW_ELEMENTS = 8


def _as_array(value: Any) -> np.ndarray:
    return np.asarray(value, dtype=np.float64) if value is not None else np.asarray(np.nan)


def isapprox(got: Any, expected: Any, rtol: float, atol: float) -> bool:
    a, b = _as_array(got), _as_array(expected)
    if a.shape != b.shape:
        return False
    if not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))):
        # Infinities must match exactly and NaNs never pass (a NaN derivative is always a bug to report).
        same = np.array_equal(a, b)
        return bool(same and not np.any(np.isnan(a)))
    diff = float(np.linalg.norm(a - b))
    return diff <= max(atol, rtol * max(float(np.linalg.norm(a)), float(np.linalg.norm(b))))


def _fmt(value: np.ndarray) -> str:
    if value.ndim == 0:
        return f"{float(value):.17g}"
    flat = value.ravel()
    body = np.array2string(flat[:_SHOW_ELEMENTS], precision=12, separator=", ", max_line_width=200)
    if flat.size > _SHOW_ELEMENTS:
        body = body[:-1] + f", ... ({flat.size} elements)]"
    return body if value.ndim == 1 else f"{body} (shape {value.shape})"


def describe_mismatch(got: Any, expected: Any, rtol: float, atol: float) -> str:
    """Indented lines: expected, got, and the largest absolute and relative errors (with the element)."""
    a, b = _as_array(got), _as_array(expected)
    lines = [f"    expected: {_fmt(b)}", f"    got:      {_fmt(a)}"]
    if a.shape != b.shape:
        lines.append(f"    shapes differ: got {a.shape}, expected {b.shape}")
        return "\n".join(lines)
    with np.errstate(invalid="ignore", divide="ignore"):
        abs_err = np.abs(a - b)
        rel_err = abs_err / np.maximum(np.abs(b), np.finfo(np.float64).tiny)
    worst = np.unravel_index(int(np.nanargmax(abs_err)), abs_err.shape) if np.any(~np.isnan(abs_err)) else ()
    where = f" at index {tuple(int(i) for i in worst)}" if a.ndim and worst else ""
    max_abs = float(np.nanmax(abs_err)) if np.any(~np.isnan(abs_err)) else float("nan")
    max_rel = float(np.nanmax(rel_err)) if np.any(~np.isnan(rel_err)) else float("nan")
    lines.append(f"    max abs error {max_abs:.3g}{where}, max rel error {max_rel:.3g} (rtol={rtol:g}, atol={atol:g})")
    return "\n".join(lines)


@dataclass
class Report:
    """Failed checks of one test_forward/test_reverse call."""

    title: str
    rtol: float
    atol: float
    failures: list[str] = field(default_factory=list)
    checks: int = 0

    def check(self, what: str, got: Any, expected: Any, *, rtol: float | None = None,
              atol: float | None = None, note: str = "") -> bool:
        """Compare and record a failure named ``what``; True when they agree."""
        self.checks += 1
        rtol = self.rtol if rtol is None else rtol
        atol = self.atol if atol is None else atol
        if isapprox(got, expected, rtol, atol):
            return True
        suffix = f"\n    {note}" if note else ""
        self.failures.append(f"  {what}\n{describe_mismatch(got, expected, rtol, atol)}{suffix}")
        return False

    def fail(self, what: str) -> None:
        self.checks += 1
        self.failures.append(f"  {what}")

    @property
    def passed(self) -> bool:
        return not self.failures

    def __bool__(self) -> bool:
        return self.passed

    def __str__(self) -> str:
        if self.passed:
            return f"{self.title}: all {self.checks} checks passed"
        head = f"{self.title}: {len(self.failures)} of {self.checks} checks failed"
        return head + "\n" + "\n".join(self.failures)

    def __repr__(self) -> str:
        return f"<Report {str(self).splitlines()[0]}>"

    def merge(self, other: Report) -> None:
        """Take ``other``'s checks and failures (gradcheck's modes in one report)."""
        self.checks += other.checks
        self.failures += other.failures

    def finish(self, raise_exception: bool) -> Report:
        """``self``; with ``raise_exception``, AssertionError (the whole report) when a check failed."""
        __tracebackhide__ = True  # pytest shows the user's call, not this frame
        if raise_exception and self.failures:
            raise AssertionError(str(self))
        return self

"""The scanf family's table and format reading (enzyme/rules/scanf.py)."""
from __future__ import annotations

import doctest

import pytest

from enzyme.rules import scanf
from enzyme.rules.scanf import scanf_function, scanf_writes


def test_doctests() -> None:
    failed, attempted = doctest.testmod(scanf)
    assert attempted and not failed


@pytest.mark.parametrize(("fmt", "written"), [
    ("%lf %d", [("f", 8, True), ("d", 4, True)]),
    ("%Lf%hd%lld%zu", [("f", 16, True), ("d", 2, True), ("d", 8, True), ("d", 8, True)]),
    ("%% %*lf %[^,],%5c", [("[", None, True), ("c", 5, True)]),
    ("%[]x] %n", [("[", None, True), ("n", 4, False)]),
    ("%e%G%a", [("f", 4, True), ("f", 4, True), ("f", 4, True)]),
])
def test_destinations_of_a_format(fmt: str, written: list[tuple[str, int | None, bool]]) -> None:
    got = scanf_writes(fmt)
    assert got is not None and [(w.conversion, w.size, w.counted) for w in got] == written


@pytest.mark.parametrize("fmt", ["%1$d", "%ms", "%q", "%[abc", "%"])
def test_formats_not_understood(fmt: str) -> None:
    assert scanf_writes(fmt) is None


def test_family() -> None:
    assert scanf_function("__isoc99_sscanf").format == 1  # type: ignore[union-attr]
    assert scanf_function("scanf").first == 1  # type: ignore[union-attr]
    assert scanf_function("vsscanf") is None and scanf_function(None) is None

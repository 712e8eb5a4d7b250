"""Calls to functions the engine cannot see (no bitcode, no rule) that receive active memory are refused.

Leaving such a call alone would be silently wrong: ``qsort`` permutes the
values (their adjoints must follow), a library routine may scale them.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from test_refusals import LEVELS, refused

QSORT = """
static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
double f(double *x, int n) { qsort(x, n, sizeof(double), cmp); return 2 * x[0] + x[n - 1]; }
"""

EXTERNAL = """
void scale(double *x, int n);  /* in a library whose bitcode the link does not see */
double f(double *x, int n) { scale(x, n); return x[0] + x[1]; }
"""


@LEVELS
@pytest.mark.parametrize("entry", [
    "__enzyme_autodiff((void *)f, enzyme_dup, x, d, enzyme_const, n)",
    "__enzyme_fwddiff((void *)f, enzyme_dup, x, d, enzyme_const, n)"], ids=["reverse", "forward"])
@pytest.mark.parametrize("source", [QSORT, EXTERNAL], ids=["qsort", "external"])
def test_unseen_function_given_active_memory(tmp_path: Path, opt_level: int, entry: str, source: str) -> None:
    callee = "qsort" if "qsort" in source else "scale"
    body = source + f"double g(double *x, double *d, int n) {{ return {entry}; }}\n"
    message = refused(tmp_path, body, opt_level, rf"@{callee}")
    assert "no derivative rule" in message and "@f" in message

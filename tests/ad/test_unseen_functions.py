"""Calls to functions the engine cannot see (no bitcode, no rule) that receive active memory are refused.

Leaving such a call alone would be silently wrong: a library routine may
scale or permute the values.  (``qsort``, which permutes them, is differentiated
through a body pyenzyme supplies: programs/qsort_order_statistics.c.)
"""
from __future__ import annotations

from pathlib import Path

import pytest

from test_refusals import LEVELS, refused

EXTERNAL = """
void scale(double *x, int n);  /* in a library whose bitcode the link does not see */
double f(double *x, int n) { scale(x, n); return x[0] + x[1]; }
"""


@LEVELS
@pytest.mark.parametrize("entry", [
    "__enzyme_autodiff((void *)f, enzyme_dup, x, d, enzyme_const, n)",
    "__enzyme_fwddiff((void *)f, enzyme_dup, x, d, enzyme_const, n)"], ids=["reverse", "forward"])
def test_unseen_function_given_active_memory(tmp_path: Path, opt_level: int, entry: str) -> None:
    body = EXTERNAL + f"double g(double *x, double *d, int n) {{ return {entry}; }}\n"
    message = refused(tmp_path, body, opt_level, r"@scale")
    assert "no derivative rule" in message and "@f" in message

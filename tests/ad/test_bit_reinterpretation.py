"""Derivatives cannot follow a float's bits through integer code: such code is refused, not differentiated wrong."""
from __future__ import annotations

from pathlib import Path

import pytest

from enzyme.errors import DifferentiationError
from enzyme.pipeline import CompileOptions, TransformOptions, compile_sources, transform_module

SOURCE = """
#include <stdint.h>
#include <string.h>
extern int enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
/* The next double after x, computed on its bits: integer code on the bits of x. */
double bits_abs(double x) { uint64_t u; memcpy(&u, &x, 8); u += 1; double r; memcpy(&r, &u, 8); return r * x; }
"""
REQUESTS = {
    "reverse": "double rev(double x) { return __enzyme_autodiff((void *)bits_abs, x); }",
    "forward": "double fwd(double x) { return __enzyme_fwddiff((void *)bits_abs, x, 1.0); }",
}


@pytest.mark.parametrize("mode", sorted(REQUESTS))
@pytest.mark.parametrize("opt_level", [1, 2])
def test_integer_bit_tricks_are_refused(tmp_path: Path, opt_level: int, mode: str) -> None:
    src = tmp_path / "bits.c"
    src.write_text(SOURCE + REQUESTS[mode])
    module = compile_sources([src], CompileOptions(opt_level=opt_level, debug=True))
    with pytest.raises(DifferentiationError, match=r"bits_abs.*(integer bits|bits of an active)") as e:
        transform_module(module, TransformOptions(postopt_level=0), name="bits.c")
    assert "bits.c:" in str(e.value)

"""memcpy of active memory is reversed only when the copied bytes are known to hold one float type."""
from __future__ import annotations

from pathlib import Path

import pytest

from enzyme.errors import DifferentiationError
from enzyme.pipeline import CompileOptions, TransformOptions, compile_sources, transform_module

SOURCE = """
#include <string.h>
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
typedef struct { double v; long tag; } Item;
/* The copied bytes mix a double and an integer: moving adjoints as doubles would be wrong. */
double f(Item *dst, const Item *src, int n) {
  memcpy(dst, src, n * sizeof(Item));
  double s = 0;
  for (int i = 0; i < n; i++) s += dst[i].v * (double)dst[i].tag;
  return s;
}
double g(Item *d, Item *dd, const Item *s, Item *ds, int n) {
  return __enzyme_autodiff((void *)f, enzyme_dup, d, dd, enzyme_dup, s, ds, enzyme_const, n);
}
"""


@pytest.mark.parametrize("opt_level", [0, 2])
def test_memcpy_of_mixed_memory_is_refused(tmp_path: Path, opt_level: int) -> None:
    src = tmp_path / "mixed.c"
    src.write_text(SOURCE)
    module = compile_sources([src], CompileOptions(opt_level=opt_level, debug=True))
    with pytest.raises(DifferentiationError, match=r"not accessed as one floating-point type") as e:
        transform_module(module, TransformOptions(postopt_level=0), name="mixed.c")
    assert "mixed.c:" in str(e.value)

"""Idiomatic C++ (and aggregate copies in C) built at -O0..-O3: containers of records, std::function, std::sort,
std::map and std::set (libstdc++'s tree code mirrored on the shadow tree).

The programs in ``cxx_programs/`` check themselves like those in ``programs/`` (reverse against forward
mode and central differences).  At -O1..-O3 every one must differentiate; at -O0 clang emits no TBAA, and
the copies inside the standard library's small helpers (``std::function``'s manager copying the closure,
``vector`` relocating its records, ``fill`` of value-initialized records) have no type facts of their own:
those builds must either pass or be refused with the copy-layout message -- never a wrong number.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from enzyme.errors import DifferentiationError

from test_programs import build_and_run

CXX_PROGRAMS = Path(__file__).parent / "cxx_programs"
NAMES = sorted(p.name for p in CXX_PROGRAMS.iterdir() if p.suffix in (".c", ".cpp"))
#: The refusal an -O0 build may still give (untyped bytes in a library helper's copy).
O0_COPY_REFUSAL = r"cannot tell which copied bytes are floating-point data"

def _check(name: str, opt_level: int, tmp_path: Path) -> None:
    run = build_and_run([CXX_PROGRAMS / name], opt_level, tmp_path)
    mismatches = "\n".join(line for line in run.stdout.splitlines() if not line.startswith("ok "))
    assert run.returncode == 0 and "ALL OK" in run.stdout, f"{name} at -O{opt_level}:\n{mismatches}\n{run.stderr}"

@pytest.mark.parametrize("opt_level", [1, 2, 3])
@pytest.mark.parametrize("name", NAMES)
def test_cxx_program_optimized(name: str, opt_level: int, tmp_path: Path) -> None:
    _check(name, opt_level, tmp_path)

@pytest.mark.parametrize("name", NAMES)
def test_cxx_program_unoptimized_is_right_or_refused(name: str, tmp_path: Path) -> None:
    try:
        _check(name, 0, tmp_path)
    except DifferentiationError as e:
        assert O0_COPY_REFUSAL in str(e) and "\n" not in str(e), str(e)


#: Programs whose -O0 builds must differentiate (not only be right or refused): std::map's tree code mirrored on
#: the shadow tree, int copies through i32 in its nodes, std::function cloning a closure whose call operator
#: types every capture or whose record type types those it folds (closure_copies.py), std::hash<const char*> returning a key's address as its hash code,
#: std::fill of std::array<double, 3> elements (copy_records.template_element), std::string keys (short ones moved
#: into the node by a character copy, long ones with a shadow buffer from the mirrored std::string::_M_create).
O0_DIFFERENTIATES = ["cpp_fill_arrays.cpp", "cpp_function_capture.cpp", "cpp_function_const_capture.cpp", "cpp_map_sparse.cpp",
                     "cpp_map_string_keys.cpp",
                     "cpp_umap_pointer_keys.cpp"]


@pytest.mark.parametrize("name", O0_DIFFERENTIATES)
def test_cxx_program_unoptimized_differentiates(name: str, tmp_path: Path) -> None:
    _check(name, 0, tmp_path)


#: 32-bit integer copies (float_bits.copied_word_type): a float copied through i32 by a helper moves its adjoint,
#: a double copied as two i32 halves is never taken for two floats (right or refused, at every level).
WORD_COPIES = r"""
#include "check.h"
#include <stdint.h>
#include <string.h>
__attribute__((noinline)) static void copy_words(void *d, const void *s, int n) {
  for (int i = 0; i < n; ++i) {
    uint32_t w;
    memcpy(&w, (const char *)s + 4 * i, 4);
    memcpy((char *)d + 4 * i, &w, 4);
  }
}
double halves(double x) { double y; copy_words(&y, &x, 2); return y * y * x; }
double single(double x) {
  float a = (float)x, b;
  copy_words(&b, &a, 1);
  return (double)b * x;
}
int main() {
  double x = 1.7, v;
  check("halves", __enzyme_autodiff((void *)halves, x), CENTRAL(halves(v), v, x), 1e-6);
  check("single", __enzyme_autodiff((void *)single, x), CENTRAL_H(single(v), v, x, 1e-3), 1e-4);
  return finish();
}
"""


@pytest.mark.parametrize("opt_level", [0, 1, 2, 3])
def test_integer_word_copies_are_right_or_refused(opt_level: int, tmp_path: Path) -> None:
    source = tmp_path / "word_copies.c"
    source.write_text(WORD_COPIES)
    try:
        run = build_and_run([source], opt_level, tmp_path)
    except DifferentiationError as e:
        assert "copies memory through an integer" in str(e) or "integer" in str(e), str(e)
        return
    assert run.returncode == 0 and "ALL OK" in run.stdout, run.stdout + run.stderr

"""One program from three languages: a C ``main`` calling Fortran ``bind(C)``
routines and Rust ``extern "C"`` functions (tests/corpus/interop).

``enzyme compile main.c solver.f90 stats.rs -o prog.bc`` links the three into
one module; an object emitted through enzyme.llvm is linked into an
executable with the runtimes of all three languages, run, and its output
checked against numpy.  The second variant also passes the module through
our IR model (``enzyme opt --no-preopt --no-postopt``) first.
"""
from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from corpus.catalog import CORPUS_DIR

SOURCES = [CORPUS_DIR / "interop" / name for name in ("main.c", "solver.f90", "stats.rs")]
N = 6


def _expected_solution() -> np.ndarray:
    matrix = 4.0 * np.eye(N) - np.eye(N, k=1) - np.eye(N, k=-1)
    return np.linalg.solve(matrix, np.arange(1.0, N + 1.0))


def _value(pattern: str, stdout: str) -> str:
    match = re.search(pattern, stdout, re.MULTILINE)
    assert match, f"no line matching {pattern!r} in:\n{stdout}"
    return match.group(1)


@pytest.mark.parametrize("through_ir", [False, True], ids=["direct", "through-enzyme-ir"])
def test_c_main_calls_fortran_and_rust(through_ir: bool, tmp_path: Path,
                                       run_enzyme: Callable[..., subprocess.CompletedProcess[str]]) -> None:
    from enzyme import llvm
    from enzyme.toolchain import language_of, link_executable, link_libraries

    module_path = tmp_path / "prog.bc"
    run_enzyme("compile", *SOURCES, "-o", module_path)
    if through_ir:
        text_path = tmp_path / "prog.ll"
        run_enzyme("opt", "--no-preopt", "--no-postopt", module_path, "-o", text_path)
        module_path = text_path
    module = llvm.parse_file(module_path)
    assert {"main", "f_tridiagonal_solve", "rs_describe"} <= {f.name for f in module.functions if not f.is_declaration}

    obj = llvm.emit_object(module, tmp_path / "prog.o")
    languages = sorted({language_of(s) for s in SOURCES})
    program = link_executable([obj], tmp_path / "prog", libraries=link_libraries(languages))
    result = subprocess.run([str(program)], capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, f"exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    out = result.stdout

    # Fortran and C buffer stdout separately: check lines, not their order.
    assert f"fortran: solving {N} equations" in out.splitlines()
    x = np.array([float(v) for v in _value(r"^c: x =(.*)$", out).split()])
    np.testing.assert_allclose(x, _expected_solution(), atol=1e-6)
    assert float(_value(r"^c: residual (\S+)$", out)) < 1e-12
    mean, stddev = map(float, re.search(r"^c: mean (\S+) stddev (\S+)$", out, re.MULTILINE).groups())  # type: ignore[union-attr]
    assert mean == pytest.approx(x.mean(), abs=1e-6) and stddev == pytest.approx(x.std(), abs=1e-6)
    rust_line = _value(r"^(rust: .*)$", out)
    assert rust_line.startswith(f"rust: {N} values, max {x.max():.6f}, sorted [")
    assert int(_value(r"^c: rust wrote (\d+) characters$", out)) == len(rust_line)

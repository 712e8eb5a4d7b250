"""enzyme.compile(..., libraries=[...]): code calling into existing shared and static libraries, and what happens
to the functions that need a symbol no library defines."""
from __future__ import annotations

import subprocess
import warnings
from pathlib import Path

import numpy as np
import pytest

import enzyme
from enzyme.toolchain import find_tool

# The library, compiled by plain clang (pyenzyme never sees its body): per-element weights, constant for AD.
LIBRARY = """
#include <math.h>
double lib_weight(int i) { return 1.0 + 0.5 * sin((double)i); }
"""
PROGRAM = """
double lib_weight(int i);
double missing_scale(double);
double weighted_norm2(const double *x, int n) {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += lib_weight(i) * x[i] * x[i];
    return s;
}
double scaled(double x) { return missing_scale(x) * x; }
double calls_scaled(double x) { return scaled(x) + 1.0; }
/* reaches missing_scale only through a table of function pointers */
static double (*const transforms[])(double) = {missing_scale};
double through_table(double x, int k) { return transforms[k](x); }
"""


def _build(tmp_path: Path, kind: str) -> Path:
    clang = find_tool("clang").path
    (tmp_path / "weights.c").write_text(LIBRARY)
    if kind == "shared":
        out = tmp_path / "libweights.so"
        subprocess.run([clang, "-shared", "-fPIC", "-O2", tmp_path / "weights.c", "-o", out, "-lm"], check=True)
        return out
    subprocess.run([clang, "-c", "-fPIC", "-O2", tmp_path / "weights.c", "-o", tmp_path / "weights.o"], check=True)
    out = tmp_path / "libweights.a"
    subprocess.run(["ar", "rcs", out, tmp_path / "weights.o"], check=True)
    return out


@pytest.mark.parametrize("kind,spelling", [("shared", "path"), ("static", "path"), ("shared", "-l")])
def test_functions_calling_a_library(tmp_path: Path, kind: str, spelling: str) -> None:
    library = _build(tmp_path, kind)
    (tmp_path / "prog.c").write_text(PROGRAM)
    args = ({"libraries": [library]} if spelling == "path" else
            {"libraries": ["-lweights"], "library_dirs": [tmp_path]})
    with pytest.warns(enzyme.EnzymeWarning,
                      match=r"no library defines missing_scale; calls_scaled, scaled, through_table cannot"):
        lib = enzyme.compile([tmp_path / "prog.c"], **args)
    # The weights depend on an integer only; pyenzyme cannot see that without the body, the user says it.
    enzyme.custom_rule(lib, "lib_weight", inactive=True)
    x = np.array([0.5, -1.5, 2.0, 0.25])
    w = 1.0 + 0.5 * np.sin(np.arange(x.size))
    assert lib.weighted_norm2(x, x.size) == pytest.approx(np.sum(w * x * x), rel=1e-15)
    np.testing.assert_allclose(enzyme.gradient(enzyme.Reverse, lib.weighted_norm2, x, x.size), 2 * w * x, rtol=1e-15)
    np.testing.assert_allclose(enzyme.gradient(enzyme.Forward, lib.weighted_norm2, x, x.size), 2 * w * x, rtol=1e-15)
    # Only the functions that need the undefined symbol fail, naming it (also through a callee).
    with pytest.raises(enzyme.LinkError, match="^scaled needs missing_scale, which no loaded library defines"):
        lib.scaled(1.0)
    with pytest.raises(enzyme.LinkError, match="^calls_scaled needs missing_scale"):
        enzyme.gradient(enzyme.Reverse, lib.calls_scaled, 1.0)
    with pytest.raises(enzyme.LinkError, match="^through_table needs missing_scale"):
        lib.through_table(1.0, 0)


def test_all_symbols_defined_gives_no_warning(tmp_path: Path) -> None:
    (tmp_path / "prog.c").write_text(PROGRAM.split("double scaled")[0].replace("double missing_scale(double);", ""))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        lib = enzyme.compile([tmp_path / "prog.c"], libraries=[_build(tmp_path, "shared")])
    assert lib.weighted_norm2(np.ones(2), 2) == pytest.approx(2 + 0.5 * np.sin(1.0))


def test_bad_libraries(tmp_path: Path) -> None:
    (tmp_path / "prog.c").write_text(PROGRAM)
    with pytest.raises(enzyme.UsageError, match=r"library 'nosuchlib' \(libnosuchlib.so or libnosuchlib.a\) not found"):
        enzyme.compile([tmp_path / "prog.c"], libraries=["nosuchlib"])
    with pytest.raises(enzyme.UsageError, match=r"library \S*/gone.so does not exist"):
        enzyme.compile([tmp_path / "prog.c"], libraries=[tmp_path / "gone.so"])
    with pytest.raises(enzyme.UsageError, match="libraries must be a list"):
        enzyme.compile([tmp_path / "prog.c"], libraries="m")
    with pytest.raises(enzyme.UsageError, match=r"library directory \S*nodir does not exist"):
        enzyme.compile([tmp_path / "prog.c"], libraries=["m"], library_dirs=[tmp_path / "nodir"])

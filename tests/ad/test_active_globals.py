"""Mutable globals that carry derivatives get shadow globals; read-only globals get none.

The numbers are checked by the programs (tests/ad/programs/global_*.c against
central differences); here: which globals get a shadow, that the shadows are
zeroed around each derivative call, and the Python API (gradient called twice).
"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import enzyme
from enzyme import llvm
from enzyme.pipeline import CompileOptions, TransformOptions, compile_sources, transform_module

PROGRAMS = Path(__file__).parent / "programs"


def transformed(name: str, opt_level: int) -> str:
    module = compile_sources([PROGRAMS / name], CompileOptions(opt_level=opt_level, include_dirs=(PROGRAMS,)))
    return llvm.to_text(transform_module(module, TransformOptions(postopt_level=0), name=name))


def shadow_globals(ir: str) -> set[str]:
    return set(re.findall(r"^@([\w.]+_shadow\d*) = internal global", ir, re.MULTILINE))


@pytest.mark.parametrize("opt_level", [0, 2])
def test_only_written_globals_get_shadows(opt_level: int) -> None:
    ir = transformed("global_params_readonly.c", opt_level)
    # The parameters, the stoichiometry table and the integer counter are only read (or hold no floats).
    assert shadow_globals(ir) <= {"last_rate_shadow"}
    ir = transformed("global_md_energy.c", opt_level)
    shadows = shadow_globals(ir)
    # Two lanes each: the program also asks for width-2 batch derivatives.
    assert {"epot_shadow", "epot_shadow1", "virial_shadow", "trajectory_energy_shadow"} <= shadows
    assert not any(s.startswith(("lj_sigma", "lj_epsilon", "cutoff")) for s in shadows)


def test_shadows_are_zeroed_around_each_call() -> None:
    ir = transformed("global_md_energy.c", 2)
    main = ir[ir.rindex("\ndefine ", 0, ir.index("@main(")):]
    main = main[:main.index("\n}\n")]
    lines = main.splitlines()
    calls = [i for i, line in enumerate(lines) if re.search(r"call .*@(diffe|fwddiffe|augmented|reverse)\w*lj_energy", line)]
    assert calls
    for i in calls:
        split_reverse = re.search(r"@reverse\w*lj_energy", lines[i]) is not None
        augmented = re.search(r"@augmented\w*lj_energy", lines[i]) is not None
        assert zeroes_epot_shadow(lines[i - 1::-1]) == (not split_reverse), lines[i]
        assert zeroes_epot_shadow(lines[i + 1:]) == (not augmented), lines[i]


def zeroes_epot_shadow(lines: list[str]) -> bool:
    """Is the shadow of @epot among the memsets right next to the call (``lines`` going away from it)?"""
    for line in lines:
        if "@llvm.memset" not in line:
            return False
        if "@epot_shadow," in line:
            return True
    return False


SCRATCH = r"""
static double work[16];
double total;
double smooth(const double *x, int n) {
  for (int i = 0; i < n; i++) work[i] = x[i] * x[i];
  for (int i = 1; i + 1 < n; i++) total += 0.25 * work[i - 1] + 0.5 * work[i] + 0.25 * work[i + 1];
  return total;
}
"""


def test_python_gradient_twice(tmp_path: Path) -> None:
    """The accumulator keeps growing between calls; the gradient of this call's contribution does not."""
    src = tmp_path / "smooth.c"
    src.write_text(SCRATCH)
    lib = enzyme.compile([src])
    x = np.array([0.5, -1.0, 2.0, 0.25, 1.5])
    expected = np.zeros_like(x)
    for i in range(1, x.size - 1):
        expected[i - 1] += 0.5 * x[i - 1]
        expected[i] += 1.0 * x[i]
        expected[i + 1] += 0.5 * x[i + 1]
    for _ in range(2):
        dx = np.zeros_like(x)
        enzyme.autodiff(enzyme.Reverse, lib.smooth, enzyme.Active, enzyme.Duplicated(x, dx), enzyme.Const(x.size))
        np.testing.assert_allclose(dx, expected, rtol=1e-14)
        dxf = np.zeros_like(x)
        dxf[2] = 1.0
        tangent = enzyme.autodiff(enzyme.Forward, lib.smooth, enzyme.DuplicatedNoNeed, enzyme.Duplicated(x, dxf),
                                  enzyme.Const(x.size))[0]
        assert tangent == pytest.approx(expected[2], rel=1e-14)

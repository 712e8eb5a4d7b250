"""Upstream's sparse-Jacobian API: pointers made by ``__enzyme_todense`` (enzyme/driver/todense.py).

The programs in ``sparse_programs/`` assemble Hessians as triplet lists through todense pointers (the
seed and the column are functions, never dense arrays) and check every entry against central
differences of the reverse-mode gradient (and an analytic Hessian where there is one), plus the
sparsity they expect.  The ones in ``sparse_refused/`` use such pointers in ways whose meaning would
depend on optimization, and must be refused with one clear line.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from enzyme.errors import DifferentiationError
from enzyme.pipeline import CompileOptions, TransformOptions, compile_sources, transform_module

from test_programs import build_and_run

HERE = Path(__file__).parent
PROGRAMS = HERE / "sparse_programs"
REFUSED = HERE / "sparse_refused"


@pytest.mark.parametrize("opt_level", [0, 2])
@pytest.mark.parametrize("name", ["chain_hessian.cpp", "mesh_hessian.cpp", "flat_triangle_hessian.cpp"])
def test_sparse_hessian(name: str, opt_level: int, tmp_path: Path) -> None:
    run = build_and_run([PROGRAMS / name], opt_level, tmp_path)
    mismatches = "\n".join(line for line in run.stdout.splitlines() if not line.startswith("ok "))
    assert run.returncode == 0 and "ALL OK" in run.stdout, f"{name} at -O{opt_level}:\n{mismatches}\n{run.stderr}"


def test_sparse_hessian_todense_invoked(tmp_path: Path) -> None:
    """Declared without noexcept, __enzyme_todense is called with `invoke`; it becomes a branch."""
    run = build_and_run([PROGRAMS / "chain_hessian.cpp"], 2, tmp_path, flags=("-DTODENSE_MAY_THROW",))
    assert run.returncode == 0 and "ALL OK" in run.stdout, run.stdout[-2000:] + run.stderr


def test_sparse_hessian_with_debug_info(tmp_path: Path) -> None:
    """The load and store functions carry debug info; inlined into derivative code they must not break it."""
    run = build_and_run([PROGRAMS / "mesh_hessian.cpp"], 2, tmp_path, flags=("-g",))
    assert run.returncode == 0 and "ALL OK" in run.stdout, run.stdout[-2000:] + run.stderr


REFUSALS = {
    "scale_in_place.cpp": r"both read and written, but this read does not only feed one update",
    "escaping.cpp": r"store volatile ptr .* uses a pointer made by __enzyme_todense in @main.* in a way pyenzyme "
                    r"cannot turn into calls",
    "todense_inside_gradient.cpp": r"@__enzyme_todense has no body to differentiate and no derivative rule",
    "dupnoneed_reread.c": r"reads memory of an enzyme_dupnoneed argument whose writes the forward derivative "
                          r"leaves out",
}


@pytest.mark.parametrize("opt_level", [0, 2])
@pytest.mark.parametrize("name", sorted(REFUSALS))
def test_sparse_refusal(name: str, opt_level: int) -> None:
    module = compile_sources([REFUSED / name], CompileOptions(opt_level=opt_level))
    with pytest.raises(DifferentiationError, match=REFUSALS[name]) as info:
        transform_module(module, TransformOptions(postopt_level=opt_level), name=name)
    assert "\n" not in str(info.value)

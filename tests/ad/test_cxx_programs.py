"""Idiomatic C++ (and aggregate copies in C) built at -O0..-O3: containers of records, std::function, std::sort.

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
from enzyme.pipeline import CompileOptions, TransformOptions, compile_sources, transform_module

from test_programs import PROGRAMS, build_and_run

CXX_PROGRAMS = Path(__file__).parent / "cxx_programs"
CXX_REFUSED = Path(__file__).parent / "cxx_refused"
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


def _transform(source: Path, opt_level: int, defines: tuple[str, ...] = ()) -> None:
    module = compile_sources([source], CompileOptions(opt_level=opt_level, include_dirs=(PROGRAMS,), defines=defines))
    transform_module(module, TransformOptions(postopt_level=opt_level), name=source.name)


@pytest.mark.parametrize("opt_level", [1, 2, 3])
@pytest.mark.parametrize("defines", [(), ("FORWARD",)], ids=["reverse", "forward"])
def test_std_map_holding_derivatives_is_refused(opt_level: int, defines: tuple[str, ...]) -> None:
    """std::map's nodes are linked by libstdc++ code without bitcode: the shadow tree cannot follow."""
    with pytest.raises(DifferentiationError, match=r"_Rb_tree_\w+.*red-black tree code \(std::map, std::set\)") as info:
        _transform(CXX_REFUSED / "map_sparse_matrix.cpp", opt_level, defines)
    assert "\n" not in str(info.value)



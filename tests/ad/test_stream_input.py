"""Input streams inside a differentiated function: what ``std::istream`` stores (``operator>>``, ``read``,
``get``) carries no derivative and clears the derivative the destination held (rules.memory's INPUT kind).

The programs in ``stream_input/`` check themselves (analytic derivative, central differences, forward
against reverse).  At -O0 they must pass.  At -O1..-O3, where libstdc++'s inlined string and stream code
stores heap addresses into the stream objects, a build may still be refused with one clear line -- never a
wrong number.  With ``-fno-exceptions`` (no ``invoke``/landing pads) the configuration parser must pass
at every level.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from enzyme.errors import DifferentiationError
from enzyme.rules.memory import MemoryKind, lookup_memory

from test_programs import build_and_run

HERE = Path(__file__).parent / "stream_input"
NAMES = sorted(p.name for p in HERE.iterdir() if p.suffix == ".cpp")


def _run(name: str, opt_level: int, tmp_path: Path, flags: tuple[str, ...] = ()) -> None:
    run = build_and_run([HERE / name], opt_level, tmp_path, flags=flags)
    mismatches = "\n".join(line for line in run.stdout.splitlines() if not line.startswith("ok "))
    assert run.returncode == 0 and "ALL OK" in run.stdout, f"{name} at -O{opt_level}:\n{mismatches}\n{run.stderr}"


@pytest.mark.parametrize("name", NAMES)
def test_stream_input_unoptimized(name: str, tmp_path: Path) -> None:
    _run(name, 0, tmp_path)


@pytest.mark.parametrize("opt_level", [1, 2, 3])
@pytest.mark.parametrize("name", NAMES)
def test_stream_input_optimized_is_right_or_refused(name: str, opt_level: int, tmp_path: Path) -> None:
    try:
        _run(name, opt_level, tmp_path)
    except DifferentiationError as e:
        assert "\n" not in str(e), str(e)


@pytest.mark.parametrize("opt_level", [0, 2])
def test_stream_config_without_exceptions(opt_level: int, tmp_path: Path) -> None:
    _run("config.cpp", opt_level, tmp_path, flags=("-fno-exceptions",))


def test_input_rules() -> None:
    """The bytes each istream member stores: fixed by the extracted type, or counted by gcount()."""
    extract = lookup_memory("_ZNSi10_M_extractIdEERSiRT_")
    assert extract is not None and extract.kind is MemoryKind.INPUT and (extract.dst, extract.fixed) == (1, 8)
    floats = lookup_memory("_ZNSirsERf")
    assert floats is not None and floats.kind is MemoryKind.INPUT and floats.fixed == 4
    read = lookup_memory("_ZNSi4readEPcl")
    assert read is not None and read.kind is MemoryKind.INPUT and read.counted == "gcount" and read.fixed is None
    get = lookup_memory("_ZNSi3getEPclc")
    assert get is not None and get.counted == "gcount_nul"
    assert lookup_memory("_ZNSi10_M_extractIPvEERSiRT_") is None  # stores a pointer: not plain input

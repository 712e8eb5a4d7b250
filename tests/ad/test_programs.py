"""C programs calling __enzyme_autodiff / __enzyme_fwddiff, built through the pipeline at -O0..-O3.

Each program checks its derivatives against analytic formulas, central finite
differences and the other mode, and exits non-zero on any mismatch.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from enzyme import llvm, toolchain
from enzyme.pipeline import CompileOptions, TransformOptions, compile_sources, transform_module

PROGRAMS = Path(__file__).parent / "programs"
SOURCES = sorted(p.name for p in PROGRAMS.glob("*.c"))


def build_and_run(source: Path, opt_level: int, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    module = compile_sources([source], CompileOptions(opt_level=opt_level, include_dirs=(PROGRAMS,)))
    result = transform_module(module, TransformOptions(postopt_level=opt_level), name=source.name)
    obj = llvm.emit_object(result, tmp_path / "prog.o")
    exe = toolchain.link_executable([obj], tmp_path / "prog", libraries=["-lm"])
    return subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("opt_level", [0, 1, 2, 3])
@pytest.mark.parametrize("program", SOURCES)
def test_program(program: str, opt_level: int, tmp_path: Path) -> None:
    run = build_and_run(PROGRAMS / program, opt_level, tmp_path)
    assert run.returncode == 0 and "ALL OK" in run.stdout, run.stdout + run.stderr


def test_there_are_programs() -> None:
    assert len(SOURCES) >= 5

"""Differential testing on random programs (tests/ad/random/generate.py).

Each seed is a C program of random functions; its ``main`` compares reverse mode, forward mode, batch
forward and batch reverse (width 2) and central differences for every function, and exits non-zero on a
disagreement.  Fixed seeds keep the suite reproducible; run other seeds by hand to hunt for bugs.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from enzyme import llvm, toolchain
from enzyme.pipeline import CompileOptions, TransformOptions, compile_sources, transform_module

sys.path.insert(0, str(Path(__file__).parent / "random"))
from generate import program  # noqa: E402

SEEDS = [101, 202, 303]
FUNCTIONS = 12


@pytest.mark.parametrize("opt_level", [0, 2])
@pytest.mark.parametrize("seed", SEEDS)
def test_random_program(tmp_path: Path, seed: int, opt_level: int) -> None:
    src = tmp_path / f"random{seed}.c"
    src.write_text(program(seed, FUNCTIONS))
    module = compile_sources([src], CompileOptions(opt_level=opt_level))
    result = transform_module(module, TransformOptions(postopt_level=opt_level), name=src.name)
    bitcode = tmp_path / "prog.bc"
    bitcode.write_bytes(llvm.to_bitcode(result))
    obj = toolchain.compile_ir_object(bitcode, tmp_path / "prog.o", opt_level=opt_level)
    exe = toolchain.link_executable([obj], tmp_path / "prog", libraries=["-lm"])
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0 and "ALL OK" in run.stdout, (
        f"seed {seed} at -O{opt_level} (regenerate: python tests/ad/random/generate.py {seed} {FUNCTIONS}):\n"
        f"{run.stdout}{run.stderr}")

"""C++ programs whose class of problem is specific to debug builds (-O0), where libstdc++'s templates are not
inlined: built and run at -O0 only, each checking its derivatives against central differences and the other mode.

(A program here is refused at higher levels for another reason, recorded in its header; when that is fixed it
moves to tests/ad/programs, which runs every level.)
"""
from __future__ import annotations

from pathlib import Path

import pytest

from enzyme import llvm, toolchain
from enzyme.pipeline import CompileOptions, TransformOptions, compile_sources, transform_module
import subprocess

HERE = Path(__file__).parent / "debug_builds"
PROGRAMS_DIR = Path(__file__).parent / "programs"  # check.h


@pytest.mark.parametrize("program", sorted(p.name for p in HERE.glob("*.cpp")))
def test_debug_build(program: str, tmp_path: Path) -> None:
    module = compile_sources([HERE / program], CompileOptions(opt_level=0, include_dirs=(PROGRAMS_DIR,)))
    result = transform_module(module, TransformOptions(postopt_level=0), name=program)
    bitcode = tmp_path / "prog.bc"
    bitcode.write_bytes(llvm.to_bitcode(result))
    obj = toolchain.compile_ir_object(bitcode, tmp_path / "prog.o", opt_level=0)
    exe = toolchain.link_executable([obj], tmp_path / "prog", libraries=["-lm", "-lstdc++"])
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 0 and "ALL OK" in run.stdout, f"{program}:\n{run.stdout}\n{run.stderr}"

"""C and C++ programs calling __enzyme_autodiff / __enzyme_fwddiff, built through the pipeline at -O0..-O3.

Each program checks its derivatives against analytic formulas, central finite
differences and the other mode, and exits non-zero on any mismatch.

A program is one of:
- ``name.c`` / ``name.cpp``;
- ``name.c`` plus ``name_helper.c`` (two translation units linked into one module);
- a directory ``name/`` whose C and C++ files are linked into one module.
"""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from enzyme import llvm, toolchain
from enzyme.pipeline import CompileOptions, TransformOptions, compile_sources, transform_module

PROGRAMS = Path(__file__).parent / "programs"
SOURCE_SUFFIXES = (".c", ".cpp")
HELPER = "_helper"


def program_sources(name: str) -> list[Path]:
    """The sources of program ``name``: the file and its helper, or a directory's files in name order."""
    path = PROGRAMS / name
    if path.is_dir():
        return sorted(p for p in path.iterdir() if p.suffix in SOURCE_SUFFIXES)
    helpers = [path.with_name(path.stem + HELPER + suffix) for suffix in SOURCE_SUFFIXES]
    return [path, *(h for h in helpers if h.is_file())]


def is_program(path: Path) -> bool:
    if path.is_dir():
        return any(p.suffix in SOURCE_SUFFIXES for p in path.iterdir())
    return path.suffix in SOURCE_SUFFIXES and not path.stem.endswith(HELPER)


def discover() -> list[str]:
    return [path.name for path in sorted(PROGRAMS.iterdir()) if is_program(path)]


PROGRAM_NAMES = discover()


def build_and_run(sources: list[Path], opt_level: int, tmp_path: Path,
                  flags: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    module = compile_sources(sources, CompileOptions(opt_level=opt_level, include_dirs=(PROGRAMS,), flags=flags))
    result = transform_module(module, TransformOptions(postopt_level=opt_level), name=sources[0].name)
    bitcode = tmp_path / "prog.bc"
    bitcode.write_bytes(llvm.to_bitcode(result))
    # clang's backend, not llvmlite's: C++ static constructors must go to .init_array.
    obj = toolchain.compile_ir_object(bitcode, tmp_path / "prog.o", opt_level=opt_level)
    exe = toolchain.link_executable([obj], tmp_path / "prog", libraries=["-lm", "-lstdc++"])
    return subprocess.run([str(exe)], capture_output=True, text=True, timeout=60, check=False)


@pytest.mark.parametrize("opt_level", [0, 1, 2, 3])
@pytest.mark.parametrize("program", PROGRAM_NAMES)
def test_program(program: str, opt_level: int, tmp_path: Path) -> None:
    run = build_and_run(program_sources(program), opt_level, tmp_path)
    mismatches = "\n".join(line for line in run.stdout.splitlines() if not line.startswith("ok "))
    assert run.returncode == 0 and "ALL OK" in run.stdout, f"{program} at -O{opt_level}:\n{mismatches}\n{run.stderr}"


@pytest.mark.parametrize("opt_level", [0, 1, 2, 3])
def test_program_with_debug_info(opt_level: int, tmp_path: Path) -> None:
    """Debug information in the sources (-g) must not make LLVM reject the module after inlining."""
    run = build_and_run(program_sources("loops_debug_info.c"), opt_level, tmp_path, flags=("-g",))
    assert run.returncode == 0 and "ALL OK" in run.stdout, f"-O{opt_level}:\n{run.stdout}\n{run.stderr}"


# clang lowers bzero, bcopy and mempcpy to llvm.memset/memmove/memcpy; -fno-builtin (freestanding and
# embedded builds) keeps them calls, which the engine must handle from the memory table.
LIBRARY_CALLS = ("bzero", "bcopy", "mempcpy")


@pytest.mark.parametrize("opt_level", [0, 1, 2, 3])
def test_library_memory_calls_not_lowered(opt_level: int, tmp_path: Path) -> None:
    sources = program_sources("bsd_memory_calls.c")
    module = compile_sources(sources, CompileOptions(opt_level=opt_level, include_dirs=(PROGRAMS,),
                                                     flags=("-fno-builtin",)))
    called = set(re.findall(r"\bcall [^@]*@([\w.]+)\(", str(module)))
    assert set(LIBRARY_CALLS) <= called, f"the calls were lowered: {sorted(called)}"
    run = build_and_run(sources, opt_level, tmp_path, flags=("-fno-builtin",))
    mismatches = "\n".join(line for line in run.stdout.splitlines() if not line.startswith("ok "))
    assert run.returncode == 0 and "ALL OK" in run.stdout, f"-fno-builtin -O{opt_level}:\n{mismatches}\n{run.stderr}"


def test_there_are_programs() -> None:
    assert len(PROGRAM_NAMES) >= 60


def test_helpers_belong_to_a_program() -> None:
    """A ``name_helper.c`` without ``name.c`` would silently never be built."""
    for path in PROGRAMS.iterdir():
        if path.stem.endswith(HELPER):
            owners = [path.with_name(path.stem[: -len(HELPER)] + s) for s in SOURCE_SUFFIXES]
            assert any(o.is_file() for o in owners), f"{path.name} has no main program"

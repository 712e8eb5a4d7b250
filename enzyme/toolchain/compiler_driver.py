"""Run clang-22 / clang++ / flang-22 as ordinary compiler drivers.

The compiler wrappers hand over what they do not change: preprocessing,
assembly output, ``--version`` and friends, and assembler sources.
"""
from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from pathlib import Path

from enzyme.errors import ToolNotFoundError, UsageError
from enzyme.toolchain.tools import find_tool, run_tool

PathLike = str | os.PathLike[str]

# Wrapper driver -> (tool, arguments that select the driver's mode).
DRIVERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "cc": ("clang", ()),
    # What clang++ is: clang in g++ mode (C++ for .c inputs, libstdc++ when linking).
    "c++": ("clang", ("--driver-mode=g++",)),
    "flang": ("flang", ()),
}


def driver_command(driver: str) -> list[str]:
    """The program and mode arguments of wrapper ``driver`` (``cc``, ``c++`` or ``flang``)."""
    if driver not in DRIVERS:
        raise UsageError(f"unknown compiler driver {driver!r}; known: {', '.join(DRIVERS)}")
    tool_name, mode_args = DRIVERS[driver]
    return [find_tool(tool_name).path, *mode_args]


def run_driver(driver: str, args: Sequence[str]) -> int:
    """Run the real compiler with ``args`` unchanged, on our stdin/stdout/stderr; its exit status."""
    command = [*driver_command(driver), *args]
    try:
        return subprocess.run(command, check=False).returncode
    except OSError as exc:
        raise ToolNotFoundError(f"cannot run {command[0]}: {exc.strerror or exc}") from None


def compile_native_object(driver: str, source: PathLike, output: PathLike, *, flags: Sequence[str] = ()) -> Path:
    """``<driver> -c source -o output`` plus ``flags``: a plain object without bitcode (assembler sources)."""
    command = driver_command(driver)
    output = Path(output)
    run_tool([*command, *flags, "-c", str(source), "-o", str(output)],
             what=f"{Path(command[0]).name} failed on {source}", echo_warnings=True)
    return output

"""The compiler wrappers ``enzyme-cc``, ``enzyme-c++`` and ``enzyme-flang``.

Drop-ins for ``CC=``/``CXX=``/``FC=``: ``-c`` writes an ELF object that also
carries the translation unit's bitcode (section ``.enzyme.bitcode``); linking gathers the
bitcode of every input, links it into one module, differentiates every
``__enzyme_*`` request, and links the result with lld like clang would.
Commands that stop before an object (``-E``, ``-S``, ``-M``) and the
informational ones (``--version``, ``-v`` alone, ``-print-*``) run the real compiler unchanged.

    enzyme-cc -O2 -c main.c -o main.o && enzyme-cc -O2 -c f.c -o f.o
    enzyme-cc -O2 main.o f.o -o prog -lm
"""
from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path

from enzyme import toolchain
from enzyme.wrappers.args import DRIVER_NAMES, Invocation, parse_command_line
from enzyme.wrappers.compile import compile_objects
from enzyme.wrappers.link import link_program

__all__ = ["DRIVER_NAMES", "Invocation", "parse_command_line", "run_wrapper"]


def run_wrapper(driver: str, argv: Sequence[str]) -> int:
    """Run wrapper ``driver`` (``"cc"``, ``"c++"`` or ``"flang"``) on ``argv``; the exit status.

    Raises EnzymeError subclasses for every failure of ours; a delegated
    command returns the real compiler's status.
    """
    invocation = parse_command_line(driver, argv)
    if invocation.delegate:
        return toolchain.run_driver(driver, invocation.argv)
    with tempfile.TemporaryDirectory(prefix=f"{invocation.name}-") as scratch:
        if invocation.compile_only:
            compile_objects(invocation, Path(scratch))
        else:
            link_program(invocation, Path(scratch))
    return 0

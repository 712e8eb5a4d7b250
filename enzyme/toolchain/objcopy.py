"""Add sections to object files with llvm-objcopy-22.

The compiler wrappers use it to put a translation unit's bitcode into the
``.enzyme.bitcode`` section of the ELF object they write for ``-c``, so the final link
can differentiate across translation units.
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from enzyme.errors import ToolchainError
from enzyme.toolchain.tools import find_tool, run_tool

PathLike = str | os.PathLike[str]

# ``exclude`` (SHF_EXCLUDE) makes a linker drop the section, so an object linked by a
# plain linker does not drag its bitcode into the executable; ``readonly`` keeps it data.
EMBEDDED_SECTION_FLAGS = ("readonly", "exclude")


def add_section(
    obj: PathLike, output: PathLike, *, name: str, contents: PathLike,
    flags: Sequence[str] = EMBEDDED_SECTION_FLAGS,
) -> Path:
    """Copy object ``obj`` to ``output`` with a new section ``name`` holding the bytes of ``contents``.

    ``flags`` are llvm-objcopy section flags (``--set-section-flags``).
    """
    objcopy = find_tool("llvm-objcopy")
    output = Path(output)
    args = [objcopy.path, f"--add-section={name}={contents}"]
    if flags:
        args.append(f"--set-section-flags={name}={','.join(flags)}")
    run_tool(
        [*args, str(obj), str(output)],
        what=f"llvm-objcopy-{objcopy.llvm_major} could not add section {name} to {obj}", error=ToolchainError,
    )
    return output

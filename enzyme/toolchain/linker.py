"""Link objects into shared libraries and executables with clang-22 and lld."""
from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from enzyme.errors import LinkError
from enzyme.toolchain.tools import find_tool, run_tool

PathLike = str | os.PathLike[str]


def link_shared(objects: Sequence[PathLike], output: PathLike, *, libraries: Sequence[str] = ()) -> Path:
    """Link position-independent objects into a shared library.

    ``libraries`` are linker arguments (archives, ``-lfoo``), e.g. from
    ``link_libraries``; they come after the objects so archives resolve.
    """
    return _link(["-shared", *map(str, objects)], output, libraries, what="shared library")


def link_executable(objects: Sequence[PathLike], output: PathLike, *, libraries: Sequence[str] = ()) -> Path:
    """Link objects into an executable."""
    return _link([*map(str, objects)], output, libraries, what="executable")


def link_shared_whole_archive(archive: PathLike, output: PathLike, *, libraries: Sequence[str] = ()) -> Path:
    """Turn a static archive into a shared library exporting all of it (runtimes for the JIT)."""
    return _link(
        ["-shared", "-Wl,--whole-archive", str(archive), "-Wl,--no-whole-archive"],
        output, libraries, what="shared runtime library",
    )


def _link(inputs: list[str], output: PathLike, libraries: Sequence[str], *, what: str) -> Path:
    clang = find_tool("clang")
    lld = find_tool("ld.lld")
    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    run_tool(
        [clang.path, "-fuse-ld=lld", f"--ld-path={lld.path}", *inputs, *libraries, "-o", str(output)],
        what=f"linking {what} {output} failed", error=LinkError,
    )
    return output


def link_code_object(amdgpu_object: PathLike, output: PathLike) -> Path:
    """An AMDGPU object linked into a code object (``.hsaco``: a shared ELF the HIP runtime loads)."""
    lld = find_tool("ld.lld")
    output = Path(output)
    run_tool([lld.path, "-shared", str(amdgpu_object), "-o", str(output)],
             what=f"linking the AMDGPU code object {output} failed", error=LinkError)
    return output

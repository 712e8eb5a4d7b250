"""The files a Fortran compile reads besides its source, found by scanning (flang-22 writes no depfile).

A Fortran source reads ``include 'file'`` and ``#include "file"`` files and,
for every ``use m`` (and ``submodule (m)``), the module file ``m.mod``, which
flang writes as Fortran text that may ``use`` further modules.  The scan
follows all of them.  It over-approximates on purpose: every existing
candidate in every directory flang may search counts (the source's
directory, the working directory, ``-I`` directories and the module
directory), and statements inside ``#if`` branches count too, so a
dependency is never missed; the worst an extra entry does is trigger a
rebuild.  Intrinsic modules (``iso_c_binding``) live in flang's own
directory and belong to the compiler's version.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from enzyme.toolchain.depfiles import absolute

_INCLUDE = re.compile(r"""^\s*(?:#\s*include\s*[<"]|include\s*['"])([^'">]+)""", re.IGNORECASE)
_USE = re.compile(r"^\s*use\b\s*(?:,\s*(?:intrinsic|non_intrinsic)\s*)?(?:::)?\s*([a-z_]\w*)", re.IGNORECASE)
_SUBMODULE = re.compile(r"^\s*submodule\s*\(\s*([a-z_]\w*)\s*(?::\s*([a-z_]\w*))?\s*\)", re.IGNORECASE)


def fortran_dependencies(source: Path, search_dirs: Sequence[Path]) -> list[Path]:
    """Existing include and module files ``source`` may read, transitively, searched in ``search_dirs``.

    ``search_dirs`` are the ``-I`` and module directories of the compile; the
    source's own directory and the working directory are searched as well.
    """
    source = absolute(source)
    search_dirs = [absolute(d) for d in search_dirs]
    found: dict[Path, None] = {}
    pending = [source]
    seen: set[Path] = set()
    while pending:
        current = pending.pop()
        if current.resolve() in seen:  # one file under several spellings (dir/../dir/x.fi) is read once
            continue
        seen.add(current.resolve())
        try:
            text = current.read_text(errors="replace")
        except OSError:
            continue
        directories = [current.parent, Path.cwd(), *search_dirs]
        for name in _referenced_files(text):
            for candidate in _candidates(name, directories):
                found.setdefault(candidate)
                pending.append(candidate)
    found.pop(source, None)
    return list(found)


def _referenced_files(text: str) -> Iterable[str]:
    """File names the statements of ``text`` refer to (module names become ``<name>.mod``)."""
    for line in text.splitlines():
        for statement in line.split(";"):
            include = _INCLUDE.match(statement)
            if include:
                yield include.group(1).strip()
                continue
            use = _USE.match(statement)
            if use:
                yield f"{use.group(1).lower()}.mod"
                continue
            submodule = _SUBMODULE.match(statement)
            if submodule:
                ancestor, parent = submodule.group(1).lower(), submodule.group(2)
                yield f"{ancestor}.mod"
                yield f"{ancestor}-{parent.lower()}.smod" if parent else f"{ancestor}.smod"


def _candidates(name: str, directories: Sequence[Path]) -> list[Path]:
    if Path(name).is_absolute():
        return [Path(name)] if Path(name).is_file() else []
    return [directory / name for directory in directories if (directory / name).is_file()]

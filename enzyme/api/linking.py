"""Existing libraries for compiled code: ``enzyme.compile(..., libraries=[...], library_dirs=[...])``.

A library is a shared library path, a static library path (made into a
shared library once, in the cache: the JIT loads only those), or a name as
the linker takes it (``"m"``, ``"-lm"``), looked up in ``library_dirs`` and
then the system's library path.  A symbol that no library defines is not
fatal for the module: the functions that need it (directly or through their
callees) refuse to run, naming the symbol; the others work.
"""
from __future__ import annotations

import ctypes.util
import hashlib
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ..errors import LinkError, UsageError

PathLike = str | os.PathLike[str]
_SHARED_SUFFIXES = (".so", ".dylib")


def resolve_libraries(libraries: Sequence[PathLike], library_dirs: Sequence[PathLike]) -> tuple[str, ...]:
    """Absolute paths of the shared libraries to load for ``libraries``."""
    if isinstance(libraries, (str, os.PathLike)):
        raise UsageError("enzyme.compile: libraries must be a list, e.g. libraries=['m'] or ['/path/libfoo.so']")
    dirs = [Path(d) for d in library_dirs]
    for d in dirs:
        if not d.is_dir():
            raise UsageError(f"enzyme.compile: library directory {d} does not exist")
    return tuple(_resolve(str(lib), dirs) for lib in libraries)


def _resolve(library: str, dirs: list[Path]) -> str:
    path = Path(library)
    if "/" in library or path.suffix in (".a", *_SHARED_SUFFIXES) or ".so." in path.name:
        if not path.is_file():
            raise UsageError(f"enzyme.compile: library {library} does not exist")
        return str(_shared_from_archive(path) if path.suffix == ".a" else path.resolve())
    name = library[2:] if library.startswith("-l") else library
    for d in dirs:
        for candidate in (d / f"lib{name}.so", d / f"lib{name}.a"):
            if candidate.is_file():
                return _resolve(str(candidate), dirs)
    found = ctypes.util.find_library(name)
    if found is None:
        searched = ", ".join(map(str, dirs)) + " and " if dirs else ""
        raise UsageError(f"enzyme.compile: library {library!r} (lib{name}.so or lib{name}.a) not found in "
                         f"{searched}the system's library path; pass its path or library_dirs=[...]")
    return found


def _shared_from_archive(archive: Path) -> Path:
    """The archive as a shared library, made once per content into the cache."""
    from ..toolchain.cache import cached_entry
    from ..toolchain.linker import link_shared_whole_archive

    digest = hashlib.sha256(archive.read_bytes()).hexdigest()[:16]
    name = f"{archive.stem}.so"

    def build(directory: Path) -> None:
        link_shared_whole_archive(archive, directory / name)

    return cached_entry(f"archive-{archive.stem}-{digest}", build) / name


def functions_needing(ir_module: Any, missing: Iterable[str]) -> dict[str, list[str]]:
    """For each defined function, the symbols of ``missing`` it uses, directly or through what it references:
    functions it calls or takes the address of, globals (a table of function pointers) and theirs in turn;
    functions that need none are left out."""
    from ..ir import ConstantAggregate, ConstantExpr, Function, GlobalVariable

    def referenced(values: Iterable[Any]) -> set[str]:
        names: set[str] = set()
        work = list(values)
        while work:
            v = work.pop()
            if isinstance(v, (Function, GlobalVariable)):
                names.add(str(v.name))
            elif isinstance(v, ConstantAggregate):
                work += v.elements
            elif isinstance(v, ConstantExpr):
                work += v.operands
        return names

    missing = set(missing)
    refs: dict[str, set[str]] = {}  # defined functions and initialized globals -> the symbols they reference
    for f in ir_module.functions:
        if not f.is_declaration:
            refs[str(f.name)] = referenced(op for inst in f.instructions() for op in inst.operands)
    for g in ir_module.global_variables:
        if g.initializer is not None:
            refs[str(g.name)] = referenced([g.initializer])
    needs: dict[str, list[str]] = {}
    for f in ir_module.functions:
        if f.is_declaration:
            continue
        seen, work, found = {str(f.name)}, [str(f.name)], set()
        while work:
            for h in refs.get(work.pop(), ()):
                if h in missing:
                    found.add(h)
                elif h in refs and h not in seen:
                    seen.add(h)
                    work.append(h)
        if found:
            needs[str(f.name)] = sorted(found)
    return needs


def refusal(function: str, symbols: Sequence[str], library: str) -> LinkError:
    return LinkError(f"{function} needs {', '.join(symbols)}, which no loaded library defines ({library} was "
                     "built without it); pass the library that defines it: enzyme.compile(..., libraries=[...])")

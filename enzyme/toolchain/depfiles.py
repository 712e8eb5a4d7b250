"""Make-style dependency files: what a compile read, for build systems and pyenzyme's own cache.

Every frontend writes one when asked (``CompileRequest.depfile``): clang its own
(``-MD``), rustc its ``dep-info`` (with ``# env-dep:NAME=value`` lines for
``env!``), flang-22 none, so pyenzyme scans Fortran sources itself
(:mod:`enzyme.toolchain.fortran_dependencies`).  This module reads and writes
them in the syntax make, Ninja and rustc share: ``target: prerequisite ...``
with ``\\``-newline continuations, spaces escaped as ``\\ `` and ``$`` as ``$$``.
"""
from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

_ENV_DEP = "# env-dep:"


@dataclass(frozen=True)
class Depfile:
    """The prerequisites of a depfile's rules and the environment variables it records (None: unset)."""

    prerequisites: tuple[Path, ...]
    environment: Mapping[str, str | None] = field(default_factory=dict)


def absolute(path: str | os.PathLike[str]) -> Path:
    """``path`` made absolute against the working directory, as spelled (``..`` and links are not resolved:
    the file is the one a compiler opened by that name)."""
    path = Path(path)
    return path if path.is_absolute() else Path.cwd() / path


def read_depfile(path: str | os.PathLike[str]) -> Depfile:
    """The prerequisites of every rule in ``path`` (in order, each once) and its ``# env-dep:`` lines."""
    prerequisites: dict[Path, None] = {}
    environment: dict[str, str | None] = {}
    text = Path(path).read_text(errors="surrogateescape")
    for line in text.replace("\\\r\n", " ").replace("\\\n", " ").splitlines():
        if line.startswith(_ENV_DEP):
            name, sep, value = line[len(_ENV_DEP):].partition("=")
            environment[name] = value if sep else None
            continue
        if line.lstrip().startswith("#"):
            continue
        words = _split_words(line)
        colon = next((i for i, w in enumerate(words) if w.endswith(":") and not w.endswith("\\:")), None)
        if colon is None:
            continue
        prerequisites.update(dict.fromkeys(Path(_unescape(w)) for w in words[colon + 1:] if w))
    return Depfile(tuple(prerequisites), environment)


def write_depfile(path: str | os.PathLike[str], target: str | os.PathLike[str], prerequisites: Iterable[Path],
                  environment: Mapping[str, str | None] | None = None) -> Path:
    """Write one rule ``target: prerequisites`` (and ``# env-dep:`` lines) to ``path``."""
    lines = [" \\\n  ".join([f"{_escape(target)}:", *(_escape(p) for p in dict.fromkeys(prerequisites))])]
    for name, value in (environment or {}).items():
        lines.append(f"{_ENV_DEP}{name}" + ("" if value is None else f"={value}"))
    path = Path(path)
    path.write_text("\n".join(lines) + "\n", errors="surrogateescape")
    return path


def _escape(path: str | os.PathLike[str]) -> str:
    """``path`` as a depfile word."""
    return str(path).replace("$", "$$").replace("#", "\\#").replace(" ", "\\ ")


# Flags that name a directory the compilers search for headers, modules or crates.
_SEARCH_FLAGS = ("-I", "-iquote", "-isystem", "-idirafter", "-J", "-module-dir", "-L")
_RUSTC_SEARCH_KINDS = {"dependency", "crate", "native", "framework", "all"}


def search_directories(flags: Sequence[str]) -> list[Path]:
    """The directories ``flags`` add to a compiler's search path (``-Idir``, ``-I dir``, rustc's ``-L kind=dir``)."""
    found: list[Path] = []
    for i, flag in enumerate(flags):
        name = next((n for n in _SEARCH_FLAGS if flag.startswith(n)), None)
        if name is None:
            continue
        value = flag[len(name):].removeprefix("=")
        if not value:
            if i + 1 == len(flags):
                continue
            value = flags[i + 1]
        kind, sep, rest = value.partition("=")
        if name == "-L" and sep and kind in _RUSTC_SEARCH_KINDS:
            value = rest
        found.append(Path(value))
    return found


def _split_words(line: str) -> list[str]:
    """Words separated by unescaped blanks, escapes kept (``\\ `` stays inside its word)."""
    words: list[str] = []
    current: list[str] = []
    chars = iter(line)
    for char in chars:
        if char == "\\":
            current += [char, next(chars, "")]
        elif char in " \t":
            if current:
                words.append("".join(current))
                current = []
        else:
            current.append(char)
    if current:
        words.append("".join(current))
    return words


def _unescape(word: str) -> str:
    out: list[str] = []
    chars = iter(word)
    for char in chars:
        if char == "\\":
            following = next(chars, "")
            out.append(following if following in " #:\\" else "\\" + following)
        elif char == "$":
            following = next(chars, "")
            out.append("$" if following == "$" else "$" + following)
        else:
            out.append(char)
    return "".join(out)

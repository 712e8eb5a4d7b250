"""What a cached compile was made from, and whether the files on disk still say the same.

A compile depends on every file the compilers read (sources, headers
wherever they are, Fortran include and module files, Rust modules and
crates: the compilers' own dependency lists, see
:func:`enzyme.pipeline.compile_sources_with_dependencies`), on the
environment variables Rust's ``env!`` read, and on files that do *not*
exist yet: a header created in a directory searched before the one a
header was found in would be read instead.  :class:`Dependencies` records
a sha256 of each file, the values of the variables, and, for each
directory holding a dependency or named as an include directory, the names
of the files in it that could shadow one (headers, module files, and files
with the suffixes of the dependencies found there).

A file that changed while the compilers ran may have been read before or
after the change, so such a compile is not recorded (:func:`record` returns
None).  Files whose contents were hashed before the compile are compared
by contents; others by their modification and change times against the
compile's start (with a margin for coarse file-system clocks).
"""
from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Names that #include, INCLUDE or `use` may resolve to, whatever files were found this time.
SHADOWING_SUFFIXES = frozenset({".h", ".hh", ".hpp", ".hxx", ".h++", ".inc", ".inl", ".ipp", ".tcc", ".def",
                                ".mod", ".smod", ".fi", ".fh"})
# A file changed this close to (or after) the start of a compile may or may not have been read as it is now.
RACY_NS = 20_000_000


@dataclass(frozen=True)
class Dependencies:
    """Digests of the files and directory listings a compile depended on, and the environment it read."""

    files: tuple[tuple[str, str], ...] = ()  # (absolute path, sha256 of the contents)
    # (directory, watched suffixes, sha256 of the sorted names with those suffixes, or "absent")
    directories: tuple[tuple[str, tuple[str, ...], str], ...] = ()
    environment: tuple[tuple[str, str | None], ...] = ()

    def is_current(self) -> bool:
        """Whether every file, listing and variable is still as recorded."""
        # Plain strings, not Paths: a C++ entry checks hundreds of files and directories per lookup.
        return (all(os.environ.get(name) == value for name, value in self.environment)
                and all(listing_digest(listing(d), suffixes) == digest for d, suffixes, digest in self.directories)
                and all(file_digest(path) == digest for path, digest in self.files))

    def to_json(self) -> dict[str, Any]:
        return {"files": [list(f) for f in self.files],
                "directories": [[d, list(s), digest] for d, s, digest in self.directories],
                "environment": [list(e) for e in self.environment]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Dependencies:
        files = tuple((str(path), str(digest)) for path, digest in data["files"])
        directories = tuple((str(d), tuple(str(s) for s in suffixes), str(digest))
                            for d, suffixes, digest in data["directories"])
        environment = tuple((str(name), None if value is None else str(value)) for name, value in data["environment"])
        return cls(files, directories, environment)


def file_digest(path: str | os.PathLike[str]) -> str | None:
    """sha256 of the file's contents, or None when it cannot be read."""
    try:
        with open(path, "rb") as file:
            return hashlib.sha256(file.read()).hexdigest()
    except OSError:
        return None


def listing(directory: str | os.PathLike[str]) -> frozenset[str] | None:
    """Names of the directory's entries, or None when it does not exist."""
    try:
        return frozenset(os.listdir(directory))
    except OSError:
        return None


def listing_digest(names: frozenset[str] | None, suffixes: Iterable[str]) -> str:
    """A digest of the ``names`` with one of ``suffixes`` (``"absent"`` for a missing directory)."""
    if names is None:
        return "absent"
    watched = set(suffixes)
    chosen = sorted(n for n in names if _suffix(n) in watched)
    return hashlib.sha256("\0".join(chosen).encode(errors="surrogateescape")).hexdigest()


def _suffix(name: str) -> str:
    """``Path(name).suffix.lower()``, without building a Path (directories like /usr/include are long)."""
    dot = name.rfind(".")
    return name[dot:].lower() if 0 < dot < len(name) - 1 else ""


def record(files: Iterable[Path], directories: Iterable[Path], environment: Mapping[str, str | None], *,
           started_ns: int, known_files: Mapping[Path, str], known_listings: Mapping[Path, frozenset[str] | None],
           sources: Iterable[Path] = ()) -> Dependencies | None:
    """The dependencies of a compile that started at ``started_ns``, or None if one changed meanwhile.

    ``known_files`` are digests taken before the compile (the sources) and
    ``known_listings`` directory listings taken then; ``sources`` are the
    compiled files (their suffixes are not watched in their directories:
    a new ``.c`` file next to one cannot change what it includes).
    """
    files = list(dict.fromkeys(files))
    digests: list[tuple[str, str]] = []
    for path in files:
        digest = file_digest(path)
        if digest is None:
            return None
        known = known_files.get(path)
        if (digest != known) if known is not None else _changed_since(path, started_ns):
            return None
        digests.append((str(path), digest))
    source_set = set(sources)
    suffixes: dict[Path, set[str]] = {Path(d): set(SHADOWING_SUFFIXES) for d in directories}
    for path in files:
        watched = suffixes.setdefault(path.parent, set(SHADOWING_SUFFIXES))
        if path not in source_set:
            watched.add(_suffix(path.name))
    listings: list[tuple[str, tuple[str, ...], str]] = []
    for directory, watched in suffixes.items():
        names = listing(directory)
        chosen = tuple(sorted(watched))
        if directory in known_listings:
            before = known_listings[directory]
            if listing_digest(before, chosen) != listing_digest(names, chosen):
                return None
        elif names is not None and _changed_since(directory, started_ns):
            return None
        listings.append((str(directory), chosen, listing_digest(names, chosen)))
    return Dependencies(tuple(digests), tuple(listings), tuple(sorted(environment.items())))


def _changed_since(path: Path, started_ns: int) -> bool:
    """Whether ``path`` may have changed after ``started_ns`` (its change time, which no tool sets back, counts)."""
    try:
        stat = path.stat()
    except OSError:
        return True
    return max(stat.st_mtime_ns, stat.st_ctime_ns) >= started_ns - RACY_NS

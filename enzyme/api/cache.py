"""Caches of compiled modules: in memory for this process, on disk across processes.

An entry is an LLVM bitcode blob and the :class:`~enzyme.api.dependencies.Dependencies`
it was made from.  It is found by a sha256 key over everything known before
compiling (the sources, the options, the compilers' versions, and a
fingerprint of pyenzyme's own code and of llvmlite, so an edited or
upgraded engine never reuses what an older one made), and it is used only
while its dependencies are current: a header changed anywhere, not only next
to the sources, makes a lookup miss, and the compile that follows replaces
the entry.  Entries live under ``$ENZYME_CACHE_DIR/api`` (default
``~/.cache/pyenzyme/api``); a file appears whole or not at all (written
beside, then renamed), so concurrent processes share the cache safely.
``ENZYME_NO_DISK_CACHE=1`` turns the disk side off.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path

from .dependencies import Dependencies

_MAGIC = b"pyenzyme-cache-entry 1\n"
_SUFFIX = ".entry"
_memory: dict[str, tuple[Dependencies, bytes]] = {}
# Entries that depend on nothing outside their key (modules made from other modules).
NOTHING = Dependencies()


@functools.cache
def engine_fingerprint() -> str:
    """A sha256 over pyenzyme's own files and the llvmlite (LLVM) it runs on; computed once per process.

    Keys carry it so that results made by other code (an edited checkout, an
    upgrade that kept the version number) are never reused.
    """
    import llvmlite

    from .. import _paths

    # The clang plugin's source sits outside the package in a checkout (frontends/clang): it decides what
    # Enzyme's source attributes mean, so it is part of the engine.
    plugin = hashlib.sha256(_paths.clang_plugin_source().read_bytes()).hexdigest()
    return package_fingerprint(Path(__file__).resolve().parents[1],
                               f"llvmlite {llvmlite.__version__}; python {sys.version_info[:2]}; plugin {plugin}")


def package_fingerprint(package: Path, salt: str = "") -> str:
    """A sha256 over the names and contents of the files under ``package`` (bytecode caches left out)."""
    h = hashlib.sha256(salt.encode())
    for path in sorted(package.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            h.update(str(path.relative_to(package)).encode(errors="surrogateescape") + b"\0")
            h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


def cache_key(*parts: bytes | str) -> str:
    """A sha256 hex digest over ``parts`` and the engine fingerprint (unambiguous: parts are length-prefixed)."""
    h = hashlib.sha256()
    for part in (engine_fingerprint(), *parts):
        data = part.encode() if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


def _disk_enabled() -> bool:
    return os.environ.get("ENZYME_NO_DISK_CACHE", "") not in ("1", "true", "yes")


def _directory() -> Path:
    from ..toolchain import cache_dir

    path = cache_dir() / "api"
    path.mkdir(parents=True, exist_ok=True)
    return path


def load(key: str) -> bytes | None:
    """The cached blob for ``key``, from memory or disk, if its dependencies are current; else None."""
    entry = _memory.get(key)
    if entry is None and _disk_enabled():
        entry = _read_entry(key)
    if entry is None or not entry[0].is_current():
        return None
    _memory[key] = entry
    return entry[1]


def store(key: str, blob: bytes, dependencies: Dependencies = NOTHING) -> None:
    """Remember ``blob`` under ``key`` for as long as ``dependencies`` stay current."""
    _memory[key] = (dependencies, blob)
    _write_entry(key, blob, dependencies)


def _write_entry(key: str, blob: bytes, dependencies: Dependencies) -> None:
    if not _disk_enabled():
        return
    try:
        directory = _directory()
        handle, temp = tempfile.mkstemp(prefix=f".{key}.", dir=directory)
        with os.fdopen(handle, "wb") as out:
            out.write(_MAGIC + json.dumps(dependencies.to_json()).encode() + b"\n" + blob)
        os.replace(temp, directory / f"{key}{_SUFFIX}")
    except OSError:
        pass  # a read-only or full cache directory only costs speed


def _read_entry(key: str) -> tuple[Dependencies, bytes] | None:
    try:
        data = (_directory() / f"{key}{_SUFFIX}").read_bytes()
    except OSError:
        return None
    header, _, rest = data.partition(b"\n")
    manifest, _, blob = rest.partition(b"\n")
    if header + b"\n" != _MAGIC:
        return None
    try:
        return Dependencies.from_json(json.loads(manifest)), blob
    except (ValueError, KeyError, TypeError):
        return None  # written by another format: compile again


def clear_memory() -> None:
    """Forget the in-memory entries (tests use it to measure disk hits)."""
    _memory.clear()


class DiskEntry:
    """One blob on disk under ``key`` only (the JIT's object images: large, and read once per process)."""

    def __init__(self, key: str) -> None:
        self.key = key

    def load(self) -> bytes | None:
        if not _disk_enabled():
            return None
        entry = _read_entry(self.key)
        return entry[1] if entry is not None else None

    def store(self, blob: bytes) -> None:
        _write_entry(self.key, blob, NOTHING)

"""Caches of compiled modules: in memory for this process, on disk across processes.

Entries are LLVM bitcode blobs keyed by a sha256 over everything that
determines them (input module, generated wrapper, pyenzyme version), stored
under ``$ENZYME_CACHE_DIR/api`` (default ``~/.cache/pyenzyme/api``).  A file
appears whole or not at all (written beside, then renamed), so concurrent
processes share the cache safely.  ``ENZYME_NO_DISK_CACHE=1`` turns the disk
side off.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from .. import __version__

_memory: dict[str, bytes] = {}


def cache_key(*parts: bytes | str) -> str:
    """A sha256 hex digest over ``parts`` and the pyenzyme version (unambiguous: parts are length-prefixed)."""
    h = hashlib.sha256()
    for part in (__version__, *parts):
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
    """The cached blob for ``key``, from memory or disk, or None."""
    blob = _memory.get(key)
    if blob is None and _disk_enabled():
        try:
            blob = (_directory() / f"{key}.bc").read_bytes()
        except OSError:
            return None
        _memory[key] = blob
    return blob


def store(key: str, blob: bytes) -> None:
    _memory[key] = blob
    if not _disk_enabled():
        return
    try:
        directory = _directory()
        handle, temp = tempfile.mkstemp(prefix=f".{key}.", dir=directory)
        with os.fdopen(handle, "wb") as out:
            out.write(blob)
        os.replace(temp, directory / f"{key}.bc")
    except OSError:
        pass  # a read-only or full cache directory only costs speed


def clear_memory() -> None:
    """Forget the in-memory entries (tests use it to measure disk hits)."""
    _memory.clear()

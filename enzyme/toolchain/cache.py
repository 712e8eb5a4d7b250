"""A per-user cache for runtime libraries built once per tool version.

``$ENZYME_CACHE_DIR`` or ``~/.cache/pyenzyme``.  Entries are directories
named after what built them (``flang-rt-22.1.8``), so a new compiler version
simply gets a new entry.  Builds happen in a private temporary directory and
are renamed into place, so concurrent processes (pytest-xdist) never see a
half-written file.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path


def cache_dir() -> Path:
    """The cache root (created on demand)."""
    root = os.environ.get("ENZYME_CACHE_DIR")
    path = Path(root) if root else Path.home() / ".cache" / "pyenzyme"
    path.mkdir(parents=True, exist_ok=True)
    return path


def cached_entry(key: str, build: Callable[[Path], None]) -> Path:
    """Directory ``<cache>/<key>``, filled by ``build(directory)`` the first time.

    ``build`` writes its files into the directory it is given; the directory
    only becomes visible under ``key`` once ``build`` has returned.
    """
    final = cache_dir() / key
    if final.is_dir():
        return final
    staging = Path(tempfile.mkdtemp(prefix=f".{key}.", dir=final.parent))
    try:
        build(staging)
        try:
            os.replace(staging, final)
        except OSError:
            # Another process finished first: its entry is as good as ours.
            if not final.is_dir():
                raise
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    return final

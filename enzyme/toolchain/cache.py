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


def _tree_size(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def cache_report() -> list[str]:
    """``enzyme cache info``: the cache root, then one line per entry with its size."""
    root = cache_dir()
    entries = sorted(p for p in root.iterdir() if not p.name.startswith("."))
    lines = [f"cache directory: {root} (set ENZYME_CACHE_DIR to move it)",
             f"total: {format_size(sum(_tree_size(p) for p in entries))}"]
    for entry in entries:
        count = f", {sum(1 for _ in entry.iterdir())} entries" if entry.name == "api" else ""
        lines.append(f"  {entry.name}: {format_size(_tree_size(entry))}{count}")
    return lines


def clear_cache() -> int:
    """Delete everything under the cache root (rebuilt on demand); returns the bytes freed."""
    root = cache_dir()
    freed = 0
    for entry in root.iterdir():
        freed += _tree_size(entry)
        if entry.is_dir():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)
    return freed


def format_size(n: int) -> str:
    size = float(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{n} B" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    raise AssertionError("unreachable")

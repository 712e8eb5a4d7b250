"""What a long build is doing: one log line per phase, with its duration.

Phases log to the ``enzyme`` logger at INFO.  ``ENZYME_VERBOSE=1`` (or
``enzyme --verbose``) sends them to stderr as ``enzyme: <phase> (1.23 s)``;
a program can instead attach its own handler to ``logging.getLogger("enzyme")``.
"""
from __future__ import annotations

import contextlib
import logging
import os
import sys
import time
from collections.abc import Iterator

logger = logging.getLogger("enzyme")
_handler: logging.Handler | None = None


def verbose_requested() -> bool:
    return os.environ.get("ENZYME_VERBOSE", "") not in ("", "0", "false", "no")


def enable_stderr() -> None:
    """Print phases to stderr (idempotent)."""
    global _handler
    if _handler is None:
        _handler = logging.StreamHandler(sys.stderr)
        _handler.setFormatter(logging.Formatter("enzyme: %(message)s"))
        logger.addHandler(_handler)
    logger.setLevel(logging.INFO)


@contextlib.contextmanager
def phase(what: str) -> Iterator[None]:
    """Log ``what`` and how long it took (also when it fails, so a slow failure shows where the time went)."""
    if _handler is None and verbose_requested():
        enable_stderr()
    if not logger.isEnabledFor(logging.INFO):
        yield
        return
    start = time.perf_counter()
    failed = True
    try:
        yield
        failed = False
    finally:
        logger.info("%s (%.2f s%s)", what, time.perf_counter() - start, ", failed" if failed else "")

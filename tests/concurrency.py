"""Running test code in several threads at once (ctypes releases the GIL: compiled code runs in parallel)."""
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def in_threads(work: Callable[[int], T], count: int = 4) -> list[T]:
    """``work(k)`` for k < count, each in its own thread, all started together; results in order.

    An exception in a thread fails the caller, naming the thread.
    """
    barrier = threading.Barrier(count)
    results: list[object] = [None] * count

    def run(k: int) -> None:
        barrier.wait()
        try:
            results[k] = work(k)
        except BaseException as exc:  # re-raised below, in the calling thread
            results[k] = exc

    threads = [threading.Thread(target=run, args=(k,)) for k in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k, r in enumerate(results):
        if isinstance(r, BaseException):
            raise AssertionError(f"thread {k} failed: {r!r}") from r
    return results  # type: ignore[return-value]

"""LLVM contexts that are freed only after every module in them.

llvmlite frees a context in its ``ContextRef`` finalizer and a module in its
``ModuleRef`` finalizer.  When both end up in one garbage cycle (an exception
traceback holding a module is enough), Python finalizes them in arbitrary
order; freeing the context first frees its modules too, and the module's own
finalizer then crashes the process.  Here the module finalizers free the
context instead, when the last module in it goes.
"""
from __future__ import annotations

from typing import Any

import llvmlite.binding as llvm
from llvmlite.binding import ffi


class ContextOwner:
    """One LLVM context plus a count of the live modules parsed into it."""

    def __init__(self) -> None:
        self.context = llvm.create_context()
        # The ContextRef must never free the context itself (see the module docstring).
        self.context._owned = True
        self._pointer: Any = self.context._ptr
        self._live_modules = 0

    def adopt(self, mod: llvm.ModuleRef) -> llvm.ModuleRef:
        """Make ``mod`` (created in this context) keep the context alive."""
        mod.__class__ = OwnedModuleRef
        mod._context_owner = self
        self._live_modules += 1
        return mod

    def release(self) -> None:
        """One module is gone; free the context after the last one."""
        self._live_modules -= 1
        self.free_if_unused()

    def free_if_unused(self) -> None:
        if self._live_modules == 0 and self._pointer is not None:
            pointer, self._pointer = self._pointer, None
            ffi.lib.LLVMPY_ContextDispose(pointer)


class OwnedModuleRef(llvm.ModuleRef):
    """A ModuleRef that frees its context once it and its siblings are gone."""

    _context_owner: ContextOwner

    def clone(self) -> llvm.ModuleRef:
        return self._context_owner.adopt(super().clone())

    def detach(self) -> None:
        # close() calls detach() after freeing the module; link_modules() calls it
        # after the linker consumed the module.  Either way the module is gone.
        was_open = not self._closed
        super().detach()
        if was_open:
            self._context_owner.release()

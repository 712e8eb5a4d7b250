"""Print, serialise and verify llvmlite modules."""
from __future__ import annotations

import llvmlite.binding as llvm

from enzyme.errors import VerifyError

# Verifier reports can list thousands of lines; the message keeps the start.
_MAX_VERIFIER_LINES = 8


def to_text(mod: llvm.ModuleRef) -> str:
    """The module as LLVM 22 textual IR."""
    return str(mod)


def declares_function(mod: llvm.ModuleRef, prefix: str) -> bool:
    """Does the module declare or define a function whose name starts with ``prefix`` (``llvm.va_start``)?"""
    return any(f.name.startswith(prefix) for f in mod.functions)


def to_bitcode(mod: llvm.ModuleRef) -> bytes:
    """The module as LLVM 22 bitcode."""
    return mod.as_bitcode()


def verify(mod: llvm.ModuleRef, *, name: str = "<module>") -> None:
    """Run LLVM's verifier; raise VerifyError with its report on failure.

    The full report is kept in the exception's ``details`` attribute.
    """
    try:
        mod.verify()
    except RuntimeError as exc:
        report = str(exc).strip()
        lines = [line.strip() for line in report.splitlines() if line.strip()]
        shown = " | ".join(lines[:_MAX_VERIFIER_LINES])
        if len(lines) > _MAX_VERIFIER_LINES:
            shown += f" | ... ({len(lines) - _MAX_VERIFIER_LINES} more lines)"
        error = VerifyError(f"{name}: LLVM verifier rejected the module: {shown}")
        error.details = report  # type: ignore[attr-defined]
        raise error from None

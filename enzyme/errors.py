"""Error hierarchy: every error pyenzyme raises on purpose derives from EnzymeError.

Messages say what went wrong, where (file, function, instruction, source line)
and how to fix it.  The CLI prints ``error: <message>`` and exits with 1.
"""
from __future__ import annotations


class EnzymeError(Exception):
    """Root of all pyenzyme errors."""


class ToolchainError(EnzymeError):
    """A compiler or tool is missing, has the wrong LLVM version, or failed."""


class ToolNotFoundError(ToolchainError):
    """A required tool is not installed."""


class LLVMVersionError(ToolchainError):
    """A tool or an input was made by an LLVM major other than 22."""


class CompileError(ToolchainError):
    """A frontend compiler rejected a source file."""


class IRError(EnzymeError):
    """Malformed LLVM IR or bitcode, or IR the model cannot represent."""


class IRParseError(IRError):
    """The textual IR could not be parsed; the message has line and column."""


class VerifyError(IRError):
    """LLVM's verifier rejected a module."""


class DifferentiationError(EnzymeError):
    """A derivative cannot be computed correctly (never returned silently wrong)."""


class UsageError(EnzymeError):
    """Wrong use of the CLI or the Python API."""


class LinkError(EnzymeError):
    """Modules or objects could not be linked or JIT-loaded (clashing or unresolved symbols)."""


class EnzymeWarning(UserWarning):
    """Something pyenzyme can do, but probably not what the user meant (printed as ``warning: ...`` by the CLI)."""

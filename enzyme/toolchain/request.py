"""What a frontend is asked to do: one source file to one bitcode file."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class CompileRequest:
    """Options shared by every frontend driver.

    ``defines`` are ``NAME`` or ``NAME=VALUE``; ``flags`` go to the compiler
    verbatim, after ours, so users can override.  ``module_dir`` is where
    Fortran ``.mod`` files are written and searched (a private temporary
    directory when None).  ``show_warnings`` echoes the compiler's
    diagnostics of a successful compile to stderr.  ``depfile``, when given,
    receives a make-style rule ``output: <every file the compile read>``
    (see :mod:`enzyme.toolchain.depfiles`).
    """

    source: Path
    output: Path
    opt_level: int = 2
    debug: bool = False
    # Line tables only (when not ``debug``): refusals can name source lines, nothing else changes.
    line_tables: bool = False
    flags: tuple[str, ...] = ()
    include_dirs: tuple[Path, ...] = ()
    defines: tuple[str, ...] = ()
    module_dir: Path | None = None
    show_warnings: bool = False
    depfile: Path | None = None

    @property
    def preprocessor_args(self) -> list[str]:
        """``-I``/``-D`` arguments in the syntax clang and flang share."""
        return [f"-I{d}" for d in self.include_dirs] + [f"-D{d}" for d in self.defines]

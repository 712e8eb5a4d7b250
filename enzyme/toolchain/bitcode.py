"""Compile any supported source file to LLVM 22 bitcode."""
from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path

from enzyme import llvm, progress
from enzyme.errors import UsageError
from enzyme.toolchain.clang import compile_c, compile_cxx
from enzyme.toolchain.cuda import compile_cuda
from enzyme.toolchain.depfiles import absolute, write_depfile
from enzyme.toolchain.flang import compile_fortran
from enzyme.toolchain.hip import compile_hip
from enzyme.toolchain.languages import language_of, missing_source_message
from enzyme.toolchain.request import CompileRequest
from enzyme.toolchain.rustc import compile_rust

PathLike = str | os.PathLike[str]


def _copy_ir(request: CompileRequest) -> Path:
    if request.source.suffix == ".bc":
        shutil.copyfile(request.source, request.output)
    else:
        module = llvm.parse_file(request.source)
        request.output.write_bytes(llvm.to_bitcode(module))
    if request.depfile is not None:
        write_depfile(request.depfile, request.output, [absolute(request.source)])
    return request.output


_DRIVERS: dict[str, Callable[[CompileRequest], Path]] = {
    "c": compile_c,
    "cxx": compile_cxx,
    "fortran": compile_fortran,
    "rust": compile_rust,
    "cuda": compile_cuda,
    "hip": compile_hip,
    "ir": _copy_ir,
}


def compile_to_bitcode(
    source: PathLike,
    out: PathLike,
    *,
    opt_level: int = 2,
    debug: bool = False,
    line_tables: bool = False,
    flags: Sequence[str] = (),
    include_dirs: Sequence[PathLike] = (),
    defines: Sequence[str] = (),
    module_dir: PathLike | None = None,
    language: str | None = None,
    show_warnings: bool = False,
    depfile: PathLike | None = None,
) -> Path:
    """Compile ``source`` to bitcode at ``out``.

    The language comes from the suffix unless ``language`` (one of
    ``LANGUAGES``) says otherwise, as ``-x`` does for a compiler driver.
    IR inputs (``.ll``/``.bc``) are taken as they are (text is assembled).
    Compiler failures raise CompileError quoting the compiler's first errors;
    ``show_warnings`` echoes the diagnostics of a successful compile to stderr.
    ``depfile`` receives the make-style list of every file the compile read
    (for every language; see :mod:`enzyme.toolchain.depfiles`).
    """
    source = Path(source)
    problem = missing_source_message(source)
    if problem:
        raise UsageError(problem)
    if opt_level not in (0, 1, 2, 3):
        raise UsageError(f"optimization level must be 0, 1, 2 or 3, not {opt_level}")
    request = CompileRequest(
        source=source,
        output=Path(out),
        opt_level=opt_level,
        debug=debug,
        line_tables=line_tables,
        flags=tuple(flags),
        include_dirs=tuple(Path(d) for d in include_dirs),
        defines=tuple(defines),
        module_dir=Path(module_dir) if module_dir is not None else None,
        show_warnings=show_warnings,
        depfile=Path(depfile) if depfile is not None else None,
    )
    if language is not None and language not in _DRIVERS:
        raise UsageError(f"unknown language {language!r} for {source}; known: {', '.join(_DRIVERS)}")
    request.output.parent.mkdir(parents=True, exist_ok=True)
    with progress.phase(f"compiled {source} at -O{opt_level}"):
        return _DRIVERS[language or language_of(source)](request)

"""Which frontend handles a source file, by its suffix."""
from __future__ import annotations

import os
from pathlib import Path

from enzyme.errors import UsageError

LANGUAGES = ("c", "cxx", "fortran", "rust", "cuda", "hip", "ir")
# The tool that turns a source of each language into bitcode (IR is parsed by llvmlite).
COMPILERS = {"c": "clang", "cxx": "clang", "cuda": "clang", "hip": "clang", "fortran": "flang", "rust": "rustc"}

# Case matters for ".C" (C++) and ".F90" (preprocessed Fortran), so exact suffixes are tried first.
_EXACT_SUFFIXES = {".C": "cxx"}
_SUFFIXES = {
    ".c": "c", ".i": "c",
    ".cc": "cxx", ".cpp": "cxx", ".cxx": "cxx", ".c++": "cxx", ".cp": "cxx", ".ii": "cxx",
    ".f": "fortran", ".for": "fortran", ".f77": "fortran", ".f90": "fortran", ".f95": "fortran",
    ".f03": "fortran", ".f08": "fortran", ".f18": "fortran", ".fpp": "fortran",
    ".rs": "rust",
    ".cu": "cuda",
    ".hip": "hip",
    ".ll": "ir", ".bc": "ir",
}


def language_of(path: str | os.PathLike[str]) -> str:
    """``"c"``, ``"cxx"``, ``"fortran"``, ``"rust"``, ``"cuda"``, ``"hip"`` or ``"ir"``.

    >>> language_of("model.F90"), language_of("k.cu"), language_of("m.bc")
    ('fortran', 'cuda', 'ir')
    """
    if Path(path).name == "Cargo.toml":
        return "rust"  # a Cargo package (enzyme.toolchain.cargo)
    suffix = Path(path).suffix
    language = _EXACT_SUFFIXES.get(suffix) or _SUFFIXES.get(suffix.lower())
    if language is None:
        known = " ".join(sorted({*_SUFFIXES, *_EXACT_SUFFIXES}))
        raise UsageError(f"cannot tell the language of {path}: unknown suffix {suffix or '(none)'!r} (known: {known})")
    return language


def source_path(path: Path) -> Path:
    """A Cargo package's directory stands for its ``Cargo.toml``; anything else is itself."""
    return path / "Cargo.toml" if path.is_dir() and (path / "Cargo.toml").is_file() else path


def missing_source_message(path: Path) -> str | None:
    """Why ``path`` cannot be compiled as a source file, or None when it is one (or a Cargo package).

    Other directories get advice instead of "does not exist".
    """
    if path.is_file() or (path.is_dir() and (path / "Cargo.toml").is_file()):
        return None
    if path.is_dir():
        return (f"{path} is a directory, not a source file; pass the files themselves, e.g. "
                f"sorted(pathlib.Path({str(path)!r}).glob('*.c'))")
    return f"source file {path} does not exist"

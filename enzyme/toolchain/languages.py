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
    suffix = Path(path).suffix
    language = _EXACT_SUFFIXES.get(suffix) or _SUFFIXES.get(suffix.lower())
    if language is None:
        known = " ".join(sorted({*_SUFFIXES, *_EXACT_SUFFIXES}))
        raise UsageError(f"cannot tell the language of {path}: unknown suffix {suffix or '(none)'!r} (known: {known})")
    return language


def missing_source_message(path: Path) -> str | None:
    """Why ``path`` cannot be compiled as a source file, or None when it is a file.

    Directories and Cargo manifests get advice instead of "does not exist".
    """
    if path.is_file() and path.name != "Cargo.toml":
        return None
    crate = path.parent if path.name == "Cargo.toml" else path
    if (crate / "Cargo.toml").is_file():
        roots = [r for r in (crate / "src" / "lib.rs", crate / "src" / "main.rs") if r.is_file()]
        root = roots[0] if roots else crate / "src" / "lib.rs"
        return (f"{path} is a Cargo crate; pyenzyme compiles Rust one file-crate at a time: pass its root source "
                f"({root}; its `mod` files are found from there), without dependencies on other crates")
    if path.is_dir():
        return (f"{path} is a directory, not a source file; pass the files themselves, e.g. "
                f"sorted(pathlib.Path({str(path)!r}).glob('*.c'))")
    return f"source file {path} does not exist"

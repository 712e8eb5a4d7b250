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

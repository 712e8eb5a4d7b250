"""Runtime libraries that compiled code of each language needs.

Two forms: linker arguments for executables and shared libraries, and shared
libraries to load into this process before JIT-compiling.
"""
from __future__ import annotations

import ctypes.util
from collections.abc import Iterable

from enzyme.errors import ToolNotFoundError, UsageError
from enzyme.toolchain import cuda, flang, rustc
from enzyme.toolchain.languages import LANGUAGES

_CXX_LIBRARIES = ("-lstdc++", "-lm")
# Device code is linked and loaded by the GPU toolchain, not with host objects (a CUDA program's host side
# needs the CUDA runtime, below).
_NO_HOST_RUNTIME = {"cuda", "hip", "ir"}


def _check(languages: Iterable[str]) -> set[str]:
    chosen = set(languages)
    unknown = chosen.difference(LANGUAGES)
    if unknown:
        raise UsageError(f"unknown language(s) {', '.join(sorted(unknown))}; known: {', '.join(LANGUAGES)}")
    return chosen


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


def link_libraries(languages: Iterable[str]) -> list[str]:
    """Linker arguments for the runtimes of ``languages`` (archives first, then ``-l`` flags).

    Rust gets a staticlib of std built by the same rustc (cached); linking it
    is harmless for ``no_std`` crates, whose panic handler ``link`` makes internal.
    """
    chosen = _check(languages)
    archives: list[str] = []
    flags: list[str] = []
    if "fortran" in chosen:
        archives.append(str(flang.runtime_archive()))
        flags += flang.RUNTIME_DEPENDENCIES
    if "rust" in chosen:
        runtime_dir = rustc.std_runtime_dir()
        archives.append(str(runtime_dir / rustc.STD_STATICLIB))
        flags += rustc.std_native_libs(runtime_dir)
    if chosen & {"cxx", "cuda"}:  # a CUDA program's host side is C++
        flags += _CXX_LIBRARIES
    if "cuda" in chosen:
        flags += cuda.cuda_runtime_link_args()
    if chosen - _NO_HOST_RUNTIME:
        flags.append("-lm")  # libm for C too: math calls are the bread of differentiable code
    return archives + _unique(flags)


def uses_openmp(flags: Iterable[str]) -> bool:
    """Do compiler ``flags`` turn OpenMP on (``-fopenmp``, ``-fopenmp=libomp``)?"""
    return any(f == "-fopenmp" or f.startswith("-fopenmp=") for f in flags)


def jit_libraries(languages: Iterable[str]) -> list[str]:
    """Shared libraries to load before JIT-compiling code of ``languages``."""
    chosen = _check(languages)
    libraries: list[str] = []
    if chosen - _NO_HOST_RUNTIME:
        libraries.append(_system_library("m"))
    if chosen & {"cxx", "fortran"}:
        libraries.append(_system_library("stdc++"))
    if "fortran" in chosen:
        libraries.append(str(flang.runtime_shared_library()))
    if "rust" in chosen:
        libraries.append(str(rustc.std_runtime_dir() / rustc.STD_SHARED))
    return _unique(libraries)


def _system_library(name: str) -> str:
    found = ctypes.util.find_library(name)
    if found is None:
        package = "libstdc++6" if name == "stdc++" else "libc6"
        raise ToolNotFoundError(f"shared library lib{name} not found; install it: apt-get install -y {package}")
    return found

"""Where pyenzyme's non-Python files are: the CMake package, the C/C++ headers, the clang plugin.

An installed wheel has them inside the package (``enzyme/cmake``, ``enzyme/include``),
put there by the top-level CMakeLists.txt.  An editable install imports ``enzyme/``
from the checkout and runs no CMake, so there they are found in the checkout's
``cmake/`` and ``frontends/include/``.
"""
from __future__ import annotations

from pathlib import Path

from enzyme.errors import ToolNotFoundError

_PACKAGE_DIR = Path(__file__).resolve().parent
_CHECKOUT_DIR = _PACKAGE_DIR.parent


def cmake_dir() -> Path:
    """Directory holding ``EnzymeConfig.cmake`` (pass it as ``-DEnzyme_DIR=``)."""
    return _first_containing(
        "EnzymeConfig.cmake",
        [_PACKAGE_DIR / "cmake", _CHECKOUT_DIR / "cmake"],
    )


def include_dir() -> Path:
    """Include directory for ``#include <enzyme/enzyme.h>``."""
    return _first_containing(
        "enzyme/enzyme.h",
        [_PACKAGE_DIR / "include", _CHECKOUT_DIR / "frontends" / "include"],
    )


def clang_plugin_source() -> Path:
    """The C++ source of pyenzyme's clang plugin (Enzyme's source attributes)."""
    return _first_containing(
        "enzyme_attributes.cpp",
        [_PACKAGE_DIR / "clang", _CHECKOUT_DIR / "frontends" / "clang"],
    ) / "enzyme_attributes.cpp"


def _first_containing(relative_file: str, candidates: list[Path]) -> Path:
    for candidate in candidates:
        if (candidate / relative_file).is_file():
            return candidate
    searched = ", ".join(str(c) for c in candidates)
    raise ToolNotFoundError(
        f"{relative_file} not found (searched {searched}); "
        "reinstall pyenzyme with `pip install --force-reinstall pyenzyme` "
        "or, in a checkout, `pip install -e .`"
    )

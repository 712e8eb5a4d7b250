"""Libraries of the Enzyme.jl reference functions, compiled once per test session and language."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

SOURCES = Path(__file__).parent / "sources"
# Fortran: flang's -O2 vectorizes (clang's is told not to); the engine differentiates scalar code.
_FORTRAN_FLAGS = ("-fno-vectorize", "-fno-slp-vectorize")
LANGUAGES = {"c": ("reference.c", "c", ()), "fortran": ("reference.f90", "f", _FORTRAN_FLAGS),
             "rust": ("reference.rs", "rs", ())}


@dataclass
class Reference:
    """A compiled library and the prefix of its function names (``lib.fn("prod2")`` -> ``c_prod2``)."""

    language: str
    lib: Any
    prefix: str

    def fn(self, name: str) -> Any:
        return self.lib[f"{self.prefix}_{name}"]


_built: dict[str, Reference] = {}


def reference(language: str) -> Reference:
    import enzyme

    if language not in _built:
        source, prefix, flags = LANGUAGES[language]
        _built[language] = Reference(language, enzyme.compile([SOURCES / source], flags=flags), prefix)
    return _built[language]


@pytest.fixture(params=sorted(LANGUAGES))
def ref(request: pytest.FixtureRequest) -> Reference:
    """The reference functions in each language (C, Fortran, Rust)."""
    return reference(request.param)


@pytest.fixture
def cref() -> Reference:
    """The reference functions in C."""
    return reference("c")

"""What the round-trip corpus contains and how each item is built.

An item is one source (or generated input) plus the compiler settings
(``Variant``) it is built under.  Tests parametrize over ``all_cases()``.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

CORPUS_DIR = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Variant:
    """Compiler settings for one build of an item."""

    opt_level: int
    debug: bool = False

    @property
    def label(self) -> str:
        return f"O{self.opt_level}" + ("-g" if self.debug else "")


O0, O2 = Variant(0), Variant(2)
O0_G, O2_G = Variant(0, debug=True), Variant(2, debug=True)
CLANG_VARIANTS = (O0, O0_G, O2, O2_G)
FORTRAN_VARIANTS = CLANG_VARIANTS
RUST_VARIANTS = (O0, O0_G, O2, O2_G)
# Device code is what a GPU build ships, so optimised; -g too, since kernels are debugged.
GPU_VARIANTS = (O2, O2_G)
# A few thousand lines: large enough for scale, small enough for a 2-core CI.
LARGE_C_FUNCTIONS = 300
LARGE_C_VARIANTS = (O0_G, O2)


@dataclass(frozen=True)
class CorpusItem:
    """One input of the corpus.

    ``kind`` is ``"source"`` (a file under CORPUS_DIR compiled with the
    toolchain), ``"generated-c"`` (``generate_large_c(functions)``) or
    ``"numba"`` (the IR numba produced for ``numba/cfuncs.py::<entry>``).
    ``requires`` names optional tools (keys of tests/conftest.py's
    OPTIONAL_TOOLS) without which the item is skipped.
    """

    name: str
    language: str
    kind: str
    path: str = ""
    variants: tuple[Variant, ...] = (O2,)
    requires: tuple[str, ...] = ()
    entry: str = ""
    functions: int = 0
    flags: tuple[str, ...] = ()  # extra compiler flags

    @property
    def source(self) -> Path:
        return CORPUS_DIR / self.path


def _sources(language: str, paths: tuple[str, ...], variants: tuple[Variant, ...],
             requires: tuple[str, ...] = (), flags: tuple[str, ...] = ()) -> list[CorpusItem]:
    return [CorpusItem(path.rsplit(".", 1)[0], language, "source", path, variants, requires, flags=flags)
            for path in paths]


ITEMS: tuple[CorpusItem, ...] = (
    *_sources("c", ("c/numerics.c", "c/globals.c", "c/exotic_types.c"), CLANG_VARIANTS),
    *_sources("c", ("c/openmp.c",), (O0, O2_G), flags=("-fopenmp",)),
    *_sources("cxx", ("cxx/shapes.cpp", "cxx/exceptions.cpp"), CLANG_VARIANTS),
    *_sources("cxx", ("cxx/coroutines.cpp",), (O0, O2), flags=("-std=c++20",)),
    *_sources("fortran", ("fortran/mechanics.f90", "fortran/interop.f90"), FORTRAN_VARIANTS),
    *_sources("rust", ("rust/nostd_kernels.rs", "rust/std_collections.rs"), RUST_VARIANTS),
    *_sources("cuda", ("cuda/kernels.cu",), GPU_VARIANTS, requires=("cuda",)),
    # -O0 too: unoptimised HIP code keeps the ROCm device library's unnamed struct types.
    *_sources("hip", ("hip/kernels.hip",), (O0, *GPU_VARIANTS), requires=("rocm-device-libs", "hip")),
    *(CorpusItem(f"numba/{entry}", "numba", "numba", "numba/cfuncs.py", entry=entry)
      for entry in ("norm_of", "smooth", "argmax_of")),
    CorpusItem("generated/large_c", "c", "generated-c", variants=LARGE_C_VARIANTS, functions=LARGE_C_FUNCTIONS),
)


@dataclass(frozen=True)
class Case:
    """One item built under one variant: the unit a round-trip test checks."""

    item: CorpusItem
    variant: Variant

    @property
    def id(self) -> str:
        return f"{self.item.name}@{self.variant.label}" if self.item.kind != "numba" else self.item.name


def all_cases() -> list[Case]:
    return [Case(item, variant) for item in ITEMS for variant in item.variants]


def one_case_per_language() -> list[Case]:
    """The -O2 -g build (-O2 when there is none) of the first item of each language."""
    chosen: dict[str, Case] = {}
    for item in ITEMS:
        if item.language in chosen:
            continue
        variant = O2_G if O2_G in item.variants else item.variants[-1]
        chosen[item.language] = Case(item, variant)
    return list(chosen.values())

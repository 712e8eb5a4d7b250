"""Build corpus cases into LLVM IR, caching the results.

Artifacts are cached under ``<cache>/corpus`` by a key made of the input's
contents, the variant and the compiler version, so a warm cache (a re-run
with ``ENZYME_CACHE_DIR`` set) compiles nothing.  Files appear atomically,
so parallel test workers can share a cache directory.
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from corpus.catalog import Case, CorpusItem
from corpus.generate_large_c import generate_large_c

# The tool whose version decides whether a cached artifact is still valid.
_COMPILER_OF = {"c": "clang", "cxx": "clang", "cuda": "clang", "hip": "clang", "fortran": "flang", "rust": "rustc"}


def build_case(case: Case, cache: Path) -> Path:
    """Path of the case's module: ``.bc`` for compiled sources, ``.ll`` for numba IR."""
    item = case.item
    if item.kind == "numba":
        return _cached(cache, _key(item, "numba", _numba_version()), ".ll",
                       lambda out: out.write_text(numba_ir(item.entry)))
    if item.kind == "generated-c":
        source_text = generate_large_c(item.functions)
        source = _cached(cache, _key(item, source_text), ".c", lambda out: out.write_text(source_text))
    else:
        source = item.source
    key = _key(item, source.read_bytes().hex(), case.variant.label, *item.flags, _compiler_version(item.language))
    return _cached(cache, key, ".bc", lambda out: _compile(source, out, case))


def _compile(source: Path, out: Path, case: Case) -> None:
    from enzyme import toolchain

    # A scratch directory keeps compiler by-products (Fortran .mod files, rustc temporaries) out of the cache.
    with tempfile.TemporaryDirectory(prefix="corpus-build-") as scratch:
        produced = toolchain.compile_to_bitcode(
            source, Path(scratch) / f"{source.stem}.bc",
            opt_level=case.variant.opt_level, debug=case.variant.debug, flags=case.item.flags,
            module_dir=Path(scratch) / "modules",
        )
        out.write_bytes(produced.read_bytes())


def numba_ir(entry: str) -> str:
    """Textual IR numba generates for the cfunc ``entry`` of numba/cfuncs.py."""
    path = Path(__file__).resolve().parent / "numba" / "cfuncs.py"
    spec = importlib.util.spec_from_file_location("corpus_numba_cfuncs", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.llvm_ir()[entry]


def _key(item: CorpusItem, *parts: str) -> str:
    digest = hashlib.sha256("\0".join((item.name, item.kind, *parts)).encode()).hexdigest()[:20]
    return f"{item.name.replace('/', '-')}-{digest}"


def _compiler_version(language: str) -> str:
    from enzyme import toolchain

    tool = toolchain.find_tool(_COMPILER_OF[language])
    return f"{tool.path}:{tool.version}"


def _numba_version() -> str:
    import llvmlite
    import numba

    return f"{numba.__version__}:{llvmlite.__version__}"


def _cached(cache: Path, key: str, suffix: str, make: Callable[[Path], None]) -> Path:
    final = cache / f"{key}{suffix}"
    if final.exists():
        return final
    cache.mkdir(parents=True, exist_ok=True)
    handle, temp_name = tempfile.mkstemp(prefix=f".{key}.", suffix=suffix, dir=cache)
    os.close(handle)
    temp = Path(temp_name)
    try:
        make(temp)
        os.replace(temp, final)
    finally:
        temp.unlink(missing_ok=True)
    return final

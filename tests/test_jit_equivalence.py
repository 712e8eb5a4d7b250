"""Code through enzyme + the JIT computes exactly what the native build computes.

For C, C++, Fortran (bind(C)) and Rust (extern "C") kernels over numpy
arrays (pointer + length) and scalars (tests/corpus/jit/kernels.*):

(a) native: the language's own compiler -> object -> ``link_shared`` with the
    language's runtime libraries -> ctypes;
(b) ``enzyme compile`` -> ``enzyme opt --no-preopt --no-postopt`` (through
    our IR model) -> ``enzyme.llvm.JIT``.

Both are built at the same optimisation level, so results must agree bit
for bit.
"""
from __future__ import annotations

import ctypes
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from corpus.catalog import CORPUS_DIR

JIT_SOURCES = CORPUS_DIR / "jit"
DOUBLE_P = ctypes.POINTER(ctypes.c_double)
SIZES = (0, 1, 7, 64, 1001)


@dataclass(frozen=True)
class Build:
    language: str
    source: str
    prefix: str  # exported names are <prefix>_weighted_norm, ...
    opt_level: int

    @property
    def id(self) -> str:
        return f"{self.language}-O{self.opt_level}"


BUILDS = (
    Build("c", "kernels.c", "c", 2),
    Build("c", "kernels.c", "c", 0),
    Build("cxx", "kernels.cpp", "cxx", 2),
    Build("fortran", "kernels.f90", "f", 2),
    Build("rust", "kernels.rs", "rs", 2),
)


def _native_object(build: Build, source: Path, obj: Path, scratch: Path) -> None:
    """Compile straight to a PIC object with the language's own compiler (not via enzyme)."""
    from enzyme.toolchain import find_tool
    from enzyme.toolchain.clang import optimization_args

    level = f"-O{build.opt_level}"
    if build.language in ("c", "cxx"):
        mode = ["--driver-mode=g++"] if build.language == "cxx" else []
        # Same -O0 flags as enzyme compile, so both sides see the same frontend output.
        command = [find_tool("clang").path, *mode, *optimization_args(build.opt_level), "-fPIC", "-c"]
    elif build.language == "fortran":
        command = [find_tool("flang").path, level, "-fPIC", "-c", "-module-dir", str(scratch)]
    else:
        command = [find_tool("rustc").path, "--crate-type=lib", "--crate-name", "kernels", "-C", "panic=abort",
                   "-C", f"opt-level={build.opt_level}", "-C", "codegen-units=1", "-C", "relocation-model=pic",
                   f"--emit=obj={obj}", str(source)]
        subprocess.run(command, check=True, cwd=scratch, capture_output=True, text=True)
        return
    subprocess.run([*command, str(source), "-o", str(obj)], check=True, cwd=scratch, capture_output=True, text=True)


@dataclass
class Pair:
    """The native library and the JIT of one build."""

    build: Build
    native: ctypes.CDLL
    jit: Any

    def both(self, name: str, restype: Any, *argtypes: Any) -> tuple[Callable[..., Any], Callable[..., Any]]:
        symbol = f"{self.build.prefix}_{name}"
        native = getattr(self.native, symbol)
        native.restype, native.argtypes = restype, list(argtypes)
        return native, self.jit.cfunc(symbol, restype, *argtypes)


def _build_pair(build: Build, scratch: Path, run_enzyme: Callable[..., object]) -> Pair:
    from enzyme import llvm
    from enzyme.toolchain import jit_libraries, link_libraries, link_shared

    source = JIT_SOURCES / build.source
    obj = scratch / "native.o"
    _native_object(build, source, obj, scratch)
    shared = link_shared([obj], scratch / "libnative.so", libraries=link_libraries([build.language]))
    native = ctypes.CDLL(str(shared))

    bitcode, text = scratch / "kernels.bc", scratch / "kernels.ll"
    run_enzyme("compile", source, f"-O{build.opt_level}", "-o", bitcode)
    run_enzyme("opt", "--no-preopt", "--no-postopt", bitcode, "-o", text)
    jit = llvm.JIT(text.read_text(), libraries=jit_libraries([build.language]))
    return Pair(build, native, jit)


@pytest.fixture(scope="module")
def pairs(tmp_path_factory: pytest.TempPathFactory, run_enzyme: Callable[..., object]) -> Iterator[Callable[[Build], Pair]]:
    """``pairs(build)``: the native library and JIT of ``build``, built once per module."""
    built: dict[Build, Pair] = {}

    def get(build: Build) -> Pair:
        if build not in built:
            built[build] = _build_pair(build, tmp_path_factory.mktemp(f"jit-{build.id}"), run_enzyme)
        return built[build]

    yield get
    for pair in built.values():
        pair.jit.close()


@pytest.fixture(params=BUILDS, ids=[b.id for b in BUILDS])
def pair(request: pytest.FixtureRequest, pairs: Callable[[Build], Pair]) -> Pair:
    return pairs(request.param)


def _inputs(n: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(1000 + n)
    x = rng.standard_normal(n) * 3.0
    y = rng.uniform(-1.0, 1.0, n)
    return x, y


def _ptr(a: np.ndarray) -> Any:
    assert a.dtype == np.float64 and a.flags.c_contiguous
    return a.ctypes.data_as(DOUBLE_P)


def _same_bits(a: float | np.ndarray, b: float | np.ndarray) -> bool:
    return np.asarray(a, dtype=np.float64).tobytes() == np.asarray(b, dtype=np.float64).tobytes()


def _bit_report(native: float | np.ndarray, jitted: float | np.ndarray) -> str:
    """Where native and JIT results differ, in units in the last place."""
    a, b = np.atleast_1d(np.asarray(native, np.float64)), np.atleast_1d(np.asarray(jitted, np.float64))
    ulps = np.abs(a.view(np.int64) - b.view(np.int64))
    return (f"native and JIT results differ in {np.count_nonzero(ulps)} of {ulps.size} values "
            f"(at most {ulps.max()} ulp; first at index {int(np.argmax(ulps != 0))})")


@pytest.mark.parametrize("n", SIZES)
def test_weighted_norm(pair: Pair, n: int) -> None:
    native, jitted = pair.both("weighted_norm", ctypes.c_double, DOUBLE_P, ctypes.c_int64, ctypes.c_double)
    x, _ = _inputs(n)
    for w in (0.7, -0.0, 1e-300):
        expected, actual = native(_ptr(x), n, w), jitted(_ptr(x), n, w)
        assert _same_bits(expected, actual), _bit_report(expected, actual)
    if n:
        reference = np.sqrt(np.sum(0.7 * x * x + np.sin(x) * np.exp(-np.abs(x))))
        assert np.isclose(native(_ptr(x), n, 0.7), reference, rtol=1e-12)


@pytest.mark.parametrize("n", SIZES)
def test_axpy_in_place(pair: Pair, n: int) -> None:
    native, jitted = pair.both("axpy", None, DOUBLE_P, DOUBLE_P, ctypes.c_int64, ctypes.c_double)
    x, y = _inputs(n)
    y_native, y_jit = y.copy(), y.copy()
    native(_ptr(y_native), _ptr(x), n, 2.5)
    jitted(_ptr(y_jit), _ptr(x), n, 2.5)
    assert _same_bits(y_native, y_jit), _bit_report(y_native, y_jit)
    np.testing.assert_allclose(y_native, 2.5 * x + y / (1.0 + np.arange(n)), rtol=1e-15)


@pytest.mark.parametrize("n", SIZES[1:])
def test_prefix_max(pair: Pair, n: int) -> None:
    native, jitted = pair.both("prefix_max", ctypes.c_double, DOUBLE_P, DOUBLE_P, ctypes.c_int64)
    x, _ = _inputs(n)
    out_native, out_jit = np.full(n, np.nan), np.full(n, np.nan)
    best_native, best_jit = native(_ptr(out_native), _ptr(x), n), jitted(_ptr(out_jit), _ptr(x), n)
    assert _same_bits(best_native, best_jit), _bit_report(best_native, best_jit)
    assert _same_bits(out_native, out_jit), _bit_report(out_native, out_jit)
    assert best_native == pytest.approx(np.max(np.cumsum(x)), rel=1e-12)


def test_fortran_array_intrinsics(pairs: Callable[[Build], Pair]) -> None:
    fortran = pairs(next(b for b in BUILDS if b.language == "fortran"))
    native, jitted = fortran.both("array_stats", ctypes.c_double, DOUBLE_P, ctypes.c_int64)
    x, _ = _inputs(513)
    assert _same_bits(native(_ptr(x), 513), jitted(_ptr(x), 513))
    expected = x.sum() + x.max() - x.min() + x @ x + np.linalg.norm(x)
    assert native(_ptr(x), 513) == pytest.approx(expected, rel=1e-12)

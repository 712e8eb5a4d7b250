"""Compiled modules are cached in memory and on disk: a second compile skips the compilers and the AD transform."""
from __future__ import annotations

import time

import numpy as np
import pytest

import enzyme
from enzyme import pipeline
from enzyme.api import cache, library

SOURCE = "double cube(double x) { return x * x * x; }\n"


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ENZYME_CACHE_DIR", str(tmp_path / "cache"))
    cache.clear_memory()
    library._jits.clear()
    yield tmp_path / "cache" / "api"
    cache.clear_memory()


def _forbid(monkeypatch, name):
    def refuse(*args, **kwargs):
        raise AssertionError(f"pipeline.{name} ran despite a cache hit")
    monkeypatch.setattr(pipeline, name, refuse)


def test_disk_cache_hit_skips_compilers_and_ad(fresh_cache, tmp_path, monkeypatch):
    src = tmp_path / "cube.c"
    src.write_text(SOURCE)
    t0 = time.perf_counter()
    lib = enzyme.compile([src])
    (d,), = enzyme.autodiff(enzyme.Reverse, lib.cube, enzyme.Active, enzyme.Active(2.0))
    cold = time.perf_counter() - t0
    assert d == 12.0
    assert len(list(fresh_cache.glob("*.bc"))) == 2  # the linked module and the differentiated one

    cache.clear_memory()  # as in a new process: only the disk cache is left
    library._jits.clear()
    _forbid(monkeypatch, "compile_sources")
    _forbid(monkeypatch, "transform_module")
    t0 = time.perf_counter()
    lib = enzyme.compile([src])
    (d,), = enzyme.autodiff(enzyme.Reverse, lib.cube, enzyme.Active, enzyme.Active(2.0))
    warm = time.perf_counter() - t0
    assert d == 12.0
    assert warm < cold


def test_changed_source_or_header_misses(fresh_cache, tmp_path):
    src, header = tmp_path / "k.c", tmp_path / "k.h"
    header.write_text("#define K 2.0\n")
    src.write_text('#include "k.h"\ndouble k(double x) { return K * x; }\n')
    assert enzyme.compile([src]).k(1.0) == 2.0
    header.write_text("#define K 3.0\n")
    assert enzyme.compile([src]).k(1.0) == 3.0
    src.write_text('#include "k.h"\ndouble k(double x) { return K * x + 1.0; }\n')
    assert enzyme.compile([src]).k(1.0) == 4.0


def test_memory_hit_is_fast(fresh_cache, tmp_path):
    src = tmp_path / "cube.c"
    src.write_text(SOURCE)
    enzyme.compile([src])
    t0 = time.perf_counter()
    enzyme.compile([src])
    assert time.perf_counter() - t0 < 0.05


def test_disk_cache_can_be_disabled(fresh_cache, tmp_path, monkeypatch):
    monkeypatch.setenv("ENZYME_NO_DISK_CACHE", "1")
    src = tmp_path / "cube.c"
    src.write_text(SOURCE)
    lib = enzyme.compile([src])
    assert enzyme.gradient(enzyme.Reverse, lib.cube, 1.0) == 3.0
    assert not fresh_cache.exists() or not list(fresh_cache.glob("*.bc"))


def test_two_libraries_share_compiled_code(fresh_cache, tmp_path):
    src = tmp_path / "cube.c"
    src.write_text(SOURCE)
    a, b = enzyme.compile([src]), enzyme.compile([src])
    assert a is not b
    x = np.float64(3.0)
    assert enzyme.gradient(enzyme.Reverse, a.cube, x) == enzyme.gradient(enzyme.Reverse, b.cube, x) == 27.0
    assert len(library._jits) == 1

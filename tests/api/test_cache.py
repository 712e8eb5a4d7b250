"""Compiled modules are cached in memory and on disk: a second compile skips the compilers and the AD transform,
and a cached module is used only while everything it was made from is unchanged."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import enzyme
from enzyme import pipeline
from enzyme.api import cache, library

SOURCE = "double cube(double x) { return x * x * x; }\n"
REPO = Path(__file__).resolve().parents[2]


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


def _as_new_process():
    cache.clear_memory()  # only the disk cache is left
    library._jits.clear()


def test_disk_cache_hit_skips_compilers_ad_and_code_generation(fresh_cache, tmp_path, monkeypatch, caplog):
    src = tmp_path / "cube.c"
    src.write_text(SOURCE)
    caplog.set_level("INFO", logger="enzyme")
    lib = enzyme.compile([src])
    (d,), = enzyme.autodiff(enzyme.Reverse, lib.cube, enzyme.Active, enzyme.Active(2.0))
    assert d == 12.0
    # the linked module, the differentiated one and the differentiated one's machine code
    assert len(list(fresh_cache.glob("*.entry"))) == 3
    assert [r.message for r in caplog.records if r.message.startswith("generated machine code")]

    _as_new_process()
    caplog.clear()
    _forbid(monkeypatch, "compile_sources_with_dependencies")
    _forbid(monkeypatch, "transform_module")
    lib = enzyme.compile([src])  # the forbidden steps prove the hit (timings belong in benchmarks/)
    (d,), = enzyme.autodiff(enzyme.Reverse, lib.cube, enzyme.Active, enzyme.Active(2.0))
    assert d == 12.0
    assert lib.cube(2.0) == 8.0  # the primal's machine code is made (and cached) now
    phases = [r.message.split(" (")[0] for r in caplog.records]
    assert sum(p.startswith("generated machine code") for p in phases) == 1, phases  # the primal only
    assert sum(p.startswith("linked the machine code") for p in phases) == 2, phases


def test_changed_source_or_header_misses(fresh_cache, tmp_path):
    src, header = tmp_path / "k.c", tmp_path / "k.h"
    header.write_text("#define K 2.0\n")
    src.write_text('#include "k.h"\ndouble k(double x) { return K * x; }\n')
    assert enzyme.compile([src]).k(1.0) == 2.0
    header.write_text("#define K 3.0\n")
    assert enzyme.compile([src]).k(1.0) == 3.0
    src.write_text('#include "k.h"\ndouble k(double x) { return K * x + 1.0; }\n')
    assert enzyme.compile([src]).k(1.0) == 4.0


def _sibling_project(root: Path, k: float) -> Path:
    (root / "src").mkdir(exist_ok=True)
    (root / "common").mkdir(exist_ok=True)
    (root / "common" / "params.h").write_text(f"#define K {k!r}\n")
    src = root / "src" / "model.c"
    src.write_text('#include "../common/params.h"\ndouble scaled(double x) { return K * x * x; }\n')
    return src


RUN = textwrap.dedent("""
    import sys
    import enzyme
    from enzyme import pipeline
    compiled = []
    real = pipeline.compile_sources_with_dependencies
    pipeline.compile_sources_with_dependencies = lambda *a, **k: compiled.append(1) or real(*a, **k)
    lib = enzyme.compile([sys.argv[1]])
    print(lib.scaled(1.0), enzyme.gradient(enzyme.Reverse, lib.scaled, 1.0), "compiled" if compiled else "cached")
""")


def _run(src: Path, cache_dir: Path) -> list[str]:
    env = {**os.environ, "ENZYME_CACHE_DIR": str(cache_dir)}
    result = subprocess.run([sys.executable, "-c", RUN, str(src)], capture_output=True, text=True, env=env,
                            check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def test_header_in_a_sibling_directory_changed_between_processes(tmp_path):
    """`#include "../common/params.h"`: outside the source's directory and any include directory."""
    src = _sibling_project(tmp_path, 2.0)
    cache_dir = tmp_path / "cache"
    assert _run(src, cache_dir) == ["2.0", "4.0", "compiled"]
    assert _run(src, cache_dir) == ["2.0", "4.0", "cached"]
    (tmp_path / "common" / "params.h").write_text("#define K 3.0\n")  # same size, same second
    assert _run(src, cache_dir) == ["3.0", "6.0", "compiled"]
    assert _run(src, cache_dir) == ["3.0", "6.0", "cached"]


def test_new_header_shadowing_an_include_directory_misses(fresh_cache, tmp_path):
    """A header created next to the source is found before the one in the include directory."""
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "k.h").write_text("#define K 2.0\n")
    src = tmp_path / "k.c"
    src.write_text('#include "k.h"\ndouble k(double x) { return K * x; }\n')
    assert enzyme.compile([src], include_dirs=[tmp_path / "inc"]).k(1.0) == 2.0
    (tmp_path / "k.h").write_text("#define K 5.0\n")
    assert enzyme.compile([src], include_dirs=[tmp_path / "inc"]).k(1.0) == 5.0


def test_fortran_module_and_include_files_from_other_directories(fresh_cache, tmp_path):
    """A module compiled elsewhere (its .mod found through include_dirs) and an INCLUDE file beside it."""
    mods, common = tmp_path / "mods", tmp_path / "common"
    common.mkdir()

    def build_module(k: float) -> None:
        (common / "consts.f90").write_text(f"module consts\n  real(8), parameter :: k = {k!r}d0\nend module\n")
        subprocess.run(["flang-22", "-c", str(common / "consts.f90"), "-module-dir", str(mods), "-o",
                        str(tmp_path / "consts.o")], check=True)

    mods.mkdir()
    build_module(2.0)
    (common / "factor.fi").write_text("      real(8), parameter :: j = 3.0d0\n")
    src = tmp_path / "main.f90"
    src.write_text("function f(x) bind(C, name=\"f\") result(y)\n  use consts\n  real(8), value :: x\n"
                   "  real(8) :: y\n  include 'factor.fi'\n  y = k * j * x\nend function\n")
    assert enzyme.compile([src], include_dirs=[mods, common]).f(1.0) == 6.0
    build_module(5.0)
    assert enzyme.compile([src], include_dirs=[mods, common]).f(1.0) == 15.0
    (common / "factor.fi").write_text("      real(8), parameter :: j = 4.0d0\n")
    assert enzyme.compile([src], include_dirs=[mods, common]).f(1.0) == 20.0


def test_rust_module_files_and_env_variables(fresh_cache, tmp_path, monkeypatch):
    (tmp_path / "helper.rs").write_text("pub fn k() -> f64 { 2.0 }\n")
    src = tmp_path / "model.rs"
    src.write_text('mod helper;\n#[no_mangle]\npub extern "C" fn f(x: f64) -> f64 {\n'
                   '    helper::k() * x * env!("MODEL_SCALE").parse::<f64>().unwrap()\n}\n')
    monkeypatch.setenv("MODEL_SCALE", "1.0")
    assert enzyme.compile([src]).f(1.0) == 2.0
    (tmp_path / "helper.rs").write_text("pub fn k() -> f64 { 7.0 }\n")
    assert enzyme.compile([src]).f(1.0) == 7.0
    monkeypatch.setenv("MODEL_SCALE", "3.0")
    assert enzyme.compile([src]).f(1.0) == 21.0


def test_flags_and_defines_are_in_the_key(fresh_cache, tmp_path):
    src = tmp_path / "k.c"
    src.write_text("double k(double x) { return K * x; }\n")
    assert enzyme.compile([src], defines=["K=2.0"]).k(1.0) == 2.0
    assert enzyme.compile([src], defines=["K=3.0"]).k(1.0) == 3.0
    assert enzyme.compile([src], flags=["-DK=4.0"]).k(1.0) == 4.0


def test_header_changed_while_compiling_is_not_cached(fresh_cache, tmp_path, monkeypatch):
    """The compiler may have read the header before or after the change: nothing is cached for it."""
    src, header = tmp_path / "k.c", tmp_path / "k.h"
    header.write_text("#define K 2.0\n")
    src.write_text('#include "k.h"\ndouble k(double x) { return K * x; }\n')
    real = pipeline.compile_sources_with_dependencies

    def compile_then_edit(*args, **kwargs):
        result = real(*args, **kwargs)
        header.write_text("#define K 3.0\n")  # as if saved by an editor while the compiler ran
        return result

    monkeypatch.setattr(pipeline, "compile_sources_with_dependencies", compile_then_edit)
    assert enzyme.compile([src]).k(1.0) == 2.0  # what the compiler saw
    monkeypatch.setattr(pipeline, "compile_sources_with_dependencies", real)
    assert enzyme.compile([src]).k(1.0) == 3.0


def test_engine_fingerprint_changes_with_the_engine(fresh_cache, tmp_path, monkeypatch):
    package = tmp_path / "package"
    (package / "ad").mkdir(parents=True)
    (package / "ad" / "reverse.py").write_text("RULE = 1\n")
    before = cache.package_fingerprint(package)
    (package / "ad" / "reverse.py").write_text("RULE = 2\n")
    edited = cache.package_fingerprint(package)
    assert edited != before
    (package / "ad" / "__pycache__").mkdir()  # bytecode follows the sources: not part of the fingerprint
    (package / "ad" / "__pycache__" / "reverse.cpython-311.pyc").write_bytes(b"bytecode")
    assert cache.package_fingerprint(package) == edited

    src = tmp_path / "cube.c"
    src.write_text(SOURCE)
    lib = enzyme.compile([src])
    assert enzyme.gradient(enzyme.Reverse, lib.cube, 1.0) == 3.0
    # Another engine (same version number) must not reuse these results.
    _as_new_process()
    monkeypatch.setattr(cache, "engine_fingerprint", lambda: "an edited engine")
    compiled = []
    real = pipeline.transform_module
    monkeypatch.setattr(pipeline, "transform_module", lambda *a, **k: compiled.append(1) or real(*a, **k))
    lib = enzyme.compile([src])
    assert enzyme.gradient(enzyme.Reverse, lib.cube, 1.0) == 3.0
    assert compiled


def test_memory_hit_runs_no_compiler(fresh_cache, tmp_path, monkeypatch):
    src = tmp_path / "cube.c"
    src.write_text(SOURCE)
    first = enzyme.compile([src])
    _forbid(monkeypatch, "compile_sources_with_dependencies")
    assert enzyme.compile([src]).cube(2.0) == first.cube(2.0) == 8.0


def test_disk_cache_can_be_disabled(fresh_cache, tmp_path, monkeypatch):
    monkeypatch.setenv("ENZYME_NO_DISK_CACHE", "1")
    src = tmp_path / "cube.c"
    src.write_text(SOURCE)
    lib = enzyme.compile([src])
    assert enzyme.gradient(enzyme.Reverse, lib.cube, 1.0) == 3.0
    assert not fresh_cache.exists() or not list(fresh_cache.glob("*.entry"))


def test_two_libraries_share_compiled_code(fresh_cache, tmp_path):
    src = tmp_path / "cube.c"
    src.write_text(SOURCE)
    a, b = enzyme.compile([src]), enzyme.compile([src])
    assert a is not b
    x = np.float64(3.0)
    assert enzyme.gradient(enzyme.Reverse, a.cube, x) == enzyme.gradient(enzyme.Reverse, b.cube, x) == 27.0
    assert len(library._jits) == 1


"""A Cargo package (its directory or Cargo.toml) as a source of enzyme.compile: cargo builds it with a path
dependency, every crate's bitcode is linked, and derivatives reach into the dependency.  Checked against central
differences and the other mode."""
from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

import enzyme
from enzyme import Const, Forward, Reverse

PACKAGE = Path(__file__).parent / "sources" / "cargo_kinetics"


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    copy = tmp_path_factory.mktemp("cargo") / "cargo_kinetics"  # cargo writes Cargo.lock beside the manifest
    shutil.copytree(PACKAGE, copy)
    return copy


@pytest.mark.parametrize("opt_level", [0, 2])
def test_package_differentiates_into_its_dependency(package: Path, opt_level: int) -> None:
    lib = enzyme.compile([package], opt_level=opt_level)
    p, temperature, steps = np.array([2.0e3, 2.0e4, 5.0e2, 1.5e4]), 310.0, 200
    g = enzyme.gradient(Reverse, lib.final_b, p, temperature, Const(steps))
    np.testing.assert_allclose(g, enzyme.gradient(Forward, lib.final_b, p, temperature, Const(steps)), rtol=1e-12)
    for i in range(4):
        h = 1e-6 * abs(p[i])
        e = np.zeros(4)
        e[i] = h
        fd = (lib.final_b(p + e, temperature, steps) - lib.final_b(p - e, temperature, steps)) / (2 * h)
        assert g[i] == pytest.approx(fd, rel=1e-6)


def test_manifest_path_and_build_errors(package: Path, tmp_path: Path) -> None:
    assert enzyme.compile([package / "Cargo.toml"]).names() == ["final_b"]
    broken = tmp_path / "broken"
    shutil.copytree(package, broken)
    (broken / "src" / "chain.rs").write_text("pub fn integrate(k1: f64) -> f64 { k1 + }\n")
    with pytest.raises(enzyme.CompileError,
                       match=r"cargo failed to build \S*broken/Cargo.toml:\n  error: expected expression"):
        enzyme.compile([broken])

"""The example consumer projects built with real CMake + Ninja, run, and their gradients checked."""
from __future__ import annotations

import math
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cmake_project import EXAMPLES, build, built_steps, configure, gradient, run
from conftest import site_packages

X = (0.5, 2.0, -1.5)


def mixed_expected_gradient(x: tuple[float, ...]) -> list[float]:
    """d/dx of sin(x0) x1 (C) + sum x_i^2 (Fortran) + sum x_i^3 / 3 (Rust), by hand."""
    c_part = [math.cos(x[0]) * x[1], math.sin(x[0]), 0.0]
    return [c + 2 * v + v * v for c, v in zip(c_part, x)]


@pytest.fixture(scope="module")
def mixed_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The C/Fortran/Rust example in a copy of its own (tests edit its sources), found via Enzyme_DIR."""
    root = tmp_path_factory.mktemp("mixed")
    source = root / "src"
    shutil.copytree(EXAMPLES / "mixed", source)
    build_dir = root / "build"
    from enzyme import _paths
    configure(source, build_dir, f"-DEnzyme_DIR={_paths.cmake_dir()}")
    build(build_dir)
    return build_dir


@pytest.mark.xdist_group("cmake-mixed")
@pytest.mark.parametrize("opt_level", [2, 0])
def test_cross_language_gradient(mixed_build: Path, opt_level: int) -> None:
    configure(mixed_build.parent / "src", mixed_build, f"-DMIXED_OPT_LEVEL={opt_level}")
    build(mixed_build)
    output = run([mixed_build / "mixed_gradient"]).stdout
    assert gradient(output) == pytest.approx(mixed_expected_gradient(X), rel=1e-12)


@pytest.mark.xdist_group("cmake-mixed")
def test_touching_a_source_rebuilds_its_bitcode_and_the_module_only(mixed_build: Path) -> None:
    build(mixed_build)  # up to date, whatever ran before
    (mixed_build.parent / "src" / "model.c").touch()
    steps = built_steps(build(mixed_build))
    assert steps == ["Enzyme: compiling model.c to bitcode", "Enzyme: linking and differentiating mixed_gradient",
                     "Linking C executable mixed_gradient"], steps


@pytest.mark.xdist_group("cmake-mixed")
def test_editing_a_header_rebuilds_only_the_sources_including_it(mixed_build: Path) -> None:
    build(mixed_build)
    header = mixed_build.parent / "src" / "include" / "model.h"
    header.write_text(header.read_text() + "/* edited */\n")
    steps = built_steps(build(mixed_build))
    compiled = sorted(s for s in steps if s.startswith("Enzyme: compiling"))
    assert compiled == ["Enzyme: compiling main.c to bitcode", "Enzyme: compiling model.c to bitcode"], steps
    assert "Enzyme: linking and differentiating mixed_gradient" in steps
    assert built_steps(build(mixed_build)) == []  # and then nothing is out of date


@pytest.mark.xdist_group("cmake-mixed")
def test_compile_definitions_of_the_target_reach_the_bitcode(mixed_build: Path) -> None:
    configure(mixed_build.parent / "src", mixed_build, "-DMIXED_OPT_LEVEL=2")
    cmakelists = mixed_build.parent / "src" / "CMakeLists.txt"
    original = cmakelists.read_text()
    cmakelists.write_text(original.replace("MIXED_SCALE=1.0", "MIXED_SCALE=2.0"))
    try:
        build(mixed_build)
        output = run([mixed_build / "mixed_gradient"]).stdout
        expected = mixed_expected_gradient(X)
        expected[0] += math.cos(X[0]) * X[1]
        expected[1] += math.sin(X[0])
        assert gradient(output) == pytest.approx(expected, rel=1e-12)
    finally:
        cmakelists.write_text(original)
        build(mixed_build)


@pytest.mark.xdist_group("cmake-venv")
def test_installed_package_found_by_enzyme_dir_and_prefix_path(enzyme_venv: Path, tmp_path: Path) -> None:
    installed = site_packages(enzyme_venv) / "enzyme"
    python = enzyme_venv / "bin" / "python"
    for name, locate in [("dir", f"-DEnzyme_DIR={installed / 'cmake'}"),
                         ("prefix", f"-DCMAKE_PREFIX_PATH={installed}")]:
        build_dir = tmp_path / name
        configured = configure(EXAMPLES / "mixed", build_dir, locate, f"-DPython_EXECUTABLE={python}")
        cache = (build_dir / "CMakeCache.txt").read_text()
        assert re.search(rf"^Enzyme_DIR:\w+={re.escape(str(installed / 'cmake'))}$", cache, re.MULTILINE)
        assert "another install" not in configured.stdout  # the venv's own `python -m enzyme` runs the build
        build(build_dir)
        output = run([build_dir / "mixed_gradient"]).stdout
        assert gradient(output) == pytest.approx(mixed_expected_gradient(X), rel=1e-12)


@pytest.mark.xdist_group("cmake-venv")
def test_scikit_build_core_package_installs_and_differentiates(enzyme_venv: Path, tmp_path: Path) -> None:
    source = tmp_path / "python_package"
    shutil.copytree(EXAMPLES / "python_package", source)
    python = enzyme_venv / "bin" / "python"
    # No build isolation: scikit-build-core and pyenzyme (with its cmake.root entry point) come from the venv.
    run([python, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "--no-index", source])
    probe = "import rosenbrock_ad as r; print(r._core.__file__); print(*r.gradient([-1.2, 1.0]))"
    lines = run([python, "-c", probe], cwd=tmp_path).stdout.split("\n")
    assert ".cpython-" in lines[0] and str(enzyme_venv) in lines[0]
    assert [float(v) for v in lines[1].split()] == pytest.approx([-215.6, -88.0], rel=1e-12)
    # The example's own tests (what `tox -e py` runs), against the installed package.
    result = run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", source / "tests"], cwd=tmp_path)
    assert "passed" in result.stdout and "skipped" not in result.stdout, result.stdout


@pytest.mark.requires_tool("cuda")
@pytest.mark.requires_tool("ptxas")
def test_cuda_targets_build_ptx_and_a_program(tmp_path: Path) -> None:
    """A PTX target and a CUDA program (run: ok on a GPU, a clean CUDA error without one)."""
    from enzyme import _paths
    configure(EXAMPLES / "cuda", tmp_path, f"-DEnzyme_DIR={_paths.cmake_dir()}")
    build(tmp_path)
    (ptx,) = tmp_path.rglob("energy_gradient_ptx.ptx")
    text = ptx.read_text()
    assert ".entry energy_gradient" in text
    ptxas = shutil.which("ptxas") or "/usr/local/cuda-13.0/bin/ptxas"
    run([ptxas, "-arch=sm_90", ptx, "-o", tmp_path / "k.cubin"])
    program = tmp_path / "gradient_program"
    result = subprocess.run([program], capture_output=True, text=True, timeout=300, check=False)
    if Path("/dev/nvidia0").exists() and shutil.which("nvidia-smi"):
        assert result.returncode == 0 and result.stdout.startswith("ok:"), result.stdout + result.stderr
    else:
        assert result.returncode == 2 and result.stderr.startswith("CUDA error: "), (result.returncode, result.stderr)


@pytest.mark.requires_tool("rocm-device-libs")
@pytest.mark.requires_tool("hip")
def test_hip_target_builds_a_code_object(tmp_path: Path) -> None:
    from enzyme import _paths
    source = tmp_path / "src"
    source.mkdir()
    (source / "k.hip").write_text(
        "#include <hip/hip_runtime.h>\n#include <enzyme/enzyme.h>\n"
        "__device__ double sq(double x) { return x * x * x; }\n"
        "extern \"C\" __global__ void grad(const double *x, double *dx) {\n"
        "  dx[threadIdx.x] = __enzyme_autodiff((void *)sq, enzyme_out, x[threadIdx.x]);\n}\n")
    (source / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.20)\nproject(hip_gradient LANGUAGES NONE)\n"
        "find_package(Enzyme CONFIG REQUIRED)\n"
        "enzyme_add_differentiable(kernels SOURCES k.hip COMPILE_OPTIONS --offload-arch=gfx908)\n")
    configure(source, tmp_path / "build", f"-DEnzyme_DIR={_paths.cmake_dir()}")
    build(tmp_path / "build")
    (code_object,) = (tmp_path / "build").rglob("kernels.hsaco")
    header = run(["readelf", "-h", "-s", code_object]).stdout
    assert "AMD GPU" in header and ", gfx908," in header and " grad" in header


def test_cli_help_lists_the_build_commands() -> None:
    out = run([sys.executable, "-m", "enzyme", "--help"]).stdout
    for command in ("bitcode", "build", "build-info"):
        assert command in out

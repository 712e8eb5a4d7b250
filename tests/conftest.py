"""Shared pytest fixtures and the ``requires_tool`` marker.

Required tools (clang-22, flang-22, ld.lld-22, llc-22, rustc, ...) are never
skipped: a missing one makes the tests that need it fail, because ci/setup.sh
installs them.  Only the optional tools listed in ``OPTIONAL_TOOLS`` can be
missing; tests that need one are marked::

    @pytest.mark.requires_tool("ptxas")
    def test_ptx_assembles(): ...
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
CUDA_ROOT = Path(os.environ.get("CUDA_PATH", "/usr/local/cuda-13.0"))
ROCM_BITCODE_DIR = Path("/usr/lib/x86_64-linux-gnu/amdgcn/bitcode")


def _ptxas() -> bool:
    return shutil.which("ptxas") is not None or (CUDA_ROOT / "bin" / "ptxas").is_file()


def _cuda() -> bool:
    return (CUDA_ROOT / "include" / "cuda_runtime.h").is_file()


def _rocm_device_libs() -> bool:
    return (ROCM_BITCODE_DIR / "ocml.bc").is_file()


def _hip_headers() -> bool:
    return Path("/usr/include/hip/hip_runtime.h").is_file()


def _nvidia_gpu() -> bool:
    return Path("/dev/nvidia0").exists() and shutil.which("nvidia-smi") is not None


def _mpi() -> bool:
    return shutil.which("mpicc") is not None and shutil.which("mpirun") is not None


# name -> (is it present?, how to get it).  Everything else the suite uses is required.
OPTIONAL_TOOLS: dict[str, tuple[Callable[[], bool], str]] = {
    "ptxas": (_ptxas, "install the CUDA toolkit (ptxas) or set CUDA_PATH"),
    "cuda": (_cuda, "install the CUDA toolkit headers or set CUDA_PATH"),
    "rocm-device-libs": (_rocm_device_libs, "apt-get install rocm-device-libs"),
    "hip": (_hip_headers, "apt-get install libamdhip64-dev"),
    "nvidia-gpu": (_nvidia_gpu, "run on a machine with an NVIDIA GPU"),
    "mpi": (_mpi, "apt-get install libopenmpi-dev openmpi-bin"),
}
_presence: dict[str, bool] = {}


def tool_available(name: str) -> bool:
    """Whether the optional tool ``name`` (a key of OPTIONAL_TOOLS) is present."""
    if name not in OPTIONAL_TOOLS:
        raise KeyError(f"requires_tool({name!r}): not an optional tool; known: {sorted(OPTIONAL_TOOLS)}")
    if name not in _presence:
        _presence[name] = OPTIONAL_TOOLS[name][0]()
    return _presence[name]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"requires_tool(name): skip when the optional tool is absent; name is one of {sorted(OPTIONAL_TOOLS)}",
    )


def pytest_runtest_setup(item: pytest.Item) -> None:
    for marker in item.iter_markers(name="requires_tool"):
        if len(marker.args) != 1 or marker.args[0] not in OPTIONAL_TOOLS:
            # A typo, or a required tool marked optional: fail instead of silently skipping.
            pytest.fail(
                f"requires_tool{marker.args!r} on {item.nodeid}: expected one of "
                f"{sorted(OPTIONAL_TOOLS)} (required tools must not be skipped)",
                pytrace=False,
            )
        name = marker.args[0]
        if not tool_available(name):
            pytest.skip(f"optional tool {name!r} not found: {OPTIONAL_TOOLS[name][1]}")


@pytest.fixture(scope="session", autouse=True)
def enzyme_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Cache dir for compiled artifacts, shared by all tests of a session (one per xdist worker).

    Exported as ENZYME_CACHE_DIR (inherited by subprocesses) unless the caller already set it.
    """
    preset = os.environ.get("ENZYME_CACHE_DIR")
    if preset:
        Path(preset).mkdir(parents=True, exist_ok=True)
        yield Path(preset)
        return
    cache = tmp_path_factory.mktemp("enzyme-cache")
    os.environ["ENZYME_CACHE_DIR"] = str(cache)
    try:
        yield cache
    finally:
        os.environ.pop("ENZYME_CACHE_DIR", None)


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The checkout's top directory."""
    return REPO_ROOT


@pytest.fixture
def write_file(tmp_path: Path) -> Callable[[str, str], Path]:
    """``write_file("a.c", text)`` writes ``text`` under this test's tmp_path and returns the path."""

    def write(name: str, text: str) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return path

    return write


@pytest.fixture(scope="session")
def run_enzyme() -> Callable[..., subprocess.CompletedProcess[str]]:
    """``run_enzyme("opt", "a.ll", check=True)`` runs ``python -m enzyme`` and captures its output.

    With check=True (the default) a non-zero exit fails the test and shows stdout/stderr.
    """

    def run(*args: str | os.PathLike[str], check: bool = True, timeout: float = 300,
            cwd: str | os.PathLike[str] | None = None) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "enzyme", *map(str, args)]
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout, cwd=cwd)
        if check and result.returncode != 0:
            pytest.fail(
                f"{' '.join(command)} exited with {result.returncode}\n"
                f"--- stdout\n{result.stdout}--- stderr\n{result.stderr}",
                pytrace=False,
            )
        return result

    return run

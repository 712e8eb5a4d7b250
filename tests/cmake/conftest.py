"""Fixtures of the CMake tests: a pyenzyme wheel installed into a fresh virtual environment."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from cmake_project import REPO_ROOT, run


@pytest.fixture(scope="session")
def pyenzyme_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel of this checkout, alone in its directory (usable as pip's --find-links)."""
    wheels = tmp_path_factory.mktemp("wheels")
    run([sys.executable, "-m", "pip", "wheel", REPO_ROOT, "--no-deps", "--no-build-isolation", "-q", "-w", wheels])
    (wheel,) = wheels.glob("pyenzyme_llvm-*.whl")
    return wheel


@pytest.fixture(scope="session")
def enzyme_venv(tmp_path_factory: pytest.TempPathFactory, pyenzyme_wheel: Path) -> Path:
    """A venv (seeing this Python's packages, so llvmlite and scikit-build-core need no network)
    with pyenzyme installed from a freshly built wheel: the installed layout, not the checkout."""
    root = tmp_path_factory.mktemp("enzyme-venv")
    venv = root / "venv"
    run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", venv])
    python = venv / "bin" / "python"
    wheel = pyenzyme_wheel
    run([python, "-m", "pip", "install", "-q", "--no-deps", "--no-index", wheel])
    # The checkout's editable install (seen through --system-site-packages) puts a meta path
    # finder for `enzyme` ahead of every sys.path entry; drop it so the venv's wheel is imported.
    # sitecustomize runs after all .pth files, so the finder exists by then.
    (site_packages_dir(venv) / "sitecustomize.py").write_text(
        "import sys\n"
        "sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != 'ScikitBuildInplaceFinder']\n")
    return venv


def site_packages_dir(venv: Path) -> Path:
    (found,) = (venv / "lib").glob("python3*/site-packages")
    return found


def site_packages(venv: Path) -> Path:
    probe = "import enzyme, pathlib; print(pathlib.Path(enzyme.__file__).parent.parent)"
    out = subprocess.run([venv / "bin" / "python", "-c", probe],
                         capture_output=True, text=True, check=True, cwd=venv)  # not the checkout's enzyme/ in cwd
    return Path(out.stdout.strip())

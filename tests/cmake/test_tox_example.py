"""``tox -e py`` in examples/python_package: tox builds the extension in an isolated build
environment (scikit-build-core and pyenzyme from build-system.requires), installs it and runs
its gradient tests.  pyenzyme comes from a wheel of this checkout (PIP_FIND_LINKS); the build
environment is isolated as in any user's build (its requirements come from PyPI, then pip's cache);
the test environment sees this Python's packages."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from cmake_project import REPO_ROOT, run


@pytest.mark.xdist_group("cmake-venv")
def test_tox_py_in_the_python_package_example(pyenzyme_wheel: Path, tmp_path: Path) -> None:
    project = tmp_path / "python_package"
    shutil.copytree(REPO_ROOT / "examples" / "python_package", project,
                    ignore=shutil.ignore_patterns(".tox", "build", "__pycache__"))
    env = dict(os.environ, PIP_FIND_LINKS=str(pyenzyme_wheel.parent))
    result = run(["tox", "-e", "py", "--workdir", tmp_path / "tox", "-x", "testenv:py.system_site_packages=true"],
                 cwd=project, env=env)
    assert " passed" in result.stdout and "failed" not in result.stdout, result.stdout

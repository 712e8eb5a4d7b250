"""The scripts behind the README's two commands and CI's .ci/run."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

SCRIPTS = ["ci/setup.sh", "ci/test.sh", "ci/gpu_check.sh", ".ci/run"]


@pytest.mark.parametrize("script", SCRIPTS)
def test_script_is_valid_bash(repo_root: Path, script: str) -> None:
    result = subprocess.run(["bash", "-n", str(repo_root / script)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_ci_run_is_setup_then_tests(repo_root: Path) -> None:
    lines = (repo_root / ".ci" / "run").read_text().splitlines()
    assert lines[-2:] == ["bash ci/setup.sh", "bash ci/test.sh"]


def test_readme_shows_the_two_commands(repo_root: Path) -> None:
    readme = (repo_root / "README.md").read_text()
    assert "bash ci/setup.sh && python3 examples/demo.py" in readme
    assert "\nbash ci/test.sh" in readme


def test_test_script_fails_when_no_test_is_collected(repo_root: Path) -> None:
    # pytest exits with 5 when nothing is collected; the suite must not count that as a pass.
    result = subprocess.run(
        ["bash", "ci/test.sh", "-n", "0", "-p", "no:cacheprovider", "-k", "no_test_has_this_name"],
        cwd=repo_root, capture_output=True, text=True, timeout=300)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "no tests were collected" in result.stderr

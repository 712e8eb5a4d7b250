"""The package type-checks (mypy, configured in pyproject.toml) and says so to its users (py.typed)."""
from __future__ import annotations

import itertools
import re
import subprocess
import sys
from pathlib import Path


def test_mypy_finds_no_errors(repo_root: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "mypy"], cwd=repo_root, capture_output=True, text=True,
                            timeout=600, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_modules_exempt_from_type_errors_are_few_and_explained(repo_root: Path) -> None:
    """Each mypy override that silences errors lists its modules and has a comment just above saying why."""
    text = (repo_root / "pyproject.toml").read_text()
    blocks = re.split(r"^\[\[tool\.mypy\.overrides\]\]\n", text, flags=re.MULTILINE)
    exempt = []
    for before, block in itertools.pairwise(blocks):
        body = block.split("\n[", 1)[0]
        if re.search(r"^ignore_errors\s*=\s*true", body, re.MULTILINE):
            exempt += re.findall(r'"([\w.]+)"', re.search(r"^module\s*=\s*\[(.*?)\]", body, re.MULTILINE | re.DOTALL).group(1))
            assert before.rstrip().splitlines()[-1].startswith("#"), f"no reason given above the override of {body}"
    assert len(exempt) <= 3, exempt
    assert all(m.startswith("enzyme.") for m in exempt), exempt


def test_package_ships_py_typed(repo_root: Path) -> None:
    assert (repo_root / "enzyme" / "py.typed").is_file()

"""The API reference (docs/api, Sphinx autodoc over the docstrings) builds without a warning and
documents every public name of ``enzyme`` and ``enzyme.testing``."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import enzyme
import enzyme.testing

DOCS = Path(__file__).resolve().parents[2] / "docs" / "api"


def _documented_names() -> set[str]:
    text = (DOCS / "index.rst").read_text()
    names = set(re.findall(r"^\.\. auto(?:function|class|exception):: enzyme\.(\w+)", text, re.M))
    for members in re.findall(r"^\.\. automodule:: enzyme\.testing\n\s+:members: (.+)$", text, re.M):
        names |= {f"testing.{m.strip()}" for m in members.split(",")}
    # The mode instances are listed in prose under enzyme.Mode.
    names |= {n for n in re.findall(r"``enzyme\.(\w+)``", text)}
    return names


def test_every_public_name_is_in_the_reference() -> None:
    public = set(enzyme.__all__) | {"compile"} | {f"testing.{n}" for n in enzyme.testing.__all__}
    missing = public - _documented_names()
    assert not missing, f"add these to docs/api/index.rst: {sorted(missing)}"


def test_reference_builds_without_warnings(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", str(DOCS), str(tmp_path)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"{' '.join(command)}:\n{result.stdout}\n{result.stderr}"
    page = (tmp_path / "index.html").read_text()
    # The docstrings themselves are rendered, not only the signatures.
    assert "Compile C/C++/Fortran/Rust sources" in page
    assert "finite differences" in page.lower()

"""``enzyme compile`` refuses an Enzyme attribute it does not implement: one error line, no output."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from subprocess import CompletedProcess


def test_unknown_enzyme_attribute(run_enzyme: Callable[..., CompletedProcess[str]], tmp_path: Path) -> None:
    source = tmp_path / "model.c"
    source.write_text("[[enzyme::differentiate_twice]] double f(double x) { return x; }\n")
    result = run_enzyme("compile", source, "-o", tmp_path / "model.bc", check=False)
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "model.c:1:3: unknown attribute 'enzyme::differentiate_twice'" in lines[0]
    assert not (tmp_path / "model.bc").exists()

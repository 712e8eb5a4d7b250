"""The README's first command ends with `python3 examples/demo.py`: it must run and agree with numpy."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_demo_runs_and_matches_numpy(repo_root: Path) -> None:
    result = subprocess.run([sys.executable, str(repo_root / "examples" / "demo.py")],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count(" ok") == 5, result.stdout  # 3 kernels, gradient, directional derivative
    assert "gradient vs finite differences: ok" in result.stdout
    assert "MISMATCH" not in result.stdout

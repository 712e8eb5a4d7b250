"""Helpers of the wrapper tests: run wrappers, real compilers and built programs in one directory."""
from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
ENZYME_INCLUDE = REPO_ROOT / "frontends" / "include"
@dataclass
class Wrappers:
    """Runs wrappers, real compilers and built programs in one working directory."""

    cwd: Path
    env: dict[str, str]
    bin_dir: Path  # holds the enzyme-cc, enzyme-c++, enzyme-flang launchers

    def run(self, *command: str | os.PathLike[str], check: bool = True, stdin: str = "",
            timeout: float = 300) -> subprocess.CompletedProcess[str]:
        argv = [str(part) for part in command]
        result = subprocess.run(argv, capture_output=True, text=True, cwd=self.cwd, env=self.env,
                                input=stdin, timeout=timeout, check=False)
        if check and result.returncode != 0:
            pytest.fail(f"{' '.join(argv)} exited with {result.returncode}\n--- stdout\n{result.stdout}"
                        f"--- stderr\n{result.stderr}", pytrace=False)
        return result

    def write(self, name: str, text: str) -> Path:
        path = self.cwd / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return path

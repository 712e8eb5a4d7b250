"""Configure, build and run consumer CMake projects in tests: the one place tests call cmake."""
from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Sequence
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = REPO_ROOT / "examples"
TIMEOUT_S = 300
# "grad[1] = 8.47" lines printed by the example programs.
_GRADIENT_LINE = re.compile(r"^grad\[(\d+)\] = (\S+)$", re.MULTILINE)


def run(argv: Sequence[str | os.PathLike[str]], *, cwd: Path | None = None,
        env: dict[str, str] | None = None, check: bool = True) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([str(a) for a in argv], cwd=cwd, env=env, capture_output=True, text=True,
                            timeout=TIMEOUT_S, check=False)
    if check:
        assert result.returncode == 0, f"{' '.join(map(str, argv))} failed:\n{result.stdout}\n{result.stderr}"
    return result


def configure(source: Path, build: Path, *defines: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return run(["cmake", "-S", source, "-B", build, "-G", "Ninja", *defines], check=check)


def build(build_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run(["cmake", "--build", build_dir, "-j2", *args])


def built_steps(result: subprocess.CompletedProcess[str]) -> list[str]:
    """The descriptions of the steps Ninja ran (its "[3/8] Enzyme: compiling ..." lines)."""
    return [m.group(1) for m in re.finditer(r"^\[\d+/\d+\] (.*)$", result.stdout, re.MULTILINE)]


def gradient(output: str) -> list[float]:
    found = sorted((int(i), float(v)) for i, v in _GRADIENT_LINE.findall(output))
    assert found, f"no gradient printed:\n{output}"
    return [v for _, v in found]

"""benchmarks/bench_ir_roundtrip.py runs (on a tiny module); no timing is asserted here."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_benchmark_script_runs_on_a_small_module(repo_root: Path) -> None:
    script = repo_root / "benchmarks" / "bench_ir_roundtrip.py"
    result = subprocess.run(
        [sys.executable, str(script), "--functions", "12", "--repeat", "1", "--variants", "O0,O2-g"],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    rows = [line.split() for line in result.stdout.splitlines() if line.startswith(("O0 ", "O2-g "))]
    assert [row[0] for row in rows] == ["O0", "O2-g"], result.stdout
    for row in rows:
        assert int(row[1]) == 12 and int(row[2]) > 100  # functions, instructions
    assert "target: 20,000 instructions/s" in result.stdout


def test_benchmark_rejects_unknown_variant(repo_root: Path) -> None:
    script = repo_root / "benchmarks" / "bench_ir_roundtrip.py"
    result = subprocess.run([sys.executable, str(script), "--variants", "O7"],
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2 and "unknown variant" in result.stderr


def test_pipeline_benchmark_runs_on_a_small_program(repo_root: Path) -> None:
    """benchmarks/bench_pipeline_large.py (no timing asserted): every request it makes is differentiated."""
    script = repo_root / "benchmarks" / "bench_pipeline_large.py"
    result = subprocess.run([sys.executable, str(script), "--functions", "12", "--repeat", "1"],
                            capture_output=True, text=True, timeout=600, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "12 derivative requests" in result.stdout  # functions 1, 3, 5, 7, 9, 11: two requests each
    assert "whole pipeline" in result.stdout


def test_build_scaling_benchmark_runs_on_small_programs(repo_root: Path) -> None:
    """benchmarks/bench_build_scaling.py (no timing asserted): both generated programs build and are reported."""
    script = repo_root / "benchmarks" / "bench_build_scaling.py"
    result = subprocess.run([sys.executable, str(script), "--kernels", "6", "--straight", "200", "--passes", "3"],
                            capture_output=True, text=True, timeout=600, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "| 6 kernels |" in result.stdout and "| straight-line ~200 |" in result.stdout
    assert result.stdout.count("slowest passes of the post-AD O2") == 2
    assert "differentiate (Python)" in result.stdout and "O2 + codegen" in result.stdout


def test_adbench_benchmark_runs_and_checks_its_gradients(repo_root: Path) -> None:
    """benchmarks/bench_adbench.py at its smallest size: every gradient agrees with central differences
    (the harness exits non-zero otherwise); no timing asserted."""
    script = repo_root / "benchmarks" / "bench_adbench.py"
    result = subprocess.run([sys.executable, str(script), "--scale", "1", "--reps", "1"],
                            capture_output=True, text=True, timeout=600, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    for kernel in ("BA ", "LSTM ", "heat.f90 ", "springs.rs "):
        assert any(line.startswith(kernel) and " ratio " in line for line in result.stdout.splitlines()), result.stdout
    assert "DISAGREES" not in result.stdout

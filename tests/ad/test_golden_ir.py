"""Golden IR tests (see golden_ir.py): generated derivatives of small functions, pinned line by line.

A failure means the generated code changed.  If the change is intended, regenerate with
``python3 tests/ad/golden_ir.py update`` and review the diff of ``tests/ad/golden/`` like code.
The other tests here check that the pins are worth something: they fail when one line of the
derivative changes, pass when only local names change, and the output does not depend on the
process (hash seeds, object ids).
"""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys

import golden_ir
import pytest
from golden_ir import MARKER, Run, filecheck, functions, input_part, pinned_functions, produce

RUNS = golden_ir.all_runs()


def _report(run: Run, output: str, result: subprocess.CompletedProcess[str]) -> str:
    return (f"{run.path.name} [{run.prefix}]: the generated IR no longer matches its CHECK lines.\n"
            f"If the change is intended: python3 tests/ad/golden_ir.py update {run.path.name}, then review the diff.\n"
            f"--- filecheck\n{result.stdout}{result.stderr}\n--- output\n{output}")


@pytest.mark.parametrize("run", RUNS, ids=lambda r: r.id)
def test_golden(run: Run) -> None:
    output = produce(run)
    result = filecheck(run.path, run.prefix, output)
    assert result.returncode == 0, _report(run, output, result)


def test_golden_files_are_complete() -> None:
    """Every file has a RUN line and generated checks for each of its prefixes; a few dozen files."""
    files = golden_ir.golden_files()
    assert len(files) >= 30
    for path in files:
        text = path.read_text()
        runs = golden_ir.runs_of(path)
        assert runs, f"{path.name}: no '; RUN: enzyme opt %s ... -o - | filecheck %s' line"
        assert MARKER in text, f"{path.name}: no generated checks; run python3 tests/ad/golden_ir.py update"
        for run in runs:
            assert f"; {run.prefix}-LABEL:" in text.split(MARKER, 1)[1], f"{path.name}: no {run.prefix} checks"


def _pinned_body_lines(run: Run) -> list[tuple[str, int]]:
    """(function, line index) of the instructions in the pinned functions of ``run``'s output."""
    output = produce(run)
    bodies = functions(output)
    return [(name, i) for name in pinned_functions(input_part(run.path.read_text()), output)
            for i, line in enumerate(bodies[name]) if line.startswith("  ")]


def _with_line(output: str, name: str, index: int, new: str | None) -> str:
    """``output`` with line ``index`` of function ``name`` replaced by ``new`` (or deleted)."""
    body = functions(output)[name]
    changed = body[:index] + ([] if new is None else [new]) + body[index + 1:]
    return output.replace("\n".join(body), "\n".join(changed), 1)


_ARITHMETIC = {"fadd": "fsub", "fsub": "fadd", "fmul": "fdiv", "fdiv": "fmul"}


@pytest.mark.parametrize("run", RUNS, ids=lambda r: r.id)
def test_golden_checks_catch_changes(run: Run) -> None:
    """A dropped instruction or a changed arithmetic opcode anywhere in the derivative fails the checks."""
    output = produce(run)
    lines = _pinned_body_lines(run)
    bodies = functions(output)
    # Dropping the middle instruction, and the last one (the return), must fail.
    for name, index in (lines[len(lines) // 2], lines[-1]):
        result = filecheck(run.path, run.prefix, _with_line(output, name, index, None))
        assert result.returncode != 0, f"{run.id}: dropping '{bodies[name][index].strip()}' went unnoticed"
    arithmetic = [(name, i) for name, i in lines
                  if re.search(r"= (fadd|fsub|fmul|fdiv) ", bodies[name][i])]
    for name, index in arithmetic[-1:]:
        line = bodies[name][index]
        mutated = re.sub(r"= (fadd|fsub|fmul|fdiv) ", lambda m: f"= {_ARITHMETIC[m.group(1)]} ", line, count=1)
        result = filecheck(run.path, run.prefix, _with_line(output, name, index, mutated))
        assert result.returncode != 0, f"{run.id}: changing '{line.strip()}' went unnoticed"


@pytest.mark.parametrize("run", RUNS, ids=lambda r: r.id)
def test_golden_checks_ignore_local_names(run: Run) -> None:
    """Renaming every local value and block (what a refactor may do without changing the code) passes."""
    output = produce(run)
    renamed = golden_ir.locals_renamed(output, pinned_functions(input_part(run.path.read_text()), output))
    assert renamed != output
    result = filecheck(run.path, run.prefix, renamed)
    assert result.returncode == 0, _report(run, renamed, result)


def test_golden_output_is_deterministic() -> None:
    """Another process (other hash seed, other object ids) prints the same IR for every RUN line."""
    script = ("import sys; sys.path.insert(0, sys.argv[1]); import golden_ir\n"
              "for run in golden_ir.all_runs(): sys.stdout.write(golden_ir.produce(run) + '\\0')\n")
    env = {**os.environ, "PYTHONHASHSEED": "1234"}
    here = str(golden_ir.GOLDEN_DIR.parent)
    result = subprocess.run([sys.executable, "-c", script, here], capture_output=True, text=True, env=env,
                            check=False)
    assert result.returncode == 0, result.stderr
    others = result.stdout.split("\0")[:-1]
    assert len(others) == len(RUNS)
    for run, other in zip(RUNS, others):
        assert other == produce(run), f"{run.id}: the output depends on the process"


def test_run_line_runs_in_a_shell() -> None:
    """RUN lines are real commands: the first file's, run by the shell, passes."""
    run = RUNS[0]
    line = next(m.group(0) for m in golden_ir.RUN_LINE.finditer(run.path.read_text()))
    command = line.removeprefix("; RUN: ").replace("%s", shlex.quote(str(run.path)))
    result = subprocess.run(["bash", "-o", "pipefail", "-c", command], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0, f"{command}\n{result.stdout}{result.stderr}"

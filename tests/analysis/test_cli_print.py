"""``enzyme opt IN --print-types F`` / ``--print-activity F --activity ...`` print and exit 0."""
from __future__ import annotations

from pathlib import Path

FILE = Path(__file__).resolve().parent / "filecheck" / "array_loop.ll"


def test_print_types(run_enzyme):
    result = run_enzyme("opt", FILE, "--print-types", "sumsq")
    assert result.stdout.splitlines()[:2] == ["@sumsq", "%x: {[-1]:Pointer, [-1,-1]:Float@double}"]


def test_print_activity(run_enzyme):
    result = run_enzyme("opt", FILE, "--print-activity", "sumsq", "--activity", "dup,const", "--ret-active")
    lines = result.stdout.splitlines()
    assert lines[:3] == ["@sumsq [dup, const] ret active", "%x: active value", "%n: constant value"]
    assert "%sq = fmul double %v, %v: active value, active instruction" in lines


def test_errors_are_one_line(run_enzyme):
    missing = run_enzyme("opt", FILE, "--print-types", "nope", check=False)
    assert missing.returncode == 1 and missing.stderr.startswith("error: no function @nope")
    wrong = run_enzyme("opt", FILE, "--print-activity", "sumsq", "--activity", "dup", check=False)
    assert wrong.returncode == 1 and "1 activities given for 2 arguments" in wrong.stderr
    no_output = run_enzyme("opt", FILE, check=False)
    assert no_output.returncode == 1 and "needs -o" in no_output.stderr

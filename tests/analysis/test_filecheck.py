"""Printer-pass tests: each ``filecheck/*.ll`` says which analysis to print and what the output must show.

A file holds one or more lines::

    ; ANALYZE: types f                      -> print_types(module, "f"), checked with CHECK lines
    ; ANALYZE(ACT): activity f dup,const ret -> print_activity(..., ["dup", "const"], ret_active=True),
                                               checked with the ACT prefix

and FileCheck directives (the pip ``filecheck`` tool runs them).
"""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from enzyme.analysis import print_activity, print_types
from enzyme.ir import parse_module

HERE = Path(__file__).resolve().parent / "filecheck"
_ANALYZE = re.compile(r"^; ANALYZE(?:\((\w+)\))?: (types|activity) (\S+)(?: (\S+))?( ret)?\s*$", re.MULTILINE)


def _filecheck() -> list[str]:
    exe = shutil.which("filecheck")
    return [exe] if exe else [sys.executable, "-m", "filecheck"]


def _runs() -> list[tuple[Path, str, str, str, str, bool]]:
    out = []
    for path in sorted(HERE.glob("*.ll")):
        for m in _ANALYZE.finditer(path.read_text()):
            prefix, kind, fname, acts, ret = m.group(1) or "CHECK", m.group(2), m.group(3), m.group(4) or "", m.group(5)
            out.append((path, prefix, kind, fname, acts, bool(ret)))
    return out


@pytest.mark.parametrize("path,prefix,kind,fname,acts,ret", _runs(),
                         ids=lambda v: v.name if isinstance(v, Path) else None)
def test_printer_output(path: Path, prefix: str, kind: str, fname: str, acts: str, ret: bool) -> None:
    module = parse_module(path.read_text())
    if kind == "types":
        text = print_types(module, fname)
    else:
        text = print_activity(module, fname, acts.split(",") if acts else [], ret)
    result = subprocess.run([*_filecheck(), str(path), f"--check-prefix={prefix}"], input=text,
                            capture_output=True, text=True)
    report = f"{path.name} [{prefix}]\n--- output\n{text}--- filecheck\n{result.stdout}{result.stderr}"
    assert result.returncode == 0, report


def test_every_file_has_an_analysis() -> None:
    files = {p for p, *_ in _runs()}
    assert files == set(HERE.glob("*.ll"))

"""Run the compiler wrappers as a build system would: as programs on PATH.

The ``wrappers`` fixture writes ``enzyme-cc``, ``enzyme-c++`` and
``enzyme-flang`` launchers for this checkout's ``enzyme`` (the installed
console scripts may point at another copy) into a directory that is put first
on PATH, so Makefiles can say ``CC=enzyme-cc``.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from wrapper_env import REPO_ROOT, Wrappers

_ENTRY_POINTS = {"enzyme-cc": "cc_main", "enzyme-c++": "cxx_main", "enzyme-flang": "flang_main"}


@pytest.fixture(scope="session")
def wrapper_bin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("wrapper-bin")
    for script, entry in _ENTRY_POINTS.items():
        path = directory / script
        path.write_text(
            "#!/bin/sh\n"
            f"exec '{sys.executable}' -c 'import sys; from enzyme.cli import {entry}; sys.exit({entry}())' \"$@\"\n"
        )
        path.chmod(0o755)
    return directory


@pytest.fixture
def wrappers(wrapper_bin: Path, tmp_path: Path) -> Wrappers:
    env = dict(os.environ)
    env["PATH"] = f"{wrapper_bin}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    return Wrappers(tmp_path, env, wrapper_bin)
